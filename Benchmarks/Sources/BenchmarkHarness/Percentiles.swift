/// Percentiles of a sample, by the nearest-rank method: the p-th percentile of n values is the
/// value of rank ⌈p/100 × n⌉ in ascending order (the smallest for p = 0).
///
/// ```swift
/// let lags = [0.9, 1.2, 0.8, 5.0]
/// Percentiles.value(50, of: lags)  // 0.9
/// Percentiles.value(99, of: lags)  // 5.0
/// ```
///
/// Every value it returns was measured: nothing is interpolated between two samples.
public enum Percentiles {
    /// The `percentile`-th percentile of `values`, or `nil` for no values.
    ///
    /// - Parameters:
    ///   - percentile: From 0 to 100.
    ///   - values: The sample, in any order.
    /// - Returns: The value of rank ⌈percentile/100 × count⌉ (at least 1) in ascending order.
    /// - Precondition: `0 <= percentile <= 100`.
    public static func value(_ percentile: Double, of values: [Double]) -> Double? {
        precondition(percentile >= 0 && percentile <= 100, "a percentile lies between 0 and 100")
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = Int((percentile / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
