#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The time of day that every process on this host reads alike: `clock_gettime(CLOCK_REALTIME)`.
///
/// Two processes compare their events by it (a save's return in one, its arrival in another);
/// `ContinuousClock` instants mean nothing outside their process.
public enum WallClock {
    /// Nanoseconds since the epoch, now.
    public static func nanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
