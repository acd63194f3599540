import Foundation

/// The names an insert event spells, by table, each encoded once per store: encoding an insert
/// that ``DirectInserts`` recorded then copies bytes instead of encoding strings.
struct InsertNames: Sendable {
    /// Each table's entity name.
    let entities: [EncodedString]
    /// Each table's attribute names, by attribute index.
    let attributes: [[EncodedString]]
    /// Each table's relationship names, by relationship index.
    let relationships: [[EncodedString]]

    init(_ projection: Projection) {
        entities = projection.tables.map { EncodedString($0.entity.name) }
        attributes = projection.tables.map { $0.entity.attributes.map { EncodedString($0.name) } }
        relationships = projection.tables.map { $0.entity.relationships.map { EncodedString($0.name) } }
    }
}

extension EventCodec {
    /// Appends one insert event for each insert `inserts` recorded, in order, at the current
    /// schema: the bytes a save writes for them, the same an insert encoded on its own gives
    /// (entity, identifier, each attribute in the order recorded, each to-one reference).
    ///
    /// The size of every event is found first, then all of them are written into one buffer
    /// of that size: no capacity check or reference count per byte written. A batch with a
    /// value of a type the sizing does not cover (a decimal, URL, data, array or composite) is
    /// written event by event through ``BinaryWriter``.
    ///
    /// - Parameters:
    ///   - extra: Bytes to leave room for after the inserts, for the events that follow.
    ///   - feed: Told, every ``PayloadFeed/pieceBytes`` bytes, how much of the payload is
    ///     written, so that another thread compresses it meanwhile. The payload must not grow
    ///     after the inserts (no events follow them) until the feed is finished.
    ///   - externals: The values written as references to their files, by position.
    /// - Returns: where each insert's bytes are in `payload`.
    @discardableResult
    static func appendInserts(
        _ inserts: DirectInserts,
        names: InsertNames,
        schemaNumber: UInt32,
        to payload: inout BatchPayload,
        leavingRoomFor extra: Int = 0,
        publishingTo feed: PayloadFeed? = nil,
        externals: ExternalValues? = nil
    ) -> [Range<Int>] {
        guard let sizes = insertSizes(inserts, names: names, schemaNumber: schemaNumber) else {
            return appendInsertsOneByOne(
                inserts,
                names: names,
                schemaNumber: schemaNumber,
                to: &payload,
                externals: externals
            )
        }
        var total = 0
        for size in sizes { total += LEB128.length(of: UInt64(size)) + size }
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(sizes.count)
        let base = payload.bytes.count
        payload.appendEncodedEvents(count: sizes.count, byteCount: total, extra: extra) { buffer in
            var cursor = ByteCursor(buffer)
            // The payload's start, from which the feed is told how far the bytes are ready.
            let payloadStart = buffer.baseAddress.map { UnsafeRawPointer($0 - base) }
            var published = 0
            for (index, head) in inserts.heads.enumerated() {
                cursor.varint(UInt64(sizes[index]))
                let start = cursor.offset
                writeInsert(head, inserts, names, schemaNumber, &cursor)
                precondition(cursor.offset - start == sizes[index], "an insert's size was misjudged")
                ranges.append(base + start..<base + cursor.offset)
                if let feed, let payloadStart, cursor.offset - published >= PayloadFeed.pieceBytes {
                    published = cursor.offset
                    feed.publish(payloadStart: payloadStart, upTo: base + published)
                }
            }
            precondition(cursor.offset == total, "the inserts' size was misjudged")
        }
        return ranges
    }

    /// The encoded size of each recorded insert, or `nil` when one holds a value whose size
    /// ``valueSize(_:)`` does not give.
    private static func insertSizes(_ inserts: DirectInserts, names: InsertNames, schemaNumber: UInt32) -> [Int]? {
        var sizes: [Int] = []
        sizes.reserveCapacity(inserts.heads.count)
        let fixed = 1 + LEB128.length(of: UInt64(schemaNumber))
        for head in inserts.heads {
            var size = fixed + names.entities[head.table].bytes.count + LEB128.length(of: head.id)
            size += LEB128.length(of: UInt64(head.attributes.count))
            let attributeNames = names.attributes[head.table]
            for position in head.attributes {
                guard let valueSize = valueSize(inserts.values[position]) else { return nil }
                size += attributeNames[inserts.attributeIndexes[position]].bytes.count + valueSize
            }
            size += LEB128.length(of: UInt64(head.references.count))
            let relationshipNames = names.relationships[head.table]
            for position in head.references {
                let reference = inserts.references[position]
                size += relationshipNames[reference.relationship].bytes.count + 1 + LEB128.length(of: reference.target)
            }
            sizes.append(size)
        }
        return sizes
    }

