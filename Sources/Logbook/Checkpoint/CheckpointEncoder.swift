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

    /// A checkpoint of `projection`, with `header`'s fields, laid out.
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
    ) throws(LogbookError) -> CheckpointImage {
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
        if header.version >= 2 {
            // After the aliases: the checksum of every chunk of every other section.
            sections.insert((.chunks, 0, chunks(of: sections.map(\.bytes))), at: 3)
        }
        // The directory, then each section at a multiple of 8.
        let directoryEnd = CheckpointFormat.headerSize + CheckpointFormat.directoryEntrySize * sections.count
        var offsets: [Int] = []
        var end = aligned(directoryEnd)
        for section in sections {
            if header.version >= 2, startsOnAChunk(section.kind, bytes: section.bytes.count) {
                end = (end + CheckpointFormat.chunkSize - 1) / CheckpointFormat.chunkSize * CheckpointFormat.chunkSize
            }
            offsets.append(end)
            end = aligned(end + section.bytes.count)
        }
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
        return CheckpointImage(
            head: headBytes,
            sections: zip(sections, offsets).map { (offset: $1, bytes: $0.bytes) },
            size: end
        )
    }

    /// The chunks section of a checkpoint whose other sections are `sections`, in directory
    /// order: the chunk size, then the CRC32C of each chunk of each section.
    private static func chunks(of sections: [[UInt8]]) -> [UInt8] {
        let size = CheckpointFormat.chunkSize
        var writer = BinaryWriter(capacity: 8 + sections.reduce(0) { $0 + 4 * (($1.count + size - 1) / size) })
        writer.writeLittleEndian(UInt32(size))
        writer.writeLittleEndian(UInt32(0))
        for bytes in sections {
            bytes.withUnsafeBytes { buffer in
                for start in stride(from: 0, to: buffer.count, by: size) {
                    let chunk = UnsafeRawBufferPointer(rebasing: buffer[start..<Swift.min(start + size, buffer.count)])
                    writer.writeLittleEndian(CRC32C.checksum(chunk))
                }
            }
        }
        return writer.bytes
    }

    /// Whether a section starts at a multiple of the chunk size in the file: a values or heap
    /// section of more than one chunk, which reads check a chunk at a time. Its chunks then each
    /// lie within one 64 KiB of the file, which a fault of one page maps whole (the writes of
    /// ``CheckpointImage`` leave page-cache folios of that size), instead of straddling two: a
    /// value read at random holds half the memory.
    static func startsOnAChunk(_ kind: CheckpointFormat.Kind, bytes: Int) -> Bool {
        (kind == .values || kind == .heap) && bytes > CheckpointFormat.chunkSize
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

    /// The cells and heap of a table's values. A value never read since the table was loaded
    /// from a checkpoint is copied from its cell there, undecoded; the others are encoded.
    private static func values(
        _ table: borrowing EntityTable,
        external: (files: ExternalFiles, threshold: Int)?
    ) throws(LogbookError) -> (cells: [UInt8], heap: [UInt8]) {
        let count = table.identifiers.count * table.width
        let width = table.width
        // The attributes whose large values are stored as references to their files.
        let externalAttributes = table.entity.attributes.map { $0.options.contains(.externalStorage) }
        func isExternal(_ index: Int) -> Bool {
            width > 0 && externalAttributes.indices.contains(index % width) && externalAttributes[index % width]
        }
        let loaded = table.values.undecodedCells
        var cells = [UInt8](repeating: 0, count: count * CheckpointFormat.cellSize)
        var heap: [UInt8] = []
        heap.reserveCapacity(16 * count)
        var failure: LogbookError?
        cells.withUnsafeMutableBytes { out in
            func cell(_ index: Int, _ tag: UInt8, length: UInt32 = 0, _ payload: UInt64) {
                let position = index &* CheckpointFormat.cellSize
                out[position] = tag
                out.storeBytes(of: length.littleEndian, toByteOffset: position &+ 4, as: UInt32.self)
                out.storeBytes(of: payload.littleEndian, toByteOffset: position &+ 8, as: UInt64.self)
            }
            func inline(_ index: Int, _ tag: EventCodec.ValueTag, _ payload: UInt64) {
                cell(index, tag.rawValue, payload)
            }
            func stored(_ index: Int, _ tag: UInt8, _ bytes: some Collection<UInt8>) {
                cell(index, tag, length: UInt32(bytes.count), UInt64(heap.count))
                heap.append(contentsOf: bytes)
            }
            func stored(_ index: Int, _ tag: EventCodec.ValueTag, _ bytes: some Collection<UInt8>) {
                stored(index, tag.rawValue, bytes)
            }
            for index in 0..<count {
                // A cell that fails its checks is decoded below, from the log, and written anew.
                if let loaded, table.values.isUndecoded(index), let raw = loaded.raw(index) {
                    if let bytes = raw.stored {
                        stored(index, raw.tag, bytes)
                    } else {
                        cell(index, raw.tag, length: raw.length, raw.payload)
                    }
                    continue
                }
                switch table.values[index] {
                case .null: inline(index, .null, 0)
                case .bool(let value): inline(index, value ? .true : .false, 0)
                case .int(let value): inline(index, .int, UInt64(bitPattern: value))
                case .uint(let value): inline(index, .uint, value)
                case .double(let value): inline(index, .double, value.bitPattern)
                case .float(let value): inline(index, .float, UInt64(value.bitPattern))
                case .date(let value): inline(index, .date, value.timeIntervalSinceReferenceDate.bitPattern)
                case .decimal(let value): stored(index, .decimal, Array(value.description.utf8))
                case .string(var value): value.withUTF8 { stored(index, .string, UnsafeRawBufferPointer($0)) }
                case .uuid(let value): withUnsafeBytes(of: value.uuid) { stored(index, .uuid, $0) }
                case .url(let value): stored(index, .url, Array(value.absoluteString.utf8))
                case .data(let value):
                    if external != nil, isExternal(index), let reference = ExternalPlaceholder.reference(in: value) {
                        // A value the projection holds by reference: its file is written already.
                        stored(index, .external, reference.fixedBytes)
                    } else if let external, value.count >= external.threshold, isExternal(index) {
                        let reference = ExternalReference(of: value)
                        do throws(LogbookError) {
                            try external.files.write(value, as: reference, checkingExisting: false)
                        } catch {
                            failure = error
                            return
                        }
                        stored(index, .external, reference.fixedBytes)
                    } else {
                        stored(index, .data, value)
                    }
                case .composite(let value): stored(index, .composite, value)
                case .array:
                    var writer = BinaryWriter()
                    EventCodec.encode(table.values[index], into: &writer)
                    stored(index, .array, writer.bytes)
                }
            }
        }
        if let failure { throw failure }
        return (cells, heap)
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
