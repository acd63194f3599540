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
    private let json = JSONWriter(capacity: 1 << 21)
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
            if json.count >= 1 << 20 { flush() }
        case .text:
            buffer += Array((text(sequence, version, event) + "\n").utf8)
            if buffer.count >= 1 << 20 { flush() }
        }
    }

    /// What ``printChange(sequence:bytes:version:entity:)`` did.
    enum ChangeOutcome {
        case printed
        /// Nothing was printed: decode the event and print it with ``print(sequence:version:event:)``.
        case needsDecoding
    }

    /// Prints an insert or update as NDJSON straight from its bytes, exactly as
    /// ``print(sequence:version:event:)`` prints it decoded, without building the event.
    ///
    /// - Parameters:
    ///   - version: the schema version to show for a schema number, or `nil` when the event must
    ///     be upcast first.
    ///   - entity: when set, only events about this entity are printed here.
    /// - Returns: ``ChangeOutcome/needsDecoding`` for text output, for events other than inserts
    ///   and updates, values other than scalars and strings, events to upcast or filter out, and
    ///   malformed events (which decoding reports).
    mutating func printChange(
        sequence: UInt64,
        bytes: UnsafeRawBufferPointer,
        version: (UInt32) -> String?,
        entity: String?
    ) -> ChangeOutcome {
        guard format == .json else { return .needsDecoding }
        let json = self.json
        let mark = json.count
        var inRelationships = false
        func openRelationships() {
            json.endObject()
            json.key("relationships")
            json.beginObject()
            inRelationships = true
        }
        let read = EventCodec.readChange(
            bytes,
            head: { head in
                if let entity, !head.entity.elementsEqual(entity.utf8) { return false }
                guard let version = version(head.schemaNumber) else { return false }
                json.beginObject()
                json.key("seq")
                json.number(sequence)
                json.key("schemaVersion")
                json.string(version)
                json.key("kind")
                json.string(constant: head.isUpdate ? "update" : "insert")
                json.key("entity")
                json.string(utf8: head.entity)
                json.key("id")
                json.number(head.id)
                json.key("attributes")
                json.beginObject()
                return true
            },
            attribute: { name, value in
                json.key(utf8: name)
                switch value {
                case .scalar(let scalar): json.value(scalar)
                case .string(let text): json.string(utf8: text)
                }
            },
            reference: { name, target in
                if !inRelationships { openRelationships() }
                json.key(utf8: name)
                if let target { json.number(target) } else { json.raw("null") }
            }
        )
        guard read else {
            json.rollBack(to: mark)
            return .needsDecoding
        }
        if !inRelationships { openRelationships() }
        json.endObject()
        json.endObject()
        json.newline()
        if json.count >= 1 << 20 { flush() }
        return .printed
    }

    mutating func flush() {
        if json.count > 0 {
            json.withBytes { writeToStandardOutput($0) }
            json.reset()
        }
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { writeToStandardOutput($0) }
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
            let constraints = record.schema.constraintLines
            if !constraints.isEmpty {
                json.key("constraints")
                json.beginArray()
                for line in constraints { json.string(line) }
                json.endArray()
            }
            let hierarchy = record.schema.hierarchyLines
            if !hierarchy.isEmpty {
                json.key("hierarchy")
                json.beginArray()
                for line in hierarchy { json.string(line) }
                json.endArray()
            }
        case .insert(let change):
            writeChange(change.entity, change.id, change.attributes, change.toOne)
        case .update(let change):
            writeChange(change.entity, change.id, change.attributes, change.toOne)
        case .delete(let entity, let id, let preserved):
            json.key("entity")
            json.string(entity)
            json.key("id")
            json.number(id)
            if !preserved.isEmpty {
                json.key("preserved")
                json.beginObject()
                for field in preserved {
                    json.key(name: field.name)
                    writeValue(field)
                }
                json.endObject()
            }
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

    /// A field's value; for one kept in a file, the reference and the file's path in the store
    /// (`{"external":{"length":…,"sha256":"…","crc32c":"…","file":"external/…"}}`), not the bytes.
    private func writeValue(_ field: Event.Field) {
        guard let reference = field.external else {
            json.value(field.value)
            return
        }
        json.beginObject()
        json.key("external")
        json.beginObject()
        json.key("length")
        json.number(reference.length)
        json.key("sha256")
        json.string(reference.fileName)
        json.key("crc32c")
        json.string(String(reference.checksum, radix: 16))
        json.key("file")
        json.string(reference.relativePath)
        json.endObject()
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
            json.key(name: field.name)
            writeValue(field)
        }
        json.endObject()
        json.key("relationships")
        json.beginObject()
        for reference in toOne {
            json.key(name: reference.name)
            if let target = reference.target { json.number(target) } else { json.raw("null") }
        }
        json.endObject()
    }

    private func text(_ sequence: UInt64, _ version: String, _ event: Event) -> String {
        let head = "\(sequence)\t\(version)\t\(Self.kind(event))"
        switch event {
        case .schema(let record):
            let constraints = (record.schema.constraintLines + record.schema.hierarchyLines).map { ", \($0)" }.joined()
            return
                "\(head)\tversion \(record.version), fingerprint \(record.fingerprint.prefix(16)), entities \(record.schema.entities.map(\.name).joined(separator: ", "))\(constraints)"
        case .insert(let change):
            return "\(head)\t\(change.entity)#\(change.id)\t" + Self.fields(change.attributes, change.toOne)
        case .update(let change):
            return "\(head)\t\(change.entity)#\(change.id)\t" + Self.fields(change.attributes, change.toOne)
        case .delete(let entity, let id, let preserved):
            return "\(head)\t\(entity)#\(id)" + (preserved.isEmpty ? "" : "\t" + Self.fields(preserved, []))
        case .link(let link), .unlink(let link):
            return
                "\(head)\t\(link.entity)#\(link.id)\t\(link.relationship) → [\(link.targets.map { "#\($0)" }.joined(separator: ", "))]"
        case .migration(let marker):
            return "\(head)\t\(marker.fromVersion) → \(marker.toVersion)\(marker.isCustom ? " (custom)" : "")"
        }
    }

    static func fields(_ attributes: [Event.Field], _ toOne: [Event.Reference]) -> String {
        (attributes.map { field in
            guard let reference = field.external else { return "\(field.name)=\(ValueText.text(field.value))" }
            return
                "\(field.name)=<external \(reference.length) bytes, sha256 \(reference.fileName), file \(reference.relativePath)>"
        }
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

/// Writes every byte to standard output with `write(2)`, straight from the caller's buffer.
///
/// A failed write (a closed pipe, a full disk) ends the process with status 1: the rest of the
/// output has nowhere to go.
func writeToStandardOutput(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress else { return }
    var done = 0
    while done < bytes.count {
        let written = write(STDOUT_FILENO, base + done, bytes.count - done)
        if written > 0 {
            done += written
        } else if written < 0 && errno == EINTR {
            continue
        } else {
            let reason = written < 0 ? String(cString: strerror(errno)) : "no bytes written"
            FileHandle.standardError.write(Data("Error: writing to standard output failed: \(reason)\n".utf8))
            exit(1)
        }
    }
}
