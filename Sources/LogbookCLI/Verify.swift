import ArgumentParser
import Foundation
import Logbook

extension LogbookCommand {
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check every batch of a store.",
            discussion: """
                Checks the framing, checksum, decompression and event framing of every batch, \
                that every event of a store written by the model layer decodes, and that sequence \
                numbers run without a gap, and that the log reaches the point the store recorded \
                as durable. Prints `sound` only when every batch checks out. Names each damaged \
                segment and byte offset; reports an incomplete batch at the very end (a write cut \
                short by a crash, which the next open moves into the store's quarantine \
                directory, or one still being written) with its offset and size; lists the tails \
                earlier opens moved into quarantine. Checks each checkpoint against a replay of \
                the log up to its sequence number and names the first difference (entity, \
                identifier, attribute); a damaged or differing checkpoint counts as damage. \
                Checks every file of an `.externalStorage` value the log refers to (length, \
                CRC32C and SHA-256), naming a missing or damaged one with the event that refers \
                to it; lists the files no batch refers to, which are harmless.

                \(ToolExit.help)
                """
        )

        @OptionGroup var options: StoreOptions

        @Flag(
            help: """
                Check headers, checksums and sequence numbers only, without decompressing \
                payloads or decoding events: several times faster, and still catches every \
                flipped bit the checksum covers.
                """
        )
        var checksumsOnly = false

        func run() throws {
            try reportingErrors(verify)
        }

        private func verify() throws {
            try options.checkStore()
            let showProgress = isatty(STDERR_FILENO) != 0
            let start = Date()
            let decodesEvents = try !checksumsOnly && Self.holdsModelEvents(options.store)
            let check: (@Sendable (UnsafeRawBufferPointer) -> String?)? =
                decodesEvents ? { @Sendable bytes in Self.checkEvent(bytes) } : nil
            let report = try LogVerifier.verify(
                directory: options.store,
                decompress: !checksumsOnly,
                checkEvent: check,
                progress: { segment, bytes in
                    guard showProgress else { return }
                    let name = (segment.path as NSString).lastPathComponent
                    FileHandle.standardError.write(Data("\rverifying \(name)  \(formatBytes(bytes)) read".utf8))
                }
            )
            if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            let seconds = Date().timeIntervalSince(start)
            let range =
                report.firstSequence.flatMap { first in report.lastSequence.map { "\(first)...\($0)" } } ?? "none"
            print(
                "checked \(counted(report.segments, "segment")), \(counted(report.batches, "batch")), \(counted(report.events, "event")) (sequence \(range)), \(formatBytes(report.storedBytes)) stored, \(formatBytes(report.payloadBytes)) of payload in \(String(format: "%.3f", seconds)) s"
            )
            if let tail = report.incompleteTail {
                print(
                    "torn tail: incomplete batch at the end of the log: \(tail) (\(tail.byteCount) bytes); the next open moves it into the store's quarantine directory"
                )
            }
            for tail in report.quarantinedTails {
                print(
                    "quarantined: \(tail.path): \(tail.byteCount) bytes cut from \(tail.segmentName) at byte offset \(tail.offset) by an earlier open"
                )
            }
            for damage in report.damages {
                print("damage: \(damage) (\(damage.byteCount) bytes)")
            }
            var damagedCheckpoints = 0
            if !checksumsOnly {
                let checkpoints = try checkpointLines(options.store, verifying: true)
                if !checkpoints.lines.isEmpty {
                    print("checkpoints: \(checkpoints.lines.count)")
                    for line in checkpoints.lines { print(line) }
                }
                damagedCheckpoints = checkpoints.failed
            }
            // The files of `.externalStorage` values the log refers to, once the log itself is sound.
            var damagedExternalFiles = 0
            if !checksumsOnly && decodesEvents && report.isSound {
                let external = try ExternalFilesCheck.check(directory: options.store)
                if external.references > 0 || !external.unreferenced.isEmpty {
                    print(
                        "external values: \(counted(external.references, "reference")) to \(counted(external.files, "file"))"
                    )
                }
                for damage in external.damages { print("damage: external value file \(damage)") }
                for path in external.unreferenced {
                    print(
                        "unreferenced: \(path): no batch refers to it (harmless; left by a save that did not complete)"
                    )
                }
                damagedExternalFiles = external.damages.count
            }
            if checksumsOnly {
                print("note: checksums only: payloads were not decompressed and events were not decoded")
            } else if !decodesEvents && report.events > 0 {
                print("note: the log records no schema, so its events were checked as opaque bytes")
            }
            if !report.isSound {
                print("unsound: \(counted(report.damages.count, "damaged region"))")
                throw ExitCode(ToolExit.damaged)
            }
            if damagedExternalFiles > 0 {
                print(
                    "unsound: \(counted(damagedExternalFiles, "reference")) to missing or damaged external value files"
                )
                throw ExitCode(ToolExit.damaged)
            }
            if damagedCheckpoints > 0 {
                print("unsound: \(counted(damagedCheckpoints, "checkpoint")) damaged or unlike the log")
                throw ExitCode(ToolExit.damaged)
            }
            if report.incompleteTail != nil {
                print("incomplete: every batch is sound, but a torn write ends the log")
                throw ExitCode(ToolExit.tornTail)
            }
            print("sound")
        }

        /// Whether the store's first event is a schema record: a store written by the model
        /// layer, whose every event must decode. Stores of the bare log hold opaque events.
        static func holdsModelEvents(_ store: String) throws -> Bool {
            var cursor = LogReader(directory: store).batches()
            guard let batch = try? cursor.next(), batch.count > 0 else { return false }
            let first = batch.event(at: 0)
            guard first.first == 1, case .schema = try? EventCodec.decode(first).event else { return false }
            return true
        }

        static func checkEvent(_ bytes: UnsafeRawBufferPointer) -> String? {
            EventCodec.validate(bytes)
        }
    }
}
