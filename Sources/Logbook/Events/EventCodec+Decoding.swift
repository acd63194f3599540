import Foundation

extension EventCodec {
    /// Decodes one event.
    ///
    /// - Throws: ``LogbookError/Code/corruption`` naming what is malformed and the byte offset
    ///   within the event. Never traps and never allocates more than the input can describe.
    package static func decode(_ bytes: ArraySlice<UInt8>) throws(LogbookError) -> EventEnvelope {
        var decoder = Decoder(reader: BinaryReader(bytes))
        return try decoder.envelope()
    }

    package static func decode(_ bytes: [UInt8]) throws(LogbookError) -> EventEnvelope {
        try decode(bytes[...])
    }

    /// Decodes one attribute value, as ``encode(_:into:)-(AttributeValue,_)`` wrote it, which must
    /// take every byte: what a checkpoint stores for an array.
    ///
    /// - Throws: ``LogbookError/Code/corruption`` when the bytes are no such value.
    package static func decodeValue(_ bytes: ArraySlice<UInt8>) throws(LogbookError) -> AttributeValue {
        var decoder = Decoder(reader: BinaryReader(bytes))
        let value = try decoder.value(depth: 0)
        guard decoder.reader.isAtEnd else { throw decoder.failure("bytes after the value") }
        return value
    }

    /// Whether the encoded event records the store's schema history (a schema record or a
    /// migration marker), found from its first byte without decoding it.
    package static func recordsSchemaHistory(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.first == Kind.schema.rawValue || bytes.first == Kind.migration.rawValue
    }

    private struct Decoder {
        var reader: BinaryReader

        func failure(_ what: String) -> LogbookError {
            LogbookError(.corruption, "undecodable event: \(what) at byte \(reader.offset) of the event")
        }

        mutating func envelope() throws(LogbookError) -> EventEnvelope {
            guard let tag = reader.readByte() else { throw failure("empty event") }
            guard let kind = Kind(rawValue: tag) else { throw failure("unknown event kind \(tag)") }
            let schemaNumber = try number(UInt32.self, "schema number")
            let event: Event
            switch kind {
            case .schema:
                let number = try number(UInt32.self, "schema record number")
                let version = try version()
                let fingerprint = try string("fingerprint")
                guard let json = reader.readLengthPrefixed() else { throw failure("truncated schema description") }
                let schema: Schema
                do {
                    schema = try JSONDecoder().decode(Schema.self, from: Data(json))
                } catch {
                    throw failure("invalid schema description (\(error))")
                }
                event = .schema(.init(number: number, version: version, fingerprint: fingerprint, schema: schema))
            case .insert:
                let (entity, id, attributes, toOne) = try change()
                event = .insert(.init(entity: entity, id: id, attributes: attributes, toOne: toOne))
            case .update:
                let (entity, id, attributes, toOne) = try change()
                event = .update(.init(entity: entity, id: id, attributes: attributes, toOne: toOne))
            case .delete:
                let entity = try string("entity name")
                let id = try identifier("identifier")
                event = .delete(entity: entity, id: id, preserved: reader.isAtEnd ? [] : try preservedFields())
            case .link:
                event = .link(try link())
            case .unlink:
                event = .unlink(try link())
            case .migration:
                let from = try version()
                let to = try version()
                let fromFingerprint = try string("fingerprint")
                let toFingerprint = try string("fingerprint")
                guard let custom = reader.readByte(), custom <= 1 else { throw failure("invalid stage kind") }
                event = .migration(
                    .init(
                        fromVersion: from,
                        toVersion: to,
                        fromFingerprint: fromFingerprint,
                        toFingerprint: toFingerprint,
                        isCustom: custom == 1
                    )
                )
            }
            guard reader.isAtEnd else { throw failure("\(reader.remaining) bytes after the event") }
            return EventEnvelope(schemaNumber: schemaNumber, event: event)
        }

        mutating func number<T: FixedWidthInteger>(_ type: T.Type, _ what: String) throws(LogbookError) -> T {
            guard let raw = reader.readVarint(), let value = T(exactly: raw) else { throw failure("invalid \(what)") }
            return value
        }

        /// An object identifier, at most ``EventCodec/maximumIdentifier``.
        mutating func identifier(_ what: String) throws(LogbookError) -> UInt64 {
            guard let value = reader.readVarint(), value <= maximumIdentifier else { throw failure("invalid \(what)") }
            return value
        }

        mutating func string(_ what: String) throws(LogbookError) -> String {
            guard let text = reader.readString() else { throw failure("invalid \(what)") }
            return text
        }

        mutating func version() throws(LogbookError) -> Schema.Version {
            let major = try number(UInt32.self, "version")
            let minor = try number(UInt32.self, "version")
            let patch = try number(UInt32.self, "version")
            return Schema.Version(Int(major), Int(minor), Int(patch))
        }

        /// A count, checked against the bytes left: every element takes at least one byte.
        mutating func count(_ what: String) throws(LogbookError) -> Int {
            let count = try number(UInt64.self, what)
            guard count <= UInt64(reader.remaining) else { throw failure("\(what) \(count) exceeds the event") }
            return Int(count)
        }

        mutating func change() throws(LogbookError) -> (String, UInt64, [Event.Field], [Event.Reference]) {
            let entity = try string("entity name")
            let id = try identifier("identifier")
            var attributes: [Event.Field] = []
            let attributeCount = try count("attribute count")
            attributes.reserveCapacity(attributeCount)
            for _ in 0..<attributeCount { attributes.append(try field()) }
            var references: [Event.Reference] = []
            let referenceCount = try count("relationship count")
            references.reserveCapacity(referenceCount)
            for _ in 0..<referenceCount {
                let name = try string("relationship name")
                switch reader.readByte() {
                case 0: references.append(Event.Reference(name, nil))
                case 1: references.append(Event.Reference(name, try identifier("target identifier")))
                default: throw failure("invalid to-one marker")
                }
            }
            return (entity, id, attributes, references)
        }

