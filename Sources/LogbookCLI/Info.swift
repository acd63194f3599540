import ArgumentParser
import Foundation
import Logbook

extension LogbookCommand {
    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a store's segments, batches, events and sequence range.",
            discussion: """
                Counts the batches of each log format version: a store written before format 2 \
                keeps its version 1 batches after newer ones are appended. For a store written \
                by the model layer, also lists the schema versions recorded in the log, with \
                their fingerprints, and the migration stages that have run; the point the store \
                recorded as durable; the checkpoints, with their sequence number, size and schema \
                version; the tails earlier opens moved into quarantine; and whether the store is \
                damaged or ends in a torn write.

                \(ToolExit.help)
                """
        )

        @OptionGroup var options: StoreOptions

        func run() throws {
            try reportingErrors(info)
        }

        private func info() throws {
            try options.checkStore()
            let history = SchemaHistory()
            let modelStore = try Verify.holdsModelEvents(options.store)
            let report = try LogVerifier.verify(
                directory: options.store,
                eachBatch: modelStore ? { history.note($0) } : nil
            )
            let segments = try LogReader(directory: options.store).segments()
            print(
                "store:     \(ServerStores.url(ofCopy: options.store).map { "\($0) (read from a copy)" } ?? options.store)"
            )
            print("segments:  \(report.segments)")
            for segment in segments {
                let size =
                    (try? FileManager.default.attributesOfItem(atPath: segment.path)[.size] as? NSNumber)?.int64Value
                    ?? 0
                print("  \((segment.path as NSString).lastPathComponent)  \(formatBytes(size))")
            }
            print("batches:   \(report.batches) (\(report.compressedBatches) LZ4-compressed)")
            if !report.batchesByVersion.isEmpty {
                let versions = report.batchesByVersion.sorted { $0.key < $1.key }
                let counts = versions.map { "version \($0.key): \($0.value) batch\($0.value == 1 ? "" : "es")" }
                print("format:    " + counts.joined(separator: ", "))
            }
            print("events:    \(report.events)")
            if let first = report.firstSequence, let last = report.lastSequence {
                print("sequence:  \(first)...\(last)")
                if let horizon = segments.first?.horizon {
                    print("history:   deleted up to token \(horizon) (events \(first)...\(horizon) are its base)")
                }
            } else {
                print("sequence:  empty")
            }
            let ratio = report.storedBytes > 0 ? Double(report.payloadBytes) / Double(report.storedBytes) : 0
            print(
                "stored:    \(formatBytes(report.storedBytes)) (payload \(formatBytes(report.payloadBytes)), ratio \(String(format: "%.2f", ratio)))"
            )
            if modelStore {
                print("schemas:   \(history.schemas.count) recorded")
                for record in history.schemas {
                    print("  #\(record.number)  version \(record.version)  fingerprint \(record.fingerprint)")
                    for line in record.schema.constraintLines { print("      \(line)") }
                    for line in record.schema.hierarchyLines { print("      \(line)") }
                }
                print("migrations: \(history.migrations.count) stage(s) run")
                for marker in history.migrations {
                    print(
                        "  \(marker.fromVersion) → \(marker.toVersion) (\(marker.isCustom ? "custom" : "lightweight"))"
                    )
                }
            } else if report.events > 0 {
                print("schemas:   none recorded (the events are opaque bytes)")
            }
            if let point = report.durablePoint {
                print("durable:   sequence \(point.sequence) (recorded in \(DurableRecord.fileName))")
            }
            let checkpoints = try checkpointLines(options.store, verifying: false)
            if !checkpoints.lines.isEmpty {
                print("checkpoints: \(checkpoints.lines.count)")
                for line in checkpoints.lines { print(line) }
            }
            if !report.quarantinedTails.isEmpty {
                print("quarantine: \(counted(report.quarantinedTails.count, "tail")) cut off by earlier opens")
                for tail in report.quarantinedTails {
                    print(
                        "  \((tail.path as NSString).lastPathComponent)  \(tail.byteCount) bytes from \(tail.segmentName) at byte offset \(tail.offset)"
                    )
                }
            }
            if !report.isSound {
                print(
                    "damage:    the store is damaged: \(counted(report.damages.count, "region")); run `logbook verify` for details"
                )
                throw ExitCode(ToolExit.damaged)
            }
            if let tail = report.incompleteTail {
                print("torn tail: \(tail) (\(tail.byteCount) bytes); the next open moves it into quarantine")
                throw ExitCode(ToolExit.tornTail)
            }
        }
    }
}

/// The schema records and migration markers of a store, collected while its batches are checked.
private final class SchemaHistory {
    private(set) var schemas: [Event.SchemaRecord] = []
    private(set) var migrations: [Event.MigrationMarker] = []

    /// Notes the schema records and migration markers of a batch; events that do not decode
    /// are left to `logbook verify`.
    func note(_ batch: Batch) {
        batch.payload.withUnsafeBytes { payload in
            for range in batch.eventRanges {
                let bytes = UnsafeRawBufferPointer(rebasing: payload[range])
                guard EventCodec.recordsSchemaHistory(bytes), let envelope = try? EventCodec.decode([UInt8](bytes))
                else { continue }
                switch envelope.event {
                case .schema(let record): schemas.append(record)
                case .migration(let marker): migrations.append(marker)
                default: break
                }
            }
        }
    }
}
