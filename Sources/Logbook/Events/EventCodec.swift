import Foundation

/// The binary encoding of events: hand-written, little-endian, varint lengths, type tags.
///
/// The grammar is specified in the `OnDiskFormat` article. Attribute values never go through
/// `Codable`; only the schema description inside a ``Event/schema(_:)`` event is JSON (it is
/// written once per schema version and must stay readable by the tool without any code).
package enum EventCodec {
    // MARK: - Tags (part of the on-disk format: never renumber)

    enum Kind: UInt8 {
        case schema = 1
        case insert = 2
        case update = 3
        case delete = 4
        case link = 5
        case unlink = 6
        case migration = 7
    }

    enum ValueTag: UInt8 {
        case null = 0
        case `false` = 1
        case `true` = 2
        case int = 3
        case uint = 4
        case double = 5
        case float = 6
        case decimal = 7
        case string = 8
        case date = 9
        case uuid = 10
        case url = 11
        case data = 12
        case array = 13
        case composite = 14
        /// A reference to a file beside the log that holds a `data` value's bytes (from format
        /// version 5; only as the whole value of a field).
        case external = 15
    }

    /// How deeply arrays may nest in a decoded value, so that hostile input cannot exhaust the stack.
    static let maximumNesting = 32

    /// The largest object identifier an event may carry: 2⁶³ − 1.
    ///
    /// Identifiers are allocated from 1 upwards, so no store ever reaches it; a larger one is
    /// damage. The bound leaves the allocator (the largest identifier seen, plus one) room to grow.
    static let maximumIdentifier = UInt64(Int64.max)

    // MARK: - Encoding

    package static func encode(_ envelope: EventEnvelope, externals: ExternalValues? = nil) -> [UInt8] {
        var writer = BinaryWriter(capacity: 128)
        encode(envelope, into: &writer, externals: externals)
        return writer.bytes
    }

    /// Writes an event; the fields whose values `externals` holds are written as references to
    /// their files (``ValueTag/external``).
    package static func encode(
        _ envelope: EventEnvelope,
        into writer: inout BinaryWriter,
        externals: ExternalValues? = nil
    ) {
        switch envelope.event {
        case .schema(let record):
            header(.schema, envelope, &writer)
            writer.writeVarint(UInt64(record.number))
            writeVersion(record.version, &writer)
            writer.writeString(record.fingerprint)
            writer.writeLengthPrefixed(schemaJSON(record.schema))
        case .insert(let insert):
            header(.insert, envelope, &writer)
            writeChange(insert.entity, insert.id, insert.attributes, insert.toOne, externals, &writer)
        case .update(let update):
            header(.update, envelope, &writer)
            writeChange(update.entity, update.id, update.attributes, update.toOne, externals, &writer)
        case .delete(let entity, let id, let preserved):
            header(.delete, envelope, &writer)
            writer.writeString(entity)
            writer.writeVarint(id)
            // Nothing more without preserved values: the bytes of a delete before version 4.
            if !preserved.isEmpty {
                writer.writeVarint(UInt64(preserved.count))
                for field in preserved { writeField(field, externals, into: &writer) }
            }
        case .link(let link):
            header(.link, envelope, &writer)
            writeLink(link, &writer)
        case .unlink(let link):
            header(.unlink, envelope, &writer)
            writeLink(link, &writer)
        case .migration(let marker):
            header(.migration, envelope, &writer)
            writeVersion(marker.fromVersion, &writer)
            writeVersion(marker.toVersion, &writer)
            writer.writeString(marker.fromFingerprint)
            writer.writeString(marker.toFingerprint)
            writer.write(marker.isCustom ? 1 : 0)
        }
    }

    /// The canonical JSON of a schema: sorted keys, so that equal schemas give equal bytes.
    package static func schemaJSON(_ schema: Schema) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(schema) else {
            preconditionFailure("a Schema always encodes: it holds only strings, numbers and booleans")
        }
        return [UInt8](data)
    }

    package static func encode(_ value: AttributeValue, into writer: inout BinaryWriter) {
        if encodeSized(value, into: &writer) { return }
        switch value {
        case .null, .bool, .int, .uint, .double, .float, .string, .date, .uuid:
            preconditionFailure("encodeSized writes every scalar and string")
        case .decimal(let number):
            writer.write(ValueTag.decimal.rawValue)
            writer.writeString(number.description)
        case .url(let url):
            writer.write(ValueTag.url.rawValue)
            writer.writeString(url.absoluteString)
        case .data(let data):
            writer.write(ValueTag.data.rawValue)
            writer.writeLengthPrefixed(data)
        case .array(let elements):
            writer.write(ValueTag.array.rawValue)
            writer.writeVarint(UInt64(elements.count))
            for element in elements { encode(element, into: &writer) }
        case .composite(let data):
            writer.write(ValueTag.composite.rawValue)
            writer.writeLengthPrefixed(data)
        }
    }

    /// Writes a scalar or a string, the values whose encoded size is known beforehand, and
    /// returns `true`; writes nothing and returns `false` for a decimal, URL, data, array or
    /// composite.
    @inline(__always)
    static func encodeSized<Sink: ByteSink>(_ value: AttributeValue, into sink: inout Sink) -> Bool {
        switch value {
        case .null: sink.byte(ValueTag.null.rawValue)
        case .bool(let flag): sink.byte(flag ? ValueTag.true.rawValue : ValueTag.false.rawValue)
        case .int(let number):
            sink.byte(ValueTag.int.rawValue)
            sink.varint(UInt64(bitPattern: (number << 1) ^ (number >> 63)))
        case .uint(let number):
            sink.byte(ValueTag.uint.rawValue)
            sink.varint(number)
        case .double(let number):
            sink.byte(ValueTag.double.rawValue)
            sink.littleEndian(number.bitPattern)
        case .float(let number):
            sink.byte(ValueTag.float.rawValue)
            sink.littleEndian(number.bitPattern)
        case .date(let date):
            sink.byte(ValueTag.date.rawValue)
            sink.littleEndian(date.timeIntervalSinceReferenceDate.bitPattern)
        case .uuid(let uuid):
            sink.byte(ValueTag.uuid.rawValue)
            withUnsafeBytes(of: uuid.uuid) { sink.bytes($0) }
        case .string(let text):
            sink.byte(ValueTag.string.rawValue)
            func write(_ utf8: UnsafeBufferPointer<UInt8>) {
                sink.varint(UInt64(utf8.count))
                sink.bytes(UnsafeRawBufferPointer(utf8))
            }
            // In place, without a copy of the string: `withUTF8` is mutating, and the copy it
            // needed retained and released every string. Only a bridged string lacks the bytes.
            if text.utf8.withContiguousStorageIfAvailable(write) == nil {
                var contiguous = text
                contiguous.withUTF8(write)
            }
        case .decimal, .url, .data, .array, .composite:
            return false
        }
        return true
    }

    private static func header(_ kind: Kind, _ envelope: EventEnvelope, _ writer: inout BinaryWriter) {
        writer.write(kind.rawValue)
        writer.writeVarint(UInt64(envelope.schemaNumber))
    }

    private static func writeVersion(_ version: Schema.Version, _ writer: inout BinaryWriter) {
        writer.writeVarint(UInt64(version.major))
        writer.writeVarint(UInt64(version.minor))
        writer.writeVarint(UInt64(version.patch))
    }

    private static func writeChange(
        _ entity: String,
        _ id: UInt64,
        _ attributes: [Event.Field],
        _ toOne: [Event.Reference],
        _ externals: ExternalValues?,
        _ writer: inout BinaryWriter
    ) {
        writeChangeHead(entity: entity, id: id, attributeCount: attributes.count, into: &writer)
        for field in attributes { writeField(field, externals, into: &writer) }
        writeReferences(toOne, into: &writer)
    }

    /// Writes an insert field by field, for a writer that holds the values elsewhere than in an
    /// ``Event``: the same bytes as encoding the ``Event/insert(_:)`` they make. `attributes`
    /// writes exactly `attributeCount` fields with ``writeField(_:_:into:)``.
    static func writeInsert(
        schemaNumber: UInt32,
        entity: EncodedString,
        id: UInt64,
        attributeCount: Int,
        attributes: (inout BinaryWriter) throws -> Void,
        referenceCount: Int,
        references: (inout BinaryWriter) -> Void,
        into writer: inout BinaryWriter
    ) rethrows {
        writer.write(Kind.insert.rawValue)
        writer.writeVarint(UInt64(schemaNumber))
        writer.writeString(entity)
        writer.writeVarint(id)
        writer.writeVarint(UInt64(attributeCount))
        try attributes(&writer)
        writer.writeVarint(UInt64(referenceCount))
        references(&writer)
    }

    /// Writes one to-one reference of an insert, to a model: its relationship's name and the
    /// target.
    static func writeReference(_ name: EncodedString, _ target: UInt64, into writer: inout BinaryWriter) {
        writer.writeString(name)
        writer.write(1)
        writer.writeVarint(target)
    }

    /// Writes one attribute of an insert or update: its name and value.
    static func writeField(_ name: String, _ value: AttributeValue, into writer: inout BinaryWriter) {
        writer.writeString(name)
        encode(value, into: &writer)
    }

    /// Writes one attribute of an insert or update, its name encoded beforehand.
    static func writeField(_ name: EncodedString, _ value: AttributeValue, into writer: inout BinaryWriter) {
        writer.writeString(name)
        encode(value, into: &writer)
    }

    /// Writes one field: as a reference to its file when `externals` holds its value, or when it
    /// was decoded as one and not read; otherwise inline.
    private static func writeField(_ field: Event.Field, _ externals: ExternalValues?, into writer: inout BinaryWriter)
    {
        writer.writeString(field.name)
        if let reference = field.external ?? externals?.reference(field.name, field.value) {
            writeExternal(reference, into: &writer)
        } else {
            encode(field.value, into: &writer)
        }
    }

    /// Writes a reference to a value's file, tag and all.
    static func writeExternal(_ reference: ExternalReference, into writer: inout BinaryWriter) {
        writer.write(ValueTag.external.rawValue)
        reference.write(into: &writer)
    }

    private static func writeChangeHead(
        entity: String,
        id: UInt64,
        attributeCount: Int,
        into writer: inout BinaryWriter
    ) {
        writer.writeString(entity)
        writer.writeVarint(id)
        writer.writeVarint(UInt64(attributeCount))
    }

    private static func writeReferences(_ toOne: [Event.Reference], into writer: inout BinaryWriter) {
        writer.writeVarint(UInt64(toOne.count))
        for reference in toOne {
            writer.writeString(reference.name)
            if let target = reference.target {
                writer.write(1)
                writer.writeVarint(target)
            } else {
                writer.write(0)
            }
        }
    }

    private static func writeLink(_ link: Event.Link, _ writer: inout BinaryWriter) {
        writer.writeString(link.entity)
        writer.writeVarint(link.id)
        writer.writeString(link.relationship)
        writer.writeVarint(UInt64(link.targets.count))
        for target in link.targets { writer.writeVarint(target) }
    }
}