        /// The preserved values of a delete (from format version 4): at least one.
        mutating func preservedFields() throws(LogbookError) -> [Event.Field] {
            let fieldCount = try count("preserved value count")
            guard fieldCount > 0 else { throw failure("a delete with an empty list of preserved values") }
            var fields: [Event.Field] = []
            fields.reserveCapacity(fieldCount)
            for _ in 0..<fieldCount { fields.append(try field()) }
            return fields
        }

        /// An attribute's name and value; a value kept in a file (``ValueTag/external``) is
        /// left unread, as the field's ``Event/Field/external`` reference.
        mutating func field() throws(LogbookError) -> Event.Field {
            let name = try string("attribute name")
            var ahead = reader
            guard ahead.readByte() == ValueTag.external.rawValue else {
                return Event.Field(name, try value(depth: 0))
            }
            reader = ahead
            guard let length = reader.readVarint(),
                let hash = reader.readBytes(32),
                let checksum = reader.readLittleEndian(as: UInt32.self)
            else { throw failure("truncated external reference") }
            return Event.Field(
                name,
                .null,
                external: ExternalReference(length: length, hash: Array(hash), checksum: checksum)
            )
        }

        mutating func link() throws(LogbookError) -> Event.Link {
            let entity = try string("entity name")
            let id = try identifier("identifier")
            let relationship = try string("relationship name")
            let targetCount = try count("target count")
            var targets: [UInt64] = []
            targets.reserveCapacity(targetCount)
            for _ in 0..<targetCount { targets.append(try identifier("target identifier")) }
            return Event.Link(entity: entity, id: id, relationship: relationship, targets: targets)
        }

        mutating func value(depth: Int) throws(LogbookError) -> AttributeValue {
            guard let byte = reader.readByte() else { throw failure("missing value") }
            guard let tag = ValueTag(rawValue: byte) else { throw failure("unknown value tag \(byte)") }
            switch tag {
            case .null: return .null
            case .false: return .bool(false)
            case .true: return .bool(true)
            case .int:
                guard let number = reader.readSignedVarint() else { throw failure("invalid integer") }
                return .int(number)
            case .uint: return .uint(try number(UInt64.self, "unsigned integer"))
            case .double:
                guard let bits = reader.readLittleEndian(as: UInt64.self) else { throw failure("truncated double") }
                return .double(Double(bitPattern: bits))
            case .float:
                guard let bits = reader.readLittleEndian(as: UInt32.self) else { throw failure("truncated float") }
                return .float(Float(bitPattern: bits))
            case .decimal:
                let text = try string("decimal")
                guard let decimal = Decimal(string: text, locale: nil) else {
                    throw failure("invalid decimal '\(text)'")
                }
                return .decimal(decimal)
            case .string: return .string(try string("string"))
            case .date:
                guard let bits = reader.readLittleEndian(as: UInt64.self) else { throw failure("truncated date") }
                return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits)))
            case .uuid:
                guard let raw = reader.readBytes(16) else { throw failure("truncated UUID") }
                let b = Array(raw)
                return .uuid(
                    UUID(
                        uuid: (
                            b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
                            b[14], b[15]
                        )
                    )
                )
            case .url:
                let text = try string("URL")
                guard let url = URL(string: text) else { throw failure("invalid URL") }
                return .url(url)
            case .data:
                guard let bytes = reader.readLengthPrefixed() else { throw failure("truncated data") }
                return .data(Data(bytes))
            case .array:
                guard depth < maximumNesting else { throw failure("arrays nested deeper than \(maximumNesting)") }
                let elementCount = try count("array length")
                var elements: [AttributeValue] = []
                elements.reserveCapacity(elementCount)
                for _ in 0..<elementCount { elements.append(try value(depth: depth + 1)) }
                return .array(elements)
            case .composite:
                guard let bytes = reader.readLengthPrefixed() else { throw failure("truncated composite") }
                return .composite(Data(bytes))
            case .external:
                throw failure("an external reference inside a value")
            }
        }
    }
}

extension Batch {
    /// The event at `index` of the batch, decoded, whose sequence number is `sequence`.
    ///
    /// - Throws: ``LogbookError/Code/corruption`` naming the batch's segment and offset and the
    ///   event's sequence number when the event does not decode.
    package func decodedEvent(at index: Int, sequence: UInt64) throws(LogbookError) -> EventEnvelope {
        do {
            return try EventCodec.decode(event(at: index))
        } catch {
            var located = error
            located.path = segment
            located.offset = offset
            located.sequence = sequence
            throw located
        }
    }

    /// ``decodedEvent(at:sequence:)`` with the values kept in files beside the log (in the
    /// store that holds the batch's segment) read in.
    ///
    /// - Throws: also ``LogbookError/Code/corruption`` naming the file, entity, attribute, object
    ///   and sequence number when a value's file is missing or damaged.
    package func resolvedEvent(at index: Int, sequence: UInt64) throws(LogbookError) -> EventEnvelope {
        let envelope = try decodedEvent(at: index, sequence: sequence)
        do {
            return try ExternalFiles(storeDirectory: SegmentDirectory.parent(of: segment)).resolve(envelope)
        } catch {
            var located = error
            located.sequence = sequence
            throw located
        }
    }
}
