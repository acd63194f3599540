import ArgumentParser
import Foundation
import Logbook

extension LogbookCommand {
    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the history transactions of a store, with their changes and values.",
            discussion: """
                Each save is one transaction, named by its token: the sequence number of its last \
                event. Changes are shown as the newest schema the store has recorded sees them, \
                one per object: an insert with the values it wrote, an update with the attributes \
                and relationships it wrote (and the values of the attributes), a delete with the \
                values of its attributes marked .preserveValueOnDeletion. Transactions saved \
                before format version 4 have no time or author. With --format json, each \
                transaction is one JSON object on its own line (NDJSON) with token, timestamp, \
                author and changes.

                \(ToolExit.help)
                """
        )

        @OptionGroup var options: StoreOptions

        @Option(help: "Output format: \(OutputFormat.allCases.map(\.rawValue).joined(separator: " or ")).")
        var format: OutputFormat = .text

        @Option(help: "Print only the transactions after this token.")
        var after: UInt64?

        func run() throws {
            try reportingErrors(history)
        }

        private func history() throws {
            try options.checkStore()
            let reader = LogReader(directory: options.store)
            let records = try RecordedSchemas.scan(reader)
            let upcaster = records.last.map { latest in
                Upcaster(to: latest.schema, history: records.dropLast().map(\.schema))
            }
            // After a deleted history, the transactions after the horizon are all there is.
            let horizon = try reader.horizon() ?? 0
            if let after, after < horizon {
                throw CLIError(
                    "the history after token \(after) was deleted: the history of \(options.store) starts after token \(horizon), the horizon"
                )
            }
            var cursor = reader.batches(from: max(after ?? 0, horizon) + 1)
            var output = HistoryPrinter(format: format)
            defer { output.flush() }
            var first = true
            while let batch = try cursor.next() {
                first = false
                if let after, batch.lastSequence <= after { continue }
                output.print(batch, try batch.transaction(), try ChangeList(batch, upcaster: upcaster))
            }
            if first, let after {
                throw CLIError("token \(after) is past the end of the history of \(options.store)")
            }
        }
    }
}

/// Writes history transactions as text or NDJSON, to stdout through a buffer.
struct HistoryPrinter {
    let format: OutputFormat
    private let json = JSONWriter()
    private var text: [UInt8] = []

    init(format: OutputFormat) {
        self.format = format
    }

    mutating func print(_ batch: Batch, _ transaction: BatchTransaction?, _ changes: ChangeList) {
        switch format {
        case .text: printText(batch, transaction, changes)
        case .json: printJSON(batch, transaction, changes)
        }
        if text.count + json.count >= 1 << 20 { flush() }
    }

    private mutating func printText(_ batch: Batch, _ transaction: BatchTransaction?, _ changes: ChangeList) {
        var head = "transaction \(batch.lastSequence)\tevents \(batch.firstSequence)...\(batch.lastSequence)"
        if let transaction {
            head += "\t\(ValueText.iso8601(transaction.timestamp))"
            if let author = transaction.author { head += "\tauthor \(author)" }
        } else {
            head += "\t(no time or author recorded)"
        }
        var lines = [head]
        for entry in changes.entries {
            var line = "  \(entry.kind.rawValue)\t\(entry.entity)#\(entry.id)"
            let values = EventPrinter.fields(entry.fields, [])
            let written = entry.names.subtracting(entry.fields.map(\.name)).sorted()
            if !values.isEmpty { line += "\t" + values }
            if !written.isEmpty {
                line += "\t" + written.map { Self.relationshipText($0, entry.links) }.joined(separator: " ")
            }
            lines.append(line)
        }
        text += Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    private func printJSON(_ batch: Batch, _ transaction: BatchTransaction?, _ changes: ChangeList) {
        json.beginObject()
        json.key("token")
        json.number(batch.lastSequence)
        json.key("firstSequence")
        json.number(batch.firstSequence)
        json.key("timestamp")
        json.value(transaction.map { .date($0.timestamp) } ?? .null)
        json.key("author")
        json.value(transaction?.author.map { .string($0) } ?? .null)
        json.key("changes")
        json.beginArray()
        for entry in changes.entries {
            json.beginObject()
            json.key("kind")
            json.string(entry.kind.rawValue)
            json.key("entity")
            json.string(entry.entity)
            json.key("id")
            json.number(entry.id)
            json.key(entry.kind == .delete ? "preserved" : "values")
            json.beginObject()
            for field in entry.fields {
                json.key(name: field.name)
                json.value(field.value)
            }
            json.endObject()
            if entry.kind == .update {
                json.key("updated")
                json.beginArray()
                for name in entry.names.sorted() { json.string(name) }
                json.endArray()
                printRelationships(entry.links)
            }
            json.endObject()
        }
        json.endArray()
        json.endObject()
        json.newline()
    }

    /// A relationship an update wrote, with what it wrote: `trip=#4`, `trip=nil`,
    /// `songs+#3-#1`; the bare name when the events say nothing more.
    private static func relationshipText(_ name: String, _ links: RelationshipChanges) -> String {
        if let target = links.toOne[name] { return "\(name)=" + (target.map { "#\($0)" } ?? "nil") }
        let added = (links.added[name] ?? []).map { "+#\($0)" }
        let removed = (links.removed[name] ?? []).map { "-#\($0)" }
        return name + (added + removed).joined()
    }

    /// The targets an update's relationships were set to, gained and lost, under
    /// `"relationships"`; nothing when it wrote none.
    private func printRelationships(_ links: RelationshipChanges) {
        let names = Set(links.toOne.keys).union(links.added.keys).union(links.removed.keys).sorted()
        guard !names.isEmpty else { return }
        json.key("relationships")
        json.beginObject()
        for name in names {
            json.key(name: name)
            json.beginObject()
            if let target = links.toOne[name] {
                json.key("to")
                if let target { json.number(target) } else { json.value(.null) }
            }
            for (key, targets) in [("added", links.added[name]), ("removed", links.removed[name])] {
                guard let targets else { continue }
                json.key(name: key)
                json.beginArray()
                for target in targets { json.number(target) }
                json.endArray()
            }
            json.endObject()
        }
        json.endObject()
    }

    mutating func flush() {
        if !text.isEmpty {
            text.withUnsafeBytes { writeToStandardOutput($0) }
            text.removeAll(keepingCapacity: true)
        }
        if json.count > 0 {
            json.withBytes { writeToStandardOutput($0) }
            json.reset()
        }
    }
}
