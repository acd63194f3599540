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
            let latestVersion = records.last.map { "\($0.version)" } ?? "?"
            let latestNumber = records.last?.number
            var printer = EventPrinter(format: format)
            try EventStream.forEach(reader, from: from ?? 1, through: to ?? .max) { sequence, envelope in
                var event = envelope.event
                var version = versions[envelope.schemaNumber] ?? "?"
                if let upcaster, envelope.schemaNumber != latestNumber, !Self.isSchemaOrMarker(event) {
                    guard let upcast = upcaster.upcast(event) else { return }
                    event = upcast
                    version = latestVersion
                }
                if let entity, Self.entity(of: event) != entity { return }
                printer.print(sequence: sequence, version: version, event: event)
            }
            printer.flush()
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
            case .delete(let entity, _): return entity
            case .link(let link), .unlink(let link): return link.entity
            case .schema, .migration: return nil
            }
        }
    }
}
