import ArgumentParser
import Foundation
import Logbook

extension LogbookCommand {
    struct Salvage: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy the sound part of a damaged store into a new store.",
            discussion: """
                Reads every batch of DAMAGED in order and copies each whole batch whose checksum, \
                framing and events are sound and whose sequence numbers continue the kept ones \
                into a new store at NEW. Copying stops at the first damage, so that the new store \
                runs without a gap; what follows is read and listed as dropped. Prints one line \
                for each run of kept batches and for each dropped stretch (segment, byte offset, \
                sequence numbers, event count, reason), then a summary.

                DAMAGED is only read, never changed. NEW must not exist or must be an empty \
                directory; it is written with durable appends in a temporary directory beside it \
                that is renamed into place at the end, so a salvage that fails or is interrupted \
                leaves nothing under NEW's name.

                Tails that opens of DAMAGED moved into its quarantine directory are listed, not \
                copied: they follow the log's last batch.

                Exit status: 0 everything was kept; 1 something was dropped (the store is \
                damaged); 2 the salvage could not be done (DAMAGED is not a store, NEW exists, a \
                read or write failed); 3 only an incomplete batch at the end (a torn write) was \
                dropped; 64 bad arguments.
                """
        )

        @Argument(help: "The damaged store; it is only read.")
        var damaged: String

        @Argument(help: "A path for the new store; it must not exist yet or be an empty directory.")
        var new: String

        func run() throws {
            let report: SalvageReport
            do {
                try StoreOptions.checkStore(at: damaged)
                let checksEvents = try Verify.holdsModelEvents(damaged)
                report = try Logbook.Salvage.salvage(
                    from: damaged,
                    to: new,
                    checkEvent: checksEvents ? { Verify.checkEvent($0) } : nil
                )
            } catch {
                FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
                throw ExitCode(ToolExit.error)
            }
            for entry in report.entries {
                print(Self.line(entry))
            }
            for tail in report.quarantinedTails {
                print(
                    "quarantined  \(tail.path): \(tail.byteCount) bytes cut from \(tail.segmentName) at byte offset \(tail.offset) by an earlier open; not copied"
                )
            }
            if report.copiedExternalFiles > 0 {
                print(
                    "external     copied \(counted(report.copiedExternalFiles, "value file")) the kept batches refer to"
                )
            }
            for missing in report.missingExternalFiles {
                print("external     reference kept, file not copied: \(missing)")
            }
            print(Self.summary(report, new: new))
            if report.dropped.allSatisfy({ if case .tornTail = $0.disposition { true } else { false } }),
                !report.keptEverything
            {
                throw ExitCode(ToolExit.tornTail)
            }
            if !report.keptEverything { throw ExitCode(ToolExit.damaged) }
        }

        static func line(_ entry: SalvageReport.Entry) -> String {
            var text = entry.isKept ? "kept     " : "dropped  "
            text += "\(entry.segment) at byte offset \(entry.offset), \(entry.byteCount) bytes: "
            switch (entry.firstSequence, entry.eventCount) {
            case (let first?, let count?) where count > 0:
                text += "sequence \(first)...\(first + UInt64(count) - 1), \(counted(count, "event"))"
            case (let first?, nil):
                text += "sequence from \(first), event count unknown"
            default:
                text += "sequence unknown, event count unknown"
            }
            if entry.batchCount > 0 { text += " in \(counted(entry.batchCount, "batch"))" }
            switch entry.disposition {
            case .kept: break
            case .damaged(let reason): text += "; damaged: \(reason)"
            case .tornTail(let reason): text += "; incomplete batch at the end of the log (a torn write): \(reason)"
            case .missing: text += "; missing: no segment holds these events"
            case .afterDamage: text += "; after the damage"
            }
            return text
        }

        static func summary(_ report: SalvageReport, new: String) -> String {
            let range = report.keptSequence.map { " (sequence \($0.lowerBound)...\($0.upperBound))" } ?? ""
            var text =
                "summary: read \(counted(report.segments, "segment")); kept \(counted(report.keptEvents, "event"))\(range) in \(counted(report.keptBatches, "batch")) into \(new)"
            let dropped = report.dropped
            if dropped.isEmpty { return text + "; dropped nothing" }
            let events = dropped.reduce(0) { $0 + ($1.eventCount ?? 0) }
            let batches = dropped.reduce(0) { $0 + $1.batchCount }
            let regions = dropped.filter { $0.batchCount == 0 }.count
            let unknown = dropped.filter { $0.eventCount == nil }.count
            text +=
                "; dropped \(counted(events, "event")) in \(counted(batches, "whole batch")) and \(counted(regions, "damaged or missing region"))"
            if unknown > 0 { text += " (and the events of \(counted(unknown, "region")) whose extent is unknown)" }
            return text
        }
    }
}
