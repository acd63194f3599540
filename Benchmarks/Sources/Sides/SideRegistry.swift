import BenchmarkHarness

/// The implementation of each side of the comparison.
public enum SideRegistry {
    /// The workloads of `side`, or `nil` while that side has no implementation: its cells in the
    /// table then show "—".
    public static func workloads(for side: Side) -> (any Workloads)? {
        switch side {
        case .grdb:
            GRDBWorkloads()
        case .logbook:
            LogbookWorkloads()
        }
    }
}
