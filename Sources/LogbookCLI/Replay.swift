import ArgumentParser
import Foundation
import Logbook

extension LogbookCommand {
    struct Replay: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rebuild a store's objects from its log and print them with their relationships.",
            discussion: """
                Replays the log with the same upcasting and projection code as the library, at the \
                newest schema the store recorded, and prints every live object: its attributes and \
                the identifiers it is related to.

                \(ToolExit.help)
                """
        )

        @OptionGroup var options: StoreOptions

        @Option(help: "Only objects of this entity and of the entities that inherit from it.")
        var entity: String?

        @Option(help: "Show the store as it was right after this sequence number.")
        var asOf: UInt64?

        @Option(help: "Output format: \(OutputFormat.allCases.map(\.rawValue).joined(separator: " or ")).")
        var format: OutputFormat = .text

        func run() throws {
            try reportingErrors(replay)
        }

        private func replay() throws {
            try options.checkStore()
            guard let projection = try Projection.replaying(LogReader(directory: options.store), through: asOf ?? .max)
            else {
                if format == .text { FileHandle.standardOutput.write(Data("empty store: no schema recorded\n".utf8)) }
                return
            }
            if let entity, projection.table(named: entity) == nil {
                let known = projection.tables.map(\.entity.name).joined(separator: ", ")
                throw CLIError("the store has no entity named \(entity) (it has \(known))")
            }
            if let asOf, asOf > projection.lastSequence {
                throw CLIError(
                    "--as-of \(asOf) is past the end of the log: its last sequence number is \(projection.lastSequence)"
                )
            }
            let json = JSONWriter()
            var output: [UInt8] = []
            if format == .text {
                let counts = projection.tables.map { "\($0.count) \($0.entity.name)" }.joined(separator: ", ")
                output += Array(
                    "as of sequence \(projection.lastSequence), schema \(projection.schema.version): \(counts)\n".utf8
                )
            }
            // An entity's objects and those of the entities that inherit from it, as a fetch gives them.
            let shown = entity.map { Set(projection.schema.entityNames(inheritingFrom: $0)) }
            for table in projection.tables.sorted(by: { $0.entity.name < $1.entity.name })
            where shown?.contains(table.entity.name) ?? true {
                for (id, slot) in table.identifiersInOrder() {
                    let row = table.row(at: slot)
                    if format == .json {
                        json.reset()
                        write(table.entity, id, row, into: json)
                        json.newline()
                        output += json.bytes
                    } else {
                        output += Array((text(table.entity, id, row) + "\n").utf8)
                    }
                    if output.count > 1 << 20 {
                        FileHandle.standardOutput.write(Data(output))
                        output.removeAll(keepingCapacity: true)
                    }
                }
            }
            FileHandle.standardOutput.write(Data(output))
            if asOf == nil { try checkEndOfLog(options.store) }
        }

        private func text(_ entity: Schema.Entity, _ id: UInt64, _ row: Row) -> String {
            let attributes = zip(entity.attributes, row.values).map { "\($0.name)=\(ValueText.text($1))" }
            let relationships = zip(entity.relationships, row.relationships).map { relationship, targets in
                relationship.isToMany
                    ? "\(relationship.name) → [\(targets.map { "#\($0)" }.joined(separator: ", "))]"
                    : "\(relationship.name) → \(targets.first.map { "#\($0)" } ?? "nil")"
            }
            return "\(entity.name)#\(id)\t" + (attributes + relationships).joined(separator: " ")
        }

        private func write(_ entity: Schema.Entity, _ id: UInt64, _ row: Row, into json: JSONWriter) {
            json.beginObject()
            json.key("entity")
            json.string(entity.name)
            json.key("id")
            json.number(id)
            json.key("attributes")
            json.beginObject()
            for (attribute, value) in zip(entity.attributes, row.values) {
                json.key(name: attribute.name)
                json.value(value)
            }
            json.endObject()
            json.key("relationships")
            json.beginObject()
            for (relationship, targets) in zip(entity.relationships, row.relationships) {
                json.key(name: relationship.name)
                if relationship.isToMany {
                    json.beginArray()
                    for target in targets { json.number(target) }
                    json.endArray()
                } else if let target = targets.first {
                    json.number(target)
                } else {
                    json.raw("null")
                }
            }
            json.endObject()
            json.endObject()
        }
    }
}
