import Foundation

/// Renders a ``ComparisonReport`` as the one plain-text table of the comparison.
///
/// Every workload has a Logbook row and a GRDB row (more when a side measures variants); a side
/// without a result shows "—". "time" is wall-clock time, "CPU" the process's processor time
/// over the same span. The last column compares the sides on the GRDB rows: for W1–W5 and W7–W9
/// it is the GRDB time divided by the Logbook time of the same work (above 1: Logbook is faster),
/// and for W6 Logbook's peak memory divided by GRDB's (below 1: Logbook uses less).
public enum ResultTable {
    public static let missing = "—"

    /// The whole report: header, table, notes and reference figures.
    public static func render(_ report: ComparisonReport) -> String {
        var lines: [String] = []
        lines.append("SampleTrips-\(report.tripCount) (seed 0x\(String(report.seed, radix: 16))), \(report.date)")
        lines.append("Machine: \(report.machine.summary)")
        lines.append("Load average (1, 5, 15 min): \(report.loadAtStart) at start, \(report.loadAtEnd) at end")
        for version in report.versions {
            lines.append("  \(version)")
        }
        lines.append("")
        lines.append(contentsOf: table(report))
        let own =
            appendCountingFrees(report) + migrationRatios(report) + storeBytes(report) + residentSplits(report)
            + Target.lines(report)
        if !own.isEmpty {
            lines.append("")
            lines.append(contentsOf: own)
        }
        if !report.notes.isEmpty {
            lines.append("")
            lines.append(contentsOf: report.notes.map { "Note: \($0)" })
        }
        lines.append("")
        lines.append("Reference figures (this machine, same run)")
        if report.lz4.isEmpty && report.sequentialReads.isEmpty && report.memoryLatency == nil {
            lines.append("  none measured")
        }
        for figure in report.lz4 {
            lines.append(
                "  LZ4_decompress_safe, \(figure.source): "
                    + "\(size(figure.uncompressedBytes)) from \(size(figure.compressedBytes)) "
                    + "(\(fixed(figure.ratio, 2)):1) at \(grouped(figure.megabytesPerSecond)) MB/s"
            )
        }
        for figure in report.sequentialReads {
            let direct = figure.directMegabytesPerSecond.map { "\(grouped($0)) MB/s" } ?? "not supported here"
            lines.append(
                "  Sequential read of \(figure.directory) (\(figure.files) files, \(size(figure.bytes))): "
                    + "page cache \(grouped(figure.pageCacheMegabytesPerSecond)) MB/s, O_DIRECT \(direct)"
            )
        }
        if let figure = report.memoryLatency {
            lines.append(
                "  Random reads in \(figure.bufferBytes >> 20) MiB, each at the address the read before found: "
                    + "\(fixed(figure.dependentNanoseconds, 1)) ns per read; "
                    + "four such chains at once: \(fixed(figure.fourChainsNanoseconds, 1)) ns per read"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The table rows, header and rule included.
    public static func table(_ report: ComparisonReport) -> [String] {
        var rows: [[String]] = [["workload", "side", "time", "CPU", "throughput", "MB/s", "peak RSS", "Logbook÷GRDB"]]
        for workload in WorkloadID.allCases {
            let logbook = report.headline(workload, .logbook)
            var first = true
            for side in Side.allCases {
                let entries = report.entries.filter { $0.workload == workload && $0.side == side }
                let shown =
                    entries.isEmpty
                    ? [ComparisonReport.Entry(workload: workload, side: side, measurement: nil)] : entries
                for entry in shown {
                    rows.append(
                        row(entry, title: first ? workload.title : "", ratioAgainst: side == .grdb ? logbook : nil)
                    )
                    first = false
                }
            }
        }
        // W6: the peak memory of each W2 process.
        let logbookPeak = report.headline(.w2OpenAndLoad, .logbook)?.peakResidentBytes
        var title = "W6 peak RSS during W2"
        for side in Side.allCases {
            let loads = report.entries.compactMap { entry in
                entry.workload == .w2OpenAndLoad && entry.side == side ? entry.measurement : nil
            }
            for load in loads.isEmpty ? [nil] : loads.map(Optional.some) {
                var ratio = side == .grdb ? missing : ""
                if side == .grdb, let logbookPeak, let peak = load?.peakResidentBytes, peak > 0 {
                    ratio = "\(fixed(Double(logbookPeak) / Double(peak), 2))×"
                }
                let label = load?.variant.map { "\(side.displayName) (\($0))" } ?? side.displayName
                rows.append([
                    title, label, missing, missing, missing, missing, mebibytes(load?.peakResidentBytes), ratio,
                ])
                title = ""
            }
        }
        return layout(rows)
    }

    /// W1's Logbook time with the freeing of the context's models counted (the variant
    /// "durable, models freed"), against GRDB's headline: the ratio without anything done on
    /// another thread after the time stops.
    static func appendCountingFrees(_ report: ComparisonReport) -> [String] {
        let freed = report.entries.first {
            $0.workload == .w1DurableAppend && $0.side == .logbook
                && $0.measurement?.variant == WorkloadID.w1ModelsFreed
        }?
        .measurement
        guard let freed, freed.seconds > 0, let grdb = report.headline(.w1DurableAppend, .grdb) else { return [] }
        return [
            "W1 Logbook, counting the freeing of the context's models on another thread: "
                + "\(duration(freed.seconds)), \(fixed(grdb.seconds / freed.seconds, 2))× GRDB's \(duration(grdb.seconds))"
        ]
    }

    /// W4's own target: opening the V1 store through the migration against opening the same
    /// data written at V3, which W2's "open only" row times, in a fresh process like W4's
    /// migration (the reopen row runs in the process that just migrated, with its heap grown).
    static func migrationRatios(_ report: ComparisonReport) -> [String] {
        func logbook(_ workload: WorkloadID, _ variant: String) -> WorkloadResult? {
            report.entries.first {
                $0.workload == workload && $0.side == .logbook && $0.measurement?.variant == variant
            }?
            .measurement
        }
        guard let migration = logbook(.w4OpenThroughMigration, "V1 → V3 migration") else { return [] }
        var lines: [String] = []
        if let open = logbook(.w2OpenAndLoad, "open only"), open.seconds > 0 {
            lines.append(
                "W4 Logbook: the migration takes \(fixed(migration.seconds / open.seconds, 2))× a fresh V3 open of the same data "
                    + "(\(duration(migration.seconds)) against W2's open only, \(duration(open.seconds)))"
            )
        }
        let pairs = report.migrationPairs.filter { $0.openSeconds > 0 }
        if !pairs.isEmpty {
            let ratios = pairs.map(\.ratio)
            let median = ratios.sorted()[ratios.count / 2]
            let each = pairs.map {
                "\(fixed($0.ratio, 2))× (\(duration($0.migrationSeconds)) / \(duration($0.openSeconds)))"
            }
            lines.append(
                "W4 Logbook, \(pairs.count) pairs of fresh processes run alternately: the migration takes "
                    + "\(fixed(median, 2))× the V3 open, the median of \(each.joined(separator: ", "))"
            )
        }
        if let reopen = logbook(.w4OpenThroughMigration, "reopen, migrated"), reopen.seconds > 0 {
            lines.append(
                "W4 Logbook: the migration takes \(fixed(migration.seconds / reopen.seconds, 2))× reopening the migrated store "
                    + "in the same process (\(duration(reopen.seconds)))"
            )
        }
        return lines
    }

    /// W9's bytes: each side's store before and after its row's operation, in all and by kind
    /// of file.
    static func storeBytes(_ report: ComparisonReport) -> [String] {
        report.entries.compactMap { entry in
            guard entry.workload == .w9DeleteHistory, let bytes = entry.measurement?.storeBytes else { return nil }
            func kinds(_ sizes: [String: Int]) -> String {
                sizes.isEmpty
                    ? "no files"
                    : sizes.sorted { $0.key < $1.key }.map { "\($0.key) \(size($0.value))" }.joined(separator: ", ")
            }
            let ratio = bytes.totalBefore > 0 ? fixed(Double(bytes.totalAfter) / Double(bytes.totalBefore), 2) : missing
            return "W9 \(entry.side.displayName) store bytes: "
                + "\(size(bytes.totalBefore)) before (\(kinds(bytes.before))), "
                + "\(size(bytes.totalAfter)) after (\(kinds(bytes.after))): \(ratio)× of before"
        }
    }

    /// The resident memory by kind at the end of each measurement that took it (W2): what the
    /// peak is made of.
    static func residentSplits(_ report: ComparisonReport) -> [String] {
        report.entries.compactMap { entry in
            guard let measurement = entry.measurement, let split = measurement.residentAtEnd else { return nil }
            let variant = measurement.variant.map { " (\($0))" } ?? ""
            return "\(entry.workload.title) \(entry.side.displayName)\(variant) resident at the end: "
                + "anonymous \(mebibytes(split.anonymousBytes)), file-backed \(mebibytes(split.fileBytes)), "
                + "shared \(mebibytes(split.sharedBytes))"
        }
    }

    static func row(_ entry: ComparisonReport.Entry, title: String, ratioAgainst logbook: WorkloadResult?) -> [String] {
        let sideLabel = entry.measurement?.variant.map { "\(entry.side.displayName) (\($0))" } ?? entry.side.displayName
        guard let measurement = entry.measurement else {
            return [title, sideLabel, missing, missing, missing, missing, missing, entry.side == .grdb ? missing : ""]
        }
        var ratio = entry.side == .grdb ? missing : ""
        if let logbook, logbook.seconds > 0 {
            ratio = "\(fixed(measurement.seconds / logbook.seconds, 2))×"
        }
        return [
            title,
            sideLabel,
            duration(measurement.seconds),
            measurement.cpuSeconds.map(duration) ?? missing,
            measurement.itemsPerSecond.map { "\(grouped($0)) \(measurement.unit)/s" } ?? missing,
            measurement.megabytesPerSecond.map { fixed($0, 1) } ?? missing,
            mebibytes(measurement.peakResidentBytes),
            ratio,
        ]
    }

    /// Pads the columns: text left-aligned, figures right-aligned.
    static func layout(_ rows: [[String]]) -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() {
                widths[index] = max(widths[index], cell.count)
            }
        }
        func render(_ row: [String]) -> String {
            row.enumerated().map { index, cell in
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                return index < 2 ? cell + padding : padding + cell
            }
            .joined(separator: "  ")
            .replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        var lines = [render(rows[0])]
        lines.append(String(repeating: "-", count: widths.reduce(0, +) + 2 * (columns - 1)))
        lines.append(contentsOf: rows.dropFirst().map(render))
        return lines
    }

    // MARK: - Number formats

    package static func duration(_ seconds: Double) -> String {
        if seconds >= 1 { return "\(fixed(seconds, 2)) s" }
        if seconds >= 0.001 { return "\(fixed(seconds * 1_000, 1)) ms" }
        return "\(fixed(seconds * 1_000_000, 1)) µs"
    }

    static func mebibytes(_ bytes: Int?) -> String {
        guard let bytes else { return missing }
        return "\(fixed(Double(bytes) / Double(1 << 20), 0)) MiB"
    }

    /// Decimal megabytes, or kilobytes and bytes for small sizes.
    package static func size(_ bytes: Int) -> String {
        if bytes >= 1_000_000 { return "\(fixed(Double(bytes) / 1_000_000, 1)) MB" }
        if bytes >= 1_000 { return "\(fixed(Double(bytes) / 1_000, 1)) kB" }
        return "\(bytes) bytes"
    }

    static func fixed(_ value: Double, _ decimals: Int) -> String {
        String(format: "%.\(decimals)f", value)
    }

    /// A whole number with thousands separators, independent of the locale.
    package static func grouped(_ value: Double) -> String {
        guard value.isFinite else { return missing }
        let digits = String(Int(value.rounded()))
        var result = ""
        for (offset, character) in digits.reversed().enumerated() {
            if offset > 0 && offset % 3 == 0 && character != "-" { result.append(",") }
            result.append(character)
        }
        return String(result.reversed())
    }
}
