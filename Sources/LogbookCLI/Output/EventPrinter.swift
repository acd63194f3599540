import ArgumentParser
import Foundation
import Logbook

/// How the tool prints.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// Writes events, one per line, as text or NDJSON, to stdout through a buffer.
struct EventPrinter {
    let format: OutputFormat
    private var json = JSONWriter()
    private var buffer: [UInt8] = []

    init(format: OutputFormat) {
        self.format = format
        buffer.reserveCapacity(1 << 20)
    }

    mutating func print(sequence: UInt64, version: String, event: Event) {
        switch format {
        case .json:
            writeJSON(sequence, version, event)
            json.newline()
            if json.bytes.count >= 1 << 20 { flush() }
        case .text:
            buffer += Array((text(sequence, version, event) + "\n").utf8)
            if buffer.count >= 1 << 20 { flush() }
        }
    }

    mutating func flush() {
        if !json.bytes.isEmpty {
            FileHandle.standardOutput.write(Data(json.bytes))
            json.reset()
        }
        guard !buffer.isEmpty else { return }
        FileHandle.standardOutput.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }

    private mutating func writeJSON(_ sequence: UInt64, _ version: String, _ event: Event) {
        json.beginObject()
        json.key("seq")
        json.number(sequence)
        json.key("schemaVersion")
        json.string(version)
        json.key("kind")
        json.string(Self.kind(event))
        switch event {
        case .schema(let record):
            json.key("version")
            json.string("\(record.version)")
            json.key("fingerprint")
            json.string(record.fingerprint)
            json.key("entities")
            json.beginArray()
            for entity in record.schema.entities { json.string(entity.name) }
            json.endArray()
        case .insert(let change):
            writeChange(change.entity, change.id, change.attributes, change.toOne)
        case .update(let change):
            writeChange(change.entity, change.id, change.attributes, change.toOne)
        case .delete(let entity, let id):
            json.key("entity")
            json.string(entity)
            json.key("id")
            json.number(id)
        case .link(let link), .unlink(let link):
            json.key("entity")
            json.string(link.entity)
            json.key("id")
            json.number(link.id)
            json.key("relationship")
            json.string(link.relationship)
            json.key("targets")
            json.beginArray()
            for target in link.targets { json.number(target) }
            json.endArray()
        case .migration(let marker):
            json.key("from")
            json.string("\(marker.fromVersion)")
            json.key("to")
            json.string("\(marker.toVersion)")
            json.key("custom")
            json.raw(marker.isCustom ? "true" : "false")
        }
        json.endObject()
    }

    private mutating func writeChange(
        _ entity: String,
        _ id: UInt64,
        _ attributes: [Event.Field],
        _ toOne: [Event.Reference]
    ) {
        json.key("entity")
        json.string(entity)
        json.key("id")
        json.number(id)
        json.key("attributes")
        json.beginObject()
        for field in attributes {
            json.key(field.name)
            json.value(field.value)
        }
        json.endObject()
        json.key("relationships")
        json.beginObject()
        for reference in toOne {
            json.key(reference.name)
            if let target = reference.target { json.number(target) } else { json.raw("null") }
        }
        json.endObject()
    }

    private func text(_ sequence: UInt64, _ version: String, _ event: Event) -> String {
        let head = "\(sequence)\t\(version)\t\(Self.kind(event))"
        switch event {
        case .schema(let record):
            return
                "\(head)\tversion \(record.version), fingerprint \(record.fingerprint.prefix(16)), entities \(record.schema.entities.map(\.name).joined(separator: ", "))"
        case .insert(let change):
            return "\(head)\t\(change.entity)#\(change.id)\t" + Self.fields(change.attributes, change.toOne)
        case .update(let change):
            return "\(head)\t\(change.entity)#\(change.id)\t" + Self.fields(change.attributes, change.toOne)
        case .delete(let entity, let id):
            return "\(head)\t\(entity)#\(id)"
        case .link(let link), .unlink(let link):
            return
                "\(head)\t\(link.entity)#\(link.id)\t\(link.relationship) → [\(link.targets.map { "#\($0)" }.joined(separator: ", "))]"
        case .migration(let marker):
            return "\(head)\t\(marker.fromVersion) → \(marker.toVersion)\(marker.isCustom ? " (custom)" : "")"
        }
    }

    static func fields(_ attributes: [Event.Field], _ toOne: [Event.Reference]) -> String {
        (attributes.map { "\($0.name)=\(ValueText.text($0.value))" }
            + toOne.map { "\($0.name) → \($0.target.map { "#\($0)" } ?? "nil")" }).joined(separator: " ")
    }

    static func kind(_ event: Event) -> String {
        switch event {
        case .schema: return "schema"
        case .insert: return "insert"
        case .update: return "update"
        case .delete: return "delete"
        case .link: return "link"
        case .unlink: return "unlink"
        case .migration: return "migration"
        }
    }
}
