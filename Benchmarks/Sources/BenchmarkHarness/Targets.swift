/// The comparison's targets: each a ratio between Logbook and GRDB measured in the same run,
/// never an absolute figure, which would depend on the machine more than on the code.
///
/// | | target |
/// |---|---|
/// | W1 | Logbook's durable append ≥ 10× faster than GRDB's with `synchronous = NORMAL` |
/// | W2 | open and touch everything ≥ 5× faster than GRDB's fastest load (3 requests, grouped) |
/// | W3 | lookups by unique name ≥ 5× faster than GRDB's cached statement |
/// | W6 | Logbook's peak memory in W2 ≤ GRDB's in its fastest load |
public struct Target: Sendable, Hashable {
    /// What the target asks of the ratio.
    public enum Bound: Sendable, Hashable {
        /// GRDB's time ÷ Logbook's time must be at least this.
        case fasterBy(Double)
        /// Logbook's peak memory ÷ GRDB's must be at most this.
        case memoryAtMost(Double)
    }

    /// The workload whose results the ratio divides (W2 for W6's peak memory).
    public var workload: WorkloadID
    /// How the target reads in the report.
    public var title: String
    /// The GRDB variant the ratio divides by.
    public var grdbVariant: String
    public var bound: Bound

    public init(workload: WorkloadID, title: String, grdbVariant: String, bound: Bound) {
        self.workload = workload
        self.title = title
        self.grdbVariant = grdbVariant
        self.bound = bound
    }

    /// The targets, in the order the report prints them.
    public static let all: [Target] = [
        Target(
            workload: .w1DurableAppend,
            title: "W1 durable append ≥ 10× GRDB (sync NORMAL)",
            grdbVariant: "sync NORMAL",
            bound: .fasterBy(10)
        ),
        Target(
            workload: .w2OpenAndLoad,
            title: "W2 open and touch everything ≥ 5× GRDB's fastest load (3 requests, grouped)",
            grdbVariant: "3 requests, grouped",
            bound: .fasterBy(5)
        ),
        Target(
            workload: .w3PointLookups,
            title: "W3 lookups by unique name ≥ 5× GRDB's cached statement",
            grdbVariant: "cached statement",
            bound: .fasterBy(5)
        ),
        Target(
            workload: .w2OpenAndLoad,
            title: "W6 peak memory during W2 ≤ GRDB's (3 requests, grouped)",
            grdbVariant: "3 requests, grouped",
            bound: .memoryAtMost(1)
        ),
    ]

    /// Whether `ratio` meets the target.
    public func isMet(by ratio: Double) -> Bool {
        switch bound {
        case .fasterBy(let minimum): ratio >= minimum
        case .memoryAtMost(let maximum): ratio <= maximum
        }
    }

    /// The ratio of one round (or of the table's median rows): Logbook's headline, its first
    /// variant, against GRDB's ``grdbVariant``; `nil` when either is missing.
    public func ratio(logbook: [WorkloadResult], grdb: [WorkloadResult]) -> Double? {
        guard let mine = logbook.first, let theirs = grdb.first(where: { $0.variant == grdbVariant }) else {
            return nil
        }
        switch bound {
        case .fasterBy:
            guard mine.seconds > 0 else { return nil }
            return theirs.seconds / mine.seconds
        case .memoryAtMost:
            guard let own = mine.peakResidentBytes, let other = theirs.peakResidentBytes, other > 0 else {
                return nil
            }
            return Double(own) / Double(other)
        }
    }

    /// Each round's ratio, for a workload run several times: the rounds' median is the figure
    /// to judge the target by, each ratio dividing two processes run one after the other.
    public func roundRatios(logbook: [[WorkloadResult]], grdb: [[WorkloadResult]]) -> [Double] {
        zip(logbook, grdb).compactMap { ratio(logbook: $0.0, grdb: $0.1) }
    }

    /// The lines under the table: for each target, the ratio it is judged by and whether it
    /// holds. The median of the rounds' ratios where the workload ran in rounds, otherwise
    /// the ratio of the table's rows.
    public static func lines(_ report: ComparisonReport) -> [String] {
        all.map { target in
            let rounds = report.targetRounds[target.title] ?? []
            let ratio: Double?
            var basis = ""
            if let median = Rounds.median(rounds) {
                ratio = median
                let each = rounds.map { ResultTable.fixed($0, 2) + "×" }.joined(separator: ", ")
                basis = " (median of the rounds' \(each))"
            } else {
                func results(_ side: Side) -> [WorkloadResult] {
                    report.entries.compactMap { entry in
                        entry.workload == target.workload && entry.side == side ? entry.measurement : nil
                    }
                }
                ratio = target.ratio(logbook: results(.logbook), grdb: results(.grdb))
            }
            guard let ratio else { return "Target \(target.title): not measured" }
            let verdict = target.isMet(by: ratio) ? "met" : "not met"
            return "Target \(target.title): \(ResultTable.fixed(ratio, 2))×\(basis), \(verdict)"
        }
    }
}
