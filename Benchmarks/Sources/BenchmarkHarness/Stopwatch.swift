#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How long the timed part of a workload took: on the wall, and on the processor.
///
/// On a machine shared with other work the wall time stretches while the processor time does
/// not: a wall time far above the processor time means waiting, on the disk or for a core.
public struct Timing: Codable, Hashable, Sendable {
    /// Wall-clock seconds.
    public var seconds: Double
    /// Processor seconds of the whole process (all threads, user and system) over the same span.
    public var cpuSeconds: Double

    public init(seconds: Double, cpuSeconds: Double) {
        self.seconds = seconds
        self.cpuSeconds = cpuSeconds
    }
}

/// A value computed under a ``Stopwatch``, with its ``Timing``.
public struct Timed<Result> {
    public var timing: Timing
    public var result: Result
}

extension Timed: Sendable where Result: Sendable {}

/// Times the part of a workload that counts.
///
/// ```swift
/// let timed = try Stopwatch.time { try insertEverything() }
/// return WorkloadResult(timing: timed.timing, items: timed.result, unit: "rows")
/// ```
public enum Stopwatch {
    /// Runs `body` once and returns its result with its wall-clock and processor time.
    public static func time<T>(_ body: () throws -> T) rethrows -> Timed<T> {
        let clock = ContinuousClock()
        let cpuStart = processorSeconds()
        let start = clock.now
        let result = try body()
        let seconds = seconds(start.duration(to: clock.now))
        return Timed(timing: Timing(seconds: seconds, cpuSeconds: processorSeconds() - cpuStart), result: result)
    }

    /// Runs `body` once and returns its wall-clock duration in seconds with its result.
    public static func measure<T>(_ body: () throws -> T) rethrows -> (seconds: Double, result: T) {
        let timed = try time(body)
        return (timed.timing.seconds, timed.result)
    }

    /// A duration in seconds, as a `Double`.
    public static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// The processor time of this process so far, in seconds.
    static func processorSeconds() -> Double {
        var now = timespec()
        guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now) == 0 else { return 0 }
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
