import BenchmarkHarness
import Foundation

/// One row of the writers' table: one or more processes appending SampleTrips-N.
struct WriterRow {
    var title: String
    var writers: Int
    var answers: [ChildAnswer]
    /// Rows the table holds afterwards.
    var rows = 0
    /// What is wrong with the result, if anything.
    var check: String?

    /// From the first writer's start to the last one's end.
    var seconds: Double {
        guard let start = answers.map(\.startNanoseconds).min(), let end = answers.map(\.endNanoseconds).max() else {
            return 0
        }
        return Double(end - start) / 1e9
    }

    var cpuSeconds: Double { answers.reduce(0) { $0 + $1.cpuSeconds } }
    var saves: Int { answers.reduce(0) { $0 + $1.saves } }
    var objects: Int { answers.reduce(0) { $0 + $1.objects } }
    var saveSeconds: [Double] { answers.flatMap(\.saveSeconds) }
    var peakResidentBytes: Int { answers.map(\.peakResidentBytes).max() ?? 0 }
}

/// One row of the lag table.
struct LagRow {
    var pauseMilliseconds: Int
    var saves: Int
    var writer: ChildAnswer
    var follower: ChildAnswer

    /// Milliseconds from each save's return in the writer to its arrival in the follower, for
    /// the saves the follower saw.
    var lags: [Double] {
        zip(writer.instants, follower.instants).compactMap { returned, arrived in
            arrived == 0 ? nil : Double(arrived - returned) / 1e6
        }
    }
}

/// One row of the second host's start: its rounds.
struct StartRow {
    var title: String
    var answers: [ChildAnswer]
    var checkpointRows: Int?
    var check: String?

    /// The median round by time.
    var median: ChildAnswer? {
        let sorted = answers.sorted { $0.seconds < $1.seconds }
        return sorted.isEmpty ? nil : sorted[(sorted.count - 1) / 2]
    }
}

/// The report of a run, as plain text.
struct PostgresReport {
    var date: String
    var machine: String
    var server: String
    var loadAtStart: String
    var loadAtEnd = ""
    /// SampleTrips-N of the writers and the lag, trips per save, and SampleTrips-N of the start.
    var trips = 0
    var tripsPerSave = 0
    var startTrips = 0
    var writers: [WriterRow] = []
    var lag: [LagRow] = []
    var start: [StartRow] = []

    var failures: [String] {
        writers.compactMap { row in row.check.map { "\(row.title), \(row.writers) writer(s): \($0)" } }
            + lag.compactMap { row in
                row.follower.saves == row.saves
                    ? nil
                    : "lag, \(row.pauseMilliseconds) ms: the follower saw \(row.follower.saves) of \(row.saves) saves"
            }
            + start.compactMap { row in row.check.map { "\(row.title): \($0)" } }
    }

    func render() -> String {
        var lines = [
            "Logbook stores in PostgreSQL, \(date)",
            "Machine: \(machine)",
            "Server: \(server)",
            "Load average (1, 5, 15 min): \(loadAtStart) at start, \(loadAtEnd) at end",
        ]
        if MachineInfo.isDebugBuild {
            lines.append("WARNING: a debug build; its figures mean nothing. Use swift run -c release postgres-compare.")
        }
        if !writers.isEmpty {
            lines.append("")
            lines.append(
                "Writers: SampleTrips-\(trips) (\(grouped(Double(trips * 7))) objects) appended to one store, "
                    + "\(tripsPerSave) trips per save (per transaction for the ceiling)"
            )
            lines.append(
                "| store | processes | time | CPU | saves/s | objects/s | save p50 | save p99 | rows | peak RSS |"
            )
            lines.append("|---|---|---|---|---|---|---|---|---|---|")
            for row in writers {
                let saves = Double(row.saves)
                lines.append(
                    "| \(row.title) | \(row.writers) | \(seconds(row.seconds)) | \(seconds(row.cpuSeconds)) | "
                        + "\(grouped(saves / row.seconds)) | \(grouped(Double(row.objects) / row.seconds)) | "
                        + "\(milliseconds(Percentiles.value(50, of: row.saveSeconds).map { $0 * 1_000 })) | "
                        + "\(milliseconds(Percentiles.value(99, of: row.saveSeconds).map { $0 * 1_000 })) | "
                        + "\(row.rows == 0 ? "—" : grouped(Double(row.rows))) | \(mebibytes(row.peakResidentBytes)) |"
                )
            }
        }
        if !lag.isEmpty {
            lines.append("")
            lines.append("Follower lag: one writer process saving one trip (7 objects) at a time, one follower process")
            lines.append("| pause after each save | saves | seen | save p50 | lag p50 | lag p99 | lag max |")
            lines.append("|---|---|---|---|---|---|---|")
            for row in lag {
                let lags = row.lags
                lines.append(
                    "| \(row.pauseMilliseconds) ms | \(row.saves) | \(row.follower.saves) | "
                        + "\(milliseconds(Percentiles.value(50, of: row.writer.saveSeconds).map { $0 * 1_000 })) | "
                        + "\(milliseconds(Percentiles.value(50, of: lags))) | \(milliseconds(Percentiles.value(99, of: lags))) | "
                        + "\(milliseconds(lags.max())) |"
                )
            }
        }
        if !start.isEmpty {
            lines.append("")
            lines.append(
                "A second host's start on SampleTrips-\(startTrips): open with an empty copy, fetch the 20 earliest trips, touch their bucket lists"
            )
            lines.append("| start | median time | CPU | peak RSS | rounds | checkpoint rows |")
            lines.append("|---|---|---|---|---|---|")
            for row in start {
                guard let median = row.median else { continue }
                lines.append(
                    "| \(row.title) | \(seconds(median.seconds)) | \(seconds(median.cpuSeconds)) | "
                        + "\(mebibytes(median.peakResidentBytes)) | "
                        + "\(row.answers.map { seconds($0.seconds) }.joined(separator: ", ")) | "
                        + "\(row.checkpointRows.map(String.init) ?? "—") |"
                )
            }
        }
        let notes = failures + (lag.flatMap(\.follower.notes))
        if !notes.isEmpty {
            lines.append("")
            lines.append(contentsOf: notes.map { "Note: \($0)" })
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func seconds(_ value: Double) -> String {
        value >= 1 ? String(format: "%.2f s", value) : String(format: "%.1f ms", value * 1_000)
    }

    func milliseconds(_ value: Double?) -> String {
        guard let value else { return "—" }
        return String(format: "%.2f ms", value)
    }

    func mebibytes(_ bytes: Int) -> String {
        String(format: "%.0f MiB", Double(bytes) / Double(1 << 20))
    }

    func grouped(_ value: Double) -> String {
        guard value.isFinite else { return "—" }
        let digits = String(Int(value.rounded()))
        var result = ""
        for (offset, character) in digits.reversed().enumerated() {
            if offset > 0 && offset % 3 == 0 && character != "-" { result.append(",") }
            result.append(character)
        }
        return String(result.reversed())
    }
}
