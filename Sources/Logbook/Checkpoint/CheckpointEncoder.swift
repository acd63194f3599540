/// Lays out a projection as the bytes of a checkpoint file (see <doc:OnDiskFormat>).
enum CheckpointEncoder {
    /// What the schemas section holds: the schema records and migration markers a replay up to
    /// the checkpoint's sequence number found.
    struct Schemas: Sendable {
        /// The number of each recorded schema, by fingerprint.
        var numbers: [String: UInt32] = [:]
        /// The schema recorded last.
        var latest: Event.SchemaRecord?
        /// Every migration marker, in log order.
        var markers: [Event.MigrationMarker] = []
    }

    /// The bytes of a checkpoint of `projection`, with `header`'s fields.
    ///
    /// - Parameter external: The store's value files and the size from which an
    ///   `.externalStorage` attribute's `Data` goes there: such values are stored as references
    ///   (tag ``EventCodec/ValueTag/external``), their files written first if missing.
    /// - Throws: ``LogbookError/Code/io`` when a value's file cannot be written.
    static func encode(
        _ header: CheckpointHeader,
        _ projection: borrowing Projection,
        lastSchemaNumber: UInt32,
        schemas: Schemas,
        external: (files: ExternalFiles, threshold: Int)? = nil
    ) throws(LogbookError) -> [UInt8] {
        var sections: [(kind: CheckpointFormat.Kind, table: Int, bytes: [UInt8])] = []
        sections.append((.state, 0, state(projection, lastSchemaNumber: lastSchemaNumber)))
        sections.append((.schemas, 0, encodeSchemas(schemas)))
        sections.append((.aliases, 0, aliases(projection.aliases)))
        for index in projection.tables.indices {
            var failure: LogbookError?
            projection.withTable(index) { table in
                sections.append((.entity, index, entity(table.pointee)))
                do throws(LogbookError) {
                    let (cells, heap) = try values(table.pointee, external: external)
                    sections.append((.values, index, cells))
                    sections.append((.heap, index, heap))
                } catch {
                    failure = error
                }
                sections.append((.links, index, links(table.pointee)))
            }
            if let failure { throw failure }
        }
        // The directory, then each section at a multiple of 8.
        let directoryEnd = CheckpointFormat.headerSize + CheckpointFormat.directoryEntrySize * sections.count
        var offsets: [Int] = []
        var end = aligned(directoryEnd)
        for section in sections {
            offsets.append(end)
            end = aligned(end + section.bytes.count)
        }
        var file = [UInt8](repeating: 0, count: end)
        var head = BinaryWriter(capacity: directoryEnd)
        head.writeLittleEndian(CheckpointFormat.magic)
        head.writeLittleEndian(header.version)
        head.writeLittleEndian(UInt16(0))
        head.writeLittleEndian(UInt32(CheckpointFormat.headerSize))
        head.writeLittleEndian(UInt32(sections.count))
        head.writeLittleEndian(header.sequence)
        head.writeLittleEndian(header.batchChecksum)
        head.writeLittleEndian(UInt32(0))
        head.writeLittleEndian(header.segmentFirstSequence)
        head.writeLittleEndian(UInt64(bitPattern: header.batchOffset))
        head.writeLittleEndian(header.logBytes)
        head.writeLittleEndian(header.storeIdentity)
        head.writeLittleEndian(UInt32(0))
        head.writeBytes(fixed32(header.schemaFingerprint))
        head.writeBytes(fixed32(header.historyFingerprint))
        head.writeLittleEndian(UInt32(truncatingIfNeeded: header.schemaVersion.major))
        head.writeLittleEndian(UInt32(truncatingIfNeeded: header.schemaVersion.minor))
        head.writeLittleEndian(UInt32(truncatingIfNeeded: header.schemaVersion.patch))
        head.writeBytes([UInt8](repeating: 0, count: 16))
        head.writeLittleEndian(UInt32(0))  // the header checksum, patched below
        for (section, offset) in zip(sections, offsets) {
            head.writeLittleEndian(section.kind.rawValue)
            head.writeLittleEndian(UInt16(0))
            head.writeLittleEndian(UInt32(section.table))
            head.writeLittleEndian(UInt64(offset))
            head.writeLittleEndian(UInt64(section.bytes.count))
            head.writeLittleEndian(CRC32C.checksum(section.bytes))
            head.writeLittleEndian(UInt32(0))
        }
        var headBytes = head.bytes
        let checksum = CRC32C.checksum(
            Array(headBytes[CheckpointFormat.headerSize...]),
            continuing: CRC32C.checksum(Array(headBytes[..<CheckpointFormat.headerChecksumOffset]))
        )
        withUnsafeBytes(of: checksum.littleEndian) { raw in
            for (index, byte) in raw.enumerated() { headBytes[CheckpointFormat.headerChecksumOffset + index] = byte }
        }
        file.replaceSubrange(0..<headBytes.count, with: headBytes)
        for (section, offset) in zip(sections, offsets) {
            file.replaceSubrange(offset..<(offset + section.bytes.count), with: section.bytes)
        }
        return file
    }

