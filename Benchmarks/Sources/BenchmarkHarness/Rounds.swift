/// The rounds of a workload that runs several times on each side (`compare run --rounds`): the
/// median round of each variant, for the table, and a note with every round.
public enum Rounds {
    /// For each variant, the round whose time is the median: the middle one of an odd number of
    /// rounds, the faster of the middle two of an even number. Every round of a side measures
    /// the same variants in the same order; a variant missing from a round is left out of its
    /// median.
    public static func medians(of rounds: [[WorkloadResult]]) -> [WorkloadResult] {
        guard let first = rounds.first else { return [] }
        return first.indices.map { index in
            let sorted = rounds.compactMap { $0.indices.contains(index) ? $0[index] : nil }
                .sorted { $0.seconds < $1.seconds }
            return sorted[(sorted.count - 1) / 2]
        }
    }

    /// Each round's GRDB time divided by its Logbook time, headline against headline (each
    /// side's first variant), as the table's last column divides them.
    public static func ratios(logbook: [[WorkloadResult]], grdb: [[WorkloadResult]]) -> [Double] {
        zip(logbook, grdb).compactMap { pair in
            guard let mine = pair.0.first, let theirs = pair.1.first, mine.seconds > 0 else { return nil }
            return theirs.seconds / mine.seconds
        }
    }

    /// The median of `values`: the middle one, or the smaller of the middle two; `nil` for none.
    public static func median(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : values.sorted()[(values.count - 1) / 2]
    }

    /// Every round's time of each side's headline and, with both sides, each round's ratio and
    /// their median: the figure to judge a ratio target by, each of those ratios dividing two
    /// processes run one after the other, where the table's last column divides medians that
    /// may come from different rounds.
    public static func note(_ workload: WorkloadID, _ measured: [Side: [[WorkloadResult]]], sides: [Side]) -> String {
        var parts: [String] = []
        for side in sides {
            let times = (measured[side] ?? []).compactMap(\.first).map { ResultTable.duration($0.seconds) }
            let variant = measured[side]?.first?.first?.variant.map { " (\($0))" } ?? ""
            parts.append("\(side.displayName)\(variant) \(times.joined(separator: ", "))")
        }
        if let logbook = measured[.logbook], let grdb = measured[.grdb] {
            let ratios = ratios(logbook: logbook, grdb: grdb)
            if let median = median(ratios) {
                let shown = ratios.map { ResultTable.fixed($0, 2) + "×" }.joined(separator: ", ")
                parts.append("Logbook÷GRDB by round \(shown) (median \(ResultTable.fixed(median, 2))×)")
            }
        }
        let count = measured.values.map(\.count).max() ?? 0
        return "\(workload.title), \(count) rounds, the sides' order alternating; the table shows each row's "
            + "median round. \(parts.joined(separator: "; "))"
    }
}