    /// The encoded size of a value that ``encodeSized(_:into:)`` writes.
    @inline(__always)
    private static func valueSize(_ value: AttributeValue) -> Int? {
        switch value {
        case .null, .bool: return 1
        case .int(let number): return 1 + LEB128.length(of: zigzag(number))
        case .uint(let number): return 1 + LEB128.length(of: number)
        case .double, .date: return 9
        case .float: return 5
        case .uuid: return 17
        case .string(let text):
            let count = text.utf8.count
            return 1 + LEB128.length(of: UInt64(count)) + count
        case .decimal, .url, .data, .array, .composite: return nil
        }
    }

    @inline(__always)
    private static func zigzag(_ number: Int64) -> UInt64 {
        UInt64(bitPattern: (number << 1) ^ (number >> 63))
    }

    /// Writes one insert as ``writeInsert(schemaNumber:entity:id:attributeCount:attributes:referenceCount:references:into:)``
    /// does, every value being one ``valueSize(_:)`` sizes.
    @inline(__always)
    private static func writeInsert(
        _ head: DirectInserts.Head,
        _ inserts: DirectInserts,
        _ names: InsertNames,
        _ schemaNumber: UInt32,
        _ cursor: inout ByteCursor
    ) {
        cursor.byte(Kind.insert.rawValue)
        cursor.varint(UInt64(schemaNumber))
        cursor.bytes(names.entities[head.table].bytes)
        cursor.varint(head.id)
        cursor.varint(UInt64(head.attributes.count))
        let attributeNames = names.attributes[head.table]
        for position in head.attributes {
            cursor.bytes(attributeNames[inserts.attributeIndexes[position]].bytes)
            writeValue(inserts.values[position], &cursor)
        }
        cursor.varint(UInt64(head.references.count))
        let relationshipNames = names.relationships[head.table]
        for position in head.references {
            let reference = inserts.references[position]
            cursor.bytes(relationshipNames[reference.relationship].bytes)
            cursor.byte(1)
            cursor.varint(reference.target)
        }
    }

    @inline(__always)
    private static func writeValue(_ value: AttributeValue, _ cursor: inout ByteCursor) {
        guard encodeSized(value, into: &cursor) else {
            preconditionFailure("a value without a size reached the sized writer")
        }
    }

    /// ``appendInserts(_:names:schemaNumber:to:leavingRoomFor:)`` through ``BinaryWriter``,
    /// event by event.
    private static func appendInsertsOneByOne(
        _ inserts: DirectInserts,
        names: InsertNames,
        schemaNumber: UInt32,
        to payload: inout BatchPayload,
        externals: ExternalValues?
    ) -> [Range<Int>] {
        let references = externals?.byInsertPosition ?? [:]
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(inserts.heads.count)
        for head in inserts.heads {
            let attributeNames = names.attributes[head.table]
            let relationshipNames = names.relationships[head.table]
            let range = payload.appendEvent { writer in
                writeInsert(
                    schemaNumber: schemaNumber,
                    entity: names.entities[head.table],
                    id: head.id,
                    attributeCount: head.attributes.count,
                    attributes: { writer in
                        for position in head.attributes {
                            let name = attributeNames[inserts.attributeIndexes[position]]
                            if let reference = references[position] {
                                writer.writeString(name)
                                writeExternal(reference, into: &writer)
                            } else {
                                writeField(name, inserts.values[position], into: &writer)
                            }
                        }
                    },
                    referenceCount: head.references.count,
                    references: { writer in
                        for position in head.references {
                            let reference = inserts.references[position]
                            writeReference(relationshipNames[reference.relationship], reference.target, into: &writer)
                        }
                    },
                    into: &writer
                )
            }
            ranges.append(range)
        }
        return ranges
    }
}

/// Writes into a buffer of a known size, checking each write against its end.
struct ByteCursor: ByteSink {
    private let base: UnsafeMutableRawPointer?
    private let end: Int
    private(set) var offset = 0

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        base = UnsafeMutableRawPointer(buffer.baseAddress)
        end = buffer.count
    }

    @inline(__always)
    private func start(_ count: Int) -> UnsafeMutableRawPointer {
        guard let base, count <= end &- offset else { preconditionFailure("a write past the end of its buffer") }
        return base + offset
    }

    @inline(__always)
    mutating func byte(_ value: UInt8) {
        start(1).storeBytes(of: value, as: UInt8.self)
        offset &+= 1
    }

    @inline(__always)
    mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            byte(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        byte(UInt8(rest))
    }

    @inline(__always)
    mutating func littleEndian<T: FixedWidthInteger>(_ value: T) {
        start(MemoryLayout<T>.size).storeBytes(of: value.littleEndian, as: T.self)
        offset &+= MemoryLayout<T>.size
    }

    @inline(__always)
    mutating func bytes(_ source: UnsafeRawBufferPointer) {
        guard let from = source.baseAddress, source.count > 0 else { return }
        start(source.count).copyMemory(from: from, byteCount: source.count)
        offset &+= source.count
    }

    @inline(__always)
    mutating func bytes(_ source: [UInt8]) {
        source.withUnsafeBytes { bytes($0) }
    }
}
