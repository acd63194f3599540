import ArgumentParser
import Foundation
import Logbook

extension LogbookCommand {
    struct Tail: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the last events of a store, and with --follow the ones appended after.",
            discussion: """
                Reads while another process writes: with --follow, new events are printed as the \
                writer appends them, whole batches at a time, until the tool is interrupted.

                \(ToolExit.help)
                """
        )

        @OptionGroup var options: StoreOptions

        @Option(name: [.customShort("n"), .long], help: "How many of the last events to print first.")
        var lines = 10

        @Flag(help: "Keep printing events as they are appended.")
        var follow = false

        @Option(help: "Output format: \(OutputFormat.allCases.map(\.rawValue).joined(separator: " or ")).")
        var format: OutputFormat = .text

        func run() throws {
            try reportingErrors(tail)
        }

        private func tail() throws {
            if follow { try options.refuseServerStore("tail --follow") }
            try options.checkStore()
            let reader = LogReader(directory: options.store)
            let report = try LogVerifier.verify(directory: options.store)
            let last = report.lastSequence ?? 0
            // The events of a compaction base are no history: the tail starts after its horizon.
            let horizon = try reader.horizon() ?? 0
            let start = max(last >= UInt64(max(lines, 0)) ? last - UInt64(max(lines, 0)) + 1 : 1, horizon + 1)
            var versions = Dictionary(
                try RecordedSchemas.scan(reader).map { ($0.number, "\($0.version)") },
                uniquingKeysWith: { $1 }
            )
            var printer = EventPrinter(format: format)
            var cursor = reader.batches(from: start)
            while true {
                while let batch = try cursor.next() {
                    for index in 0..<batch.count where batch.firstSequence + UInt64(index) >= start {
                        let envelope = try EventCodec.decode(batch.event(at: index))
                        if case .schema(let record) = envelope.event { versions[record.number] = "\(record.version)" }
                        printer.print(
                            sequence: batch.firstSequence + UInt64(index),
                            version: versions[envelope.schemaNumber] ?? "?",
                            event: envelope.event
                        )
                    }
                    printer.flush()
                }
                printer.flush()
                guard follow else {
                    try checkEndOfLog(options.store)
                    return
                }
                usleep(100_000)
            }
        }
    }
}