    static func aligned(_ offset: Int) -> Int {
        (offset + 7) & ~7
    }

    private static func fixed32(_ bytes: [UInt8]) -> [UInt8] {
        Array((bytes + [UInt8](repeating: 0, count: 32)).prefix(32))
    }

    private static func pad(_ writer: inout BinaryWriter) {
        while writer.bytes.count % 8 != 0 { writer.write(0) }
    }

    // MARK: - Sections

    private static func state(_ projection: borrowing Projection, lastSchemaNumber: UInt32) -> [UInt8] {
        var writer = BinaryWriter(capacity: 16 + 8 * projection.foldCounts.count)
        writer.writeLittleEndian(projection.nextIdentifier)
        writer.writeLittleEndian(lastSchemaNumber)
        writer.writeLittleEndian(UInt32(projection.tables.count))
        for count in projection.foldCounts { writer.writeLittleEndian(UInt64(count)) }
        return writer.bytes
    }

    private static func encodeSchemas(_ schemas: Schemas) -> [UInt8] {
        var writer = BinaryWriter()
        func prefixed(_ bytes: [UInt8]) {
            writer.writeLittleEndian(UInt32(bytes.count))
            writer.writeBytes(bytes)
        }
        let numbers = schemas.numbers.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
        writer.writeLittleEndian(UInt32(numbers.count))
        for (fingerprint, number) in numbers {
            writer.writeLittleEndian(number)
            prefixed(Array(fingerprint.utf8))
        }
        if let latest = schemas.latest {
            writer.writeLittleEndian(UInt32(1))
            prefixed(EventCodec.encode(EventEnvelope(schemaNumber: latest.number, event: .schema(latest))))
        } else {
            writer.writeLittleEndian(UInt32(0))
        }
        writer.writeLittleEndian(UInt32(schemas.markers.count))
        for marker in schemas.markers {
            prefixed(EventCodec.encode(EventEnvelope(schemaNumber: 0, event: .migration(marker))))
        }
        return writer.bytes
    }

    private static func aliases(_ aliases: [UInt64: UInt64]) -> [UInt8] {
        var writer = BinaryWriter(capacity: 8 + 16 * aliases.count)
        writer.writeLittleEndian(UInt64(aliases.count))
        for (folded, survivor) in aliases.sorted(by: { $0.key < $1.key }) {
            writer.writeLittleEndian(folded)
            writer.writeLittleEndian(survivor)
        }
        return writer.bytes
    }

    private static func entity(_ table: borrowing EntityTable) -> [UInt8] {
        var writer = BinaryWriter(capacity: 64 + 8 * (table.identifiers.count + table.freeSlots.count))
        let name = Array(table.entity.name.utf8)
        writer.writeLittleEndian(UInt32(name.count))
        writer.writeBytes(name)
        pad(&writer)
        writer.writeLittleEndian(UInt64(table.identifiers.count))
        writer.writeLittleEndian(UInt64(table.count))
        writer.writeLittleEndian(UInt32(table.width))
        writer.writeLittleEndian(UInt32(table.isToMany.count))
        writer.writeLittleEndian(UInt32(table.uniqueAttributes.count))
        writer.writeLittleEndian(UInt32(0))
        for attribute in table.uniqueAttributes { writer.writeLittleEndian(UInt32(attribute)) }
        pad(&writer)
        writer.writeLittleEndian(UInt64(table.freeSlots.count))
        for id in table.identifiers { writer.writeLittleEndian(id) }
        for slot in table.freeSlots { writer.writeLittleEndian(UInt64(slot)) }
        return writer.bytes
    }

