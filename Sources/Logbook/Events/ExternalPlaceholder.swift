import Foundation

/// How a projection holds a value kept in a file beside the log without holding its bytes: a
/// `data` value of ``size`` bytes, a fixed 16-byte prefix then the reference's
/// ``ExternalReference/fixedBytes``.
///
/// A directory store keeps the placeholder in its projection, from a replayed event or a
/// checkpoint's `external` cell, so that opening a store neither reads nor holds the value
/// files (see the `OnDiskFormat` article, External values). What needs the bytes (a model being
/// made, a predicate or sort on the attribute, a reload) reads them through
/// ``ExternalFiles/resolvePlaceholders(in:at:entity:id:)``, checked against the reference; what
/// needs the reference (a checkpoint, a compaction base) takes it from the placeholder without
/// reading the file.
///
/// The placeholder travels inside the existing ``AttributeValue/data(_:)`` case so that the
/// projection's columns, rows and their copies keep their layout and cost: no value of another
/// attribute, and no non-external value, is ever looked at. It is only read as a placeholder
/// in an attribute marked `.externalStorage` of a store that keeps values in files. There a
/// save keeps any value of this shape in a file, whatever its size
/// (`Store.goesToAFile(_:threshold:)`), so that no inline value is taken for a reference. (A log
/// written by another kind of store, or before this release, could hold such a value inline;
/// the 128-bit prefix makes that as likely as guessing a random key.)
enum ExternalPlaceholder {
    /// The prefix: 16 fixed random bytes.
    static let prefix: [UInt8] = [
        0x9C, 0x4E, 0x1B, 0xD7, 0x62, 0xA0, 0x3F, 0xE5, 0x58, 0x0D, 0xB1, 0x76, 0xC9, 0x24, 0x8A, 0xF3,
    ]
    /// The number of bytes of a placeholder.
    static let size = prefix.count + ExternalReference.fixedSize

    /// The placeholder of the value `reference` names.
    static func value(_ reference: ExternalReference) -> AttributeValue {
        .data(Data(prefix + reference.fixedBytes))
    }

    /// The reference a placeholder holds; `nil` for any other value.
    static func reference(in value: AttributeValue) -> ExternalReference? {
        guard case .data(let bytes) = value else { return nil }
        return reference(in: bytes)
    }

    /// The reference `bytes` hold as a placeholder; `nil` when they are not one.
    static func reference(in bytes: Data) -> ExternalReference? {
        guard bytes.count == size, bytes.starts(with: prefix) else { return nil }
        return ExternalReference(fixedBytes: bytes.dropFirst(prefix.count))
    }
}

extension Event.Field {
    /// The field with a value kept in a file as its ``ExternalPlaceholder``, and no
    /// ``external`` reference; other fields as they are.
    var withPlaceholder: Event.Field {
        guard let reference = external else { return self }
        return Event.Field(name, ExternalPlaceholder.value(reference))
    }
}

extension EventEnvelope {
    /// The event with each value kept in a file as its ``ExternalPlaceholder``: what a store
    /// that reads value files on demand replays, without reading them.
    var withExternalPlaceholders: EventEnvelope {
        guard let written = event.writtenFields, written.fields.contains(where: { $0.external != nil }) else {
            return self
        }
        return EventEnvelope(schemaNumber: schemaNumber, event: event.mappingWrittenFields(\.withPlaceholder))
    }
}

extension ExternalFiles {
    /// `values`, one per attribute of `entity` (by the positions in `externalAttributes`), with
    /// each ``ExternalPlaceholder`` replaced by the bytes of its file, checked against the
    /// reference.
    ///
    /// - Parameters:
    ///   - externalAttributes: The positions in `values` of the attributes marked
    ///     `.externalStorage`, with their names.
    ///   - entity: The entity's name, for errors.
    ///   - id: The object's identifier, for errors.
    /// - Throws: ``LogbookError/Code/corruption`` naming the file, entity, attribute and object
    ///   when the file is missing or does not hold the bytes; ``LogbookError/Code/io`` when it
    ///   cannot be read.
    func resolvePlaceholders(
        in values: inout [AttributeValue],
        at externalAttributes: [(position: Int, name: String)],
        entity: String,
        id: UInt64
    ) throws(LogbookError) {
        for (position, name) in externalAttributes where values.indices.contains(position) {
            guard let reference = ExternalPlaceholder.reference(in: values[position]) else { continue }
            values[position] = .data(try read(reference, entity: entity, attribute: name, id: id))
        }
    }
}
