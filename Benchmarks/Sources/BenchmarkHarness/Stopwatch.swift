/// Times the part of a workload that counts.
///
/// ```swift
/// let (seconds, rows) = try Stopwatch.measure { try insertEverything() }
/// ```
public enum Stopwatch {
    /// Runs `body` once and returns its wall-clock duration in seconds with its result.
    public static func measure<T>(_ body: () throws -> T) rethrows -> (seconds: Double, result: T) {
        let clock = ContinuousClock()
        let start = clock.now
        let result = try body()
        return (seconds(start.duration(to: clock.now)), result)
    }

    /// A duration in seconds, as a `Double`.
    public static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