    private static func values(
        _ table: borrowing EntityTable,
        external: (files: ExternalFiles, threshold: Int)?
    ) throws(LogbookError) -> (cells: [UInt8], heap: [UInt8]) {
        let count = table.identifiers.count * table.width
        // The attributes whose large values are stored as references to their files.
        let externalAttributes = table.entity.attributes.map { $0.options.contains(.externalStorage) }
        var cells = BinaryWriter(capacity: count * CheckpointFormat.cellSize)
        var heap = BinaryWriter(capacity: 16 * count)
        func inline(_ tag: EventCodec.ValueTag, _ payload: UInt64) {
            cells.write(tag.rawValue)
            cells.writeBytes([0, 0, 0])
            cells.writeLittleEndian(UInt32(0))
            cells.writeLittleEndian(payload)
        }
        func stored(_ tag: EventCodec.ValueTag, _ bytes: some Collection<UInt8>) {
            cells.write(tag.rawValue)
            cells.writeBytes([0, 0, 0])
            cells.writeLittleEndian(UInt32(bytes.count))
            cells.writeLittleEndian(UInt64(heap.bytes.count))
            heap.writeBytes(bytes)
        }
        for index in 0..<count {
            switch table.values[index] {
            case .null: inline(.null, 0)
            case .bool(let value): inline(value ? .true : .false, 0)
            case .int(let value): inline(.int, UInt64(bitPattern: value))
            case .uint(let value): inline(.uint, value)
            case .double(let value): inline(.double, value.bitPattern)
            case .float(let value): inline(.float, UInt64(value.bitPattern))
            case .date(let value): inline(.date, value.timeIntervalSinceReferenceDate.bitPattern)
            case .decimal(let value): stored(.decimal, Array(value.description.utf8))
            case .string(let value): stored(.string, Array(value.utf8))
            case .uuid(let value): stored(.uuid, withUnsafeBytes(of: value.uuid) { Array($0) })
            case .url(let value): stored(.url, Array(value.absoluteString.utf8))
            case .data(let value):
                if external != nil, table.width > 0, externalAttributes.indices.contains(index % table.width),
                    externalAttributes[index % table.width], let reference = ExternalPlaceholder.reference(in: value)
                {
                    // A value the projection holds by reference: its file is written already.
                    stored(.external, reference.fixedBytes)
                } else if let external, value.count >= external.threshold, table.width > 0,
                    externalAttributes.indices.contains(index % table.width), externalAttributes[index % table.width]
                {
                    let reference = ExternalReference(of: value)
                    try external.files.write(value, as: reference, checkingExisting: false)
                    stored(.external, reference.fixedBytes)
                } else {
                    stored(.data, value)
                }
            case .composite(let value): stored(.composite, value)
            case .array:
                var writer = BinaryWriter()
                EventCodec.encode(table.values[index], into: &writer)
                stored(.array, writer.bytes)
            }
        }
        return (cells.bytes, heap.bytes)
    }

    private static func links(_ table: borrowing EntityTable) -> [UInt8] {
        var writer = BinaryWriter(capacity: 8 * table.identifiers.count * max(1, table.isToMany.count))
        for relationship in table.isToMany.indices {
            if table.isToMany[relationship] {
                let links = table.toMany[relationship]
                var end: UInt64 = 0
                for slot in 0..<links.count {
                    links.forEach(in: slot) { _ in end += 1 }
                    writer.writeLittleEndian(end)
                }
                for slot in 0..<links.count {
                    links.forEach(in: slot) { writer.writeLittleEndian($0) }
                }
            } else {
                for target in table.toOne[relationship] { writer.writeLittleEndian(target) }
            }
        }
        return writer.bytes
    }
}
