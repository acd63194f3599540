import ArgumentParser
import Foundation
import Logbook

extension LogbookCommand {
    struct Dump: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the events of a store.",
            discussion: """
                Events are shown as the newest schema the store has recorded sees them (renamed \
                attributes under their new names, removed ones left out), unless --raw. With \
                --format json, each event is one JSON object on its own line (NDJSON) with seq, \
                schemaVersion, kind, entity, id, attributes and relationships.

                \(ToolExit.help)
                """
        )

        @OptionGroup var options: StoreOptions

        @Option(help: "Output format: \(OutputFormat.allCases.map(\.rawValue).joined(separator: " or ")).")
        var format: OutputFormat = .text

        @Flag(help: "Show events as written, without upcasting.")
        var raw = false

        @Option(help: "The first sequence number to print.")
        var from: UInt64?

        @Option(help: "The last sequence number to print.")
        var to: UInt64?

        @Option(help: "Only events about this entity.")
        var entity: String?

        func validate() throws {
            if let from, let to, from > to { throw ValidationError("--from \(from) is after --to \(to)") }
        }

        func run() throws {
            try reportingErrors(dump)
        }

        private func dump() throws {
            try options.checkStore()
            let reader = LogReader(directory: options.store)
            let records = try RecordedSchemas.scan(reader)
            let versions = Dictionary(records.map { ($0.number, "\($0.version)") }, uniquingKeysWith: { $1 })
            let upcaster =
                raw
                ? nil
                : records.last.map { latest in
                    Upcaster(to: latest.schema, history: records.dropLast().map(\.schema))
                }
            if let entity, !records.isEmpty, !records.contains(where: { $0.schema.entity(named: entity) != nil }) {
                let known = records.last.map { $0.schema.entities.map(\.name).joined(separator: ", ") } ?? ""
                throw CLIError("the store has no entity named \(entity) (it has \(known))")
            }
            let latestVersion = records.last.map { "\($0.version)" } ?? "?"
            let latestNumber = records.last?.number
            var printer = EventPrinter(format: format)
            let first = from ?? 1
            let last = to ?? .max
            // Inserts and updates that need no upcasting are printed straight from their bytes;
            // everything else is decoded.
            let fastVersion: (UInt32) -> String? = { number in
                guard upcaster == nil || number == latestNumber else { return nil }
                return versions[number] ?? "?"
            }
            // What was read before damage is printed before the error is reported.
            defer { printer.flush() }
            var cursor = reader.batches(from: first)
            batches: while let batch = try cursor.next() {
                for index in 0..<batch.count {
                    let sequence = batch.firstSequence + UInt64(index)
                    if sequence < first { continue }
                    if sequence > last { break batches }
                    let range = batch.eventRanges[index]
                    let outcome = batch.payload.withUnsafeBytes { payload in
                        printer.printChange(
                            sequence: sequence,
                            bytes: UnsafeRawBufferPointer(rebasing: payload[range]),
                            version: fastVersion,
                            entity: entity
                        )
                    }
                    if outcome == .printed { continue }
                    let envelope = try batch.decodedEvent(at: index, sequence: sequence)
                    var event = envelope.event
                    var version = versions[envelope.schemaNumber] ?? "?"
                    if let upcaster, envelope.schemaNumber != latestNumber, !Self.isSchemaOrMarker(event) {
                        guard let upcast = upcaster.upcast(event) else { continue }
                        event = upcast
                        version = latestVersion
                    }
                    if let entity, Self.entity(of: event) != entity { continue }
                    printer.print(sequence: sequence, version: version, event: event)
                }
            }
            printer.flush()
            if to == nil { try checkEndOfLog(options.store) }
        }

        static func isSchemaOrMarker(_ event: Event) -> Bool {
            switch event {
            case .schema, .migration: return true
            default: return false
            }
        }

        static func entity(of event: Event) -> String? {
            switch event {
            case .insert(let change): return change.entity
            case .update(let change): return change.entity
            case .delete(let entity, _, _): return entity
            case .link(let link), .unlink(let link): return link.entity
            case .schema, .migration: return nil
            }
        }
    }
}
