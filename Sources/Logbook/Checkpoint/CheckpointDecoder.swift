import Foundation

extension CheckpointReader {
    /// What a checkpoint holds, loaded.
    struct Loaded: Sendable {
        var projection: Projection
        var lastSchemaNumber: UInt32
        var schemas: CheckpointEncoder.Schemas
    }

    /// Copies the checkpoint into a projection of `schema`, whose entities must match the
    /// checkpoint's, and leaves its unique indexes to be rebuilt when first needed
    /// (see ``PendingUniqueIndexes``).
    ///
    /// - Throws: ``LogbookError/Code/corruption`` naming the file and byte offset when a section
    ///   does not make sense, or does not fit the schema; ``LogbookError/Code/outOfMemory`` when
    ///   a table's values do not fit under `valueBytesLimit`.
    /// - Parameters:
    ///   - keepingExternalReferences: Whether a value kept in a file is loaded as its
    ///     ``ExternalPlaceholder``, without reading the file; otherwise the file is read and checked.
    ///   - recovery: Where a value whose chunk turns out damaged when it is first read comes from,
    ///     for a reader that checks the values as they are read; without one, they are checked
    ///     here, whole.
    func load(
        schema: Schema,
        history: [Schema],
        valueBytesLimit: Int = .max,
        keepingExternalReferences: Bool = false,
        recovery: CheckpointRecovery? = nil
    ) throws(LogbookError) -> Loaded {
        var projection = Projection(schema: schema, history: history)
        projection.valueBytesLimit = valueBytesLimit
        let lastSchemaNumber = try loadState(into: &projection)
        let schemas = try loadSchemas()
        try loadAliases(into: &projection)
        // A bit per identifier the counter handed out, at most a byte for every eight of the file.
        var seen = IdentifierBits(below: projection.nextIdentifier, limit: bytes.count / 8)
        for index in projection.tables.indices {
            try loadTable(
                index,
                into: &projection,
                seen: &seen,
                keepingExternalReferences: keepingExternalReferences,
                recovery: recovery
            )
            // Its identifiers indexed (and at format version 1 its cells checked), the table's
            // sections hold only what a read decodes later: their pages are read again then, from
            // the page cache.
            for section in sections where section.table == index && section.kind.isPerEntity {
                bytes.dropPages(section.range)
            }
        }
        projection.lastSequence = header.sequence
        return Loaded(projection: projection, lastSchemaNumber: lastSchemaNumber, schemas: schemas)
    }

    // MARK: - Sections

    private func loadState(into projection: inout Projection) throws(LogbookError) -> UInt32 {
        let section = try self.section(.state)
        var reader = BinaryReader(bytes.copy(section.range))
        guard let next = reader.readLittleEndian(as: UInt64.self),
            let lastSchemaNumber = reader.readLittleEndian(as: UInt32.self),
            let tableCount = reader.readLittleEndian(as: UInt32.self)
        else { throw damage("truncated", in: section, at: reader.offset) }
        guard Int(tableCount) == projection.tables.count else {
            throw damage("\(tableCount) entities, the schema has \(projection.tables.count)", in: section, at: 12)
        }
        var folds: [Int] = []
        for _ in 0..<tableCount {
            guard let count = reader.readLittleEndian(as: UInt64.self), count <= UInt64(Int.max) else {
                throw damage("truncated fold counts", in: section, at: reader.offset)
            }
            folds.append(Int(count))
        }
        projection.nextIdentifier = next
        projection.foldCounts = folds
        return lastSchemaNumber
    }

    private func loadSchemas() throws(LogbookError) -> CheckpointEncoder.Schemas {
        let section = try self.section(.schemas)
        var reader = BinaryReader(bytes.copy(section.range))
        var schemas = CheckpointEncoder.Schemas()
        func prefixed() throws(LogbookError) -> ArraySlice<UInt8> {
            guard let length = reader.readLittleEndian(as: UInt32.self), let bytes = reader.readBytes(Int(length))
            else {
                throw damage("truncated", in: section, at: reader.offset)
            }
            return bytes
        }
        func event(_ bytes: ArraySlice<UInt8>) throws(LogbookError) -> Event {
            do throws(LogbookError) {
                return try EventCodec.decode(bytes).event
            } catch {
                throw damage("undecodable event (\(error.message))", in: section, at: reader.offset)
            }
        }
        guard let numberCount = reader.readLittleEndian(as: UInt32.self) else {
            throw damage("truncated", in: section, at: 0)
        }
        for _ in 0..<numberCount {
            guard let number = reader.readLittleEndian(as: UInt32.self) else {
                throw damage("truncated", in: section, at: reader.offset)
            }
            schemas.numbers[String(decoding: try prefixed(), as: UTF8.self)] = number
        }
        guard let hasLatest = reader.readLittleEndian(as: UInt32.self) else {
            throw damage("truncated", in: section, at: reader.offset)
        }
        if hasLatest != 0 {
            guard case .schema(let record) = try event(try prefixed()) else {
                throw damage("the latest schema is not a schema record", in: section, at: reader.offset)
            }
            schemas.latest = record
        }
        guard let markerCount = reader.readLittleEndian(as: UInt32.self) else {
            throw damage("truncated", in: section, at: reader.offset)
        }
        for _ in 0..<markerCount {
            guard case .migration(let marker) = try event(try prefixed()) else {
                throw damage("a marker that is not a migration marker", in: section, at: reader.offset)
            }
            schemas.markers.append(marker)
        }
        return schemas
    }

    private func loadAliases(into projection: inout Projection) throws(LogbookError) {
        let section = try self.section(.aliases)
        var reader = BinaryReader(bytes.copy(section.range))
        guard let count = reader.readLittleEndian(as: UInt64.self), count <= UInt64(reader.remaining / 16) else {
            throw damage("truncated", in: section, at: 0)
        }
        var aliases: [UInt64: UInt64] = [:]
        aliases.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let folded = reader.readLittleEndian(as: UInt64.self),
                let survivor = reader.readLittleEndian(as: UInt64.self)
            else { throw damage("truncated", in: section, at: reader.offset) }
            aliases[folded] = survivor
        }
        projection.aliases = aliases
    }

    private func loadTable(
        _ index: Int,
        into projection: inout Projection,
        seen: inout IdentifierBits,
        keepingExternalReferences: Bool,
        recovery: CheckpointRecovery?
    ) throws(LogbookError) {
        let section = try self.section(.entity, table: index)
        var table = projection.tables[index]
        // The fields before the identifiers are parsed from a copy; the identifiers, most of the
        // section, are read where they lie.
        let inPlace = bytes.buffer(section.range)
        let nameLength = inPlace.count >= 4 ? Int(UInt32(littleEndian: inPlace.loadUnaligned(as: UInt32.self))) : 0
        let fieldsLength = 4 + nameLength + 8 + 32 + 4 * table.width + 8 + 8
        var reader = BinaryReader(
            bytes.copy(section.range.lowerBound..<(section.range.lowerBound + min(inPlace.count, fieldsLength)))
        )
        /// The bytes of the section after the reader's position.
        func remaining() -> Int { inPlace.count - reader.offset }
        func truncated() -> LogbookError { damage("truncated", in: section, at: reader.offset) }
        func skipPadding() {
            while reader.offset % 8 != 0, reader.readByte() != nil {}
        }
        guard let nameLength = reader.readLittleEndian(as: UInt32.self), let name = reader.readBytes(Int(nameLength))
        else { throw truncated() }
        guard String(decoding: name, as: UTF8.self) == table.entity.name else {
            throw damage("entity \(index) is not \(table.entity.name)", in: section, at: 4)
        }
        skipPadding()
        guard let slotCount = reader.readLittleEndian(as: UInt64.self),
            let liveCount = reader.readLittleEndian(as: UInt64.self),
            let width = reader.readLittleEndian(as: UInt32.self),
            let relationshipCount = reader.readLittleEndian(as: UInt32.self),
            let uniqueCount = reader.readLittleEndian(as: UInt32.self), reader.readLittleEndian(as: UInt32.self) != nil
        else { throw truncated() }
        guard Int(width) == table.width, Int(relationshipCount) == table.isToMany.count else {
            throw damage("\(table.entity.name) has another shape than the schema's", in: section, at: reader.offset)
        }
        guard slotCount <= UInt64(remaining() / 8), liveCount <= slotCount, uniqueCount <= width else {
            throw damage("counts larger than the section", in: section, at: reader.offset)
        }
        var unique: [Int] = []
        for _ in 0..<uniqueCount {
            guard let attribute = reader.readLittleEndian(as: UInt32.self), attribute < width else { throw truncated() }
            unique.append(Int(attribute))
        }
        skipPadding()
        guard let freeCount = reader.readLittleEndian(as: UInt64.self),
            freeCount <= slotCount, slotCount + freeCount <= UInt64(remaining() / 8)
        else { throw truncated() }
        let slots = Int(slotCount)
        let start = reader.offset
        let identifiersOffset = section.range.lowerBound + start
        func word(_ at: Int) -> UInt64 {
            UInt64(littleEndian: inPlace.loadUnaligned(fromByteOffset: start &+ at &* 8, as: UInt64.self))
        }
        // Read in place, as the to-one columns are (see ``WordColumn``).
        let identifiers = WordColumn(stored: bytes, offset: identifiersOffset, count: slots)
        var live = 0
        var largest: UInt64 = 0
        // Whether they ascend, so that they are searched where they lie; and whether another
        // table, or this one, held one of them already.
        var order = LoadedIdentifiers.Check()
        for slot in 0..<slots {
            let id = word(slot)
            live &+= id == 0 ? 0 : 1
            order.next(id)
            largest = max(largest, id)
            if id != 0, id < seen.end, !seen.insert(id) {
                throw damage("identifier \(id) held twice", in: section, at: 0)
            }
        }
        var freeSlots: [Int] = []
        freeSlots.reserveCapacity(Int(freeCount))
        for position in slots..<(slots + Int(freeCount)) {
            let slot = word(position)
            guard slot < slotCount, word(Int(slot)) == 0 else {
                throw damage("a free slot that is not free", in: section, at: start + position * 8)
            }
            freeSlots.append(Int(slot))
        }
        guard live == Int(liveCount) else {
            throw damage("\(live) live objects, the count says \(liveCount)", in: section, at: 8)
        }
        table.identifiers = identifiers
        table.freeSlots = freeSlots
        table.count = live
        // Empty: the build on another thread makes them, with room for every object.
        table.restoreUnique(unique)
        try loadValues(
            of: &table,
            index,
            slots: slots,
            limit: projection.valueBytesLimit,
            keepingExternalReferences: keepingExternalReferences,
            recovery: recovery.map {
                CheckpointCells.Recovery(
                    source: $0,
                    table: index,
                    width: table.width,
                    identifiersOffset: identifiersOffset
                )
            }
        )
        try loadLinks(of: &table, index, slots: slots)
        if order.isSearchable, largest < seen.end {
            table.loadedIdentifiers = LoadedIdentifiers(identifiers: identifiers)
            projection.loadedIdentifiersEnd = seen.end
        } else if let twice = projection.slots.record(identifiers, largest: largest, live: live) {
            throw damage("identifier \(twice) held twice", in: section, at: 0)
        }
        // The unique indexes are built when first needed; a first fetch does not build them.
        table.deferUniqueIndexes()
        projection.tables[index] = table
    }

    private func loadValues(
        of table: inout EntityTable,
        _ index: Int,
        slots: Int,
        limit: Int,
        keepingExternalReferences: Bool,
        recovery: CheckpointCells.Recovery?
    ) throws(LogbookError) {
        let cellsIndex = try self.sectionIndex(.values, table: index)
        let heapIndex = try self.sectionIndex(.heap, table: index)
        let cells = sections[cellsIndex]
        let heap = sections[heapIndex]
        let count = slots * table.width
        guard cells.range.count == count * CheckpointFormat.cellSize else {
            throw damage("\(cells.range.count) bytes for \(count) cells", in: cells, at: 0)
        }
        var checks: CheckpointCells.Checks?
        if checksOnRead, let chunks {
            if recovery != nil {
                checks = CheckpointCells.Checks(chunks: chunks, cellsSection: cellsIndex, heapSection: heapIndex)
            } else {
                // Nothing to read a damaged value from later: the chunks are checked now.
                for (position, section) in [(cellsIndex, cells), (heapIndex, heap)] {
                    if let offset = chunks.check(section: position, section.range) {
                        throw damage(
                            "checksum mismatch in the chunk at byte \(offset)",
                            in: section,
                            at: offset - section.range.lowerBound
                        )
                    }
                }
            }
        }
        let values = CheckpointCells(
            region: bytes,
            cells: cells.range,
            heap: heap.range,
            count: count,
            checks: checks,
            recovery: checks == nil ? nil : recovery
        )
        // Cells checked as they are read are checked one by one then.
        if checks == nil, let damage = values.check() {
            throw self.damage(damage.what, in: cells, at: damage.position)
        }
        func outOfMemory() -> LogbookError {
            LogbookError(
                .outOfMemory,
                "out of memory for the attribute values of \(table.entity.name) in a checkpoint: \(count) values",
                path: path
            )
        }
        if keepingExternalReferences {
            // Each value is decoded from the file's cells when it is first read.
            do {
                table.values = try ValueColumn(decodingOnRead: values, limit: limit)
            } catch {
                throw outOfMemory()
            }
            return
        }
        do {
            try table.values.reserve(adding: count, limit: limit)
        } catch {
            throw outOfMemory()
        }
        // The store's directory holds `checkpoints/`, which holds the file.
        let store = SegmentDirectory.parent(of: SegmentDirectory.parent(of: path))
        for cell in 0..<count {
            if let reference = values.externalReference(cell) {
                do throws(LogbookError) {
                    table.values.append(.data(try ExternalFiles(storeDirectory: store).read(reference)))
                } catch {
                    throw damage(
                        "an external value that cannot be read (\(error))",
                        in: cells,
                        at: cell * CheckpointFormat.cellSize
                    )
                }
                continue
            }
            switch values.decode(cell) {
            case .success(let value): table.values.append(value)
            case .failure(let failure): throw damage(failure.what, in: cells, at: failure.position)
            }
        }
    }

    private func loadLinks(of table: inout EntityTable, _ index: Int, slots: Int) throws(LogbookError) {
        let section = try self.section(.links, table: index)
        // Read in place: the to-one columns and the to-many lists stay in the file.
        let words = bytes.buffer(section.range)
        var position = 0
        func truncated() -> LogbookError { damage("truncated", in: section, at: position) }
        func word(_ at: Int) -> UInt64 {
            UInt64(littleEndian: words.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        }
        for relationship in table.isToMany.indices {
            guard slots <= (words.count - position) / 8 else { throw truncated() }
            guard table.isToMany[relationship] else {
                table.toOne[relationship] = WordColumn(
                    stored: bytes,
                    offset: section.range.lowerBound + position,
                    count: slots
                )
                position += slots * 8
                continue
            }
            // Where each slot's targets end, ascending, then the targets.
            var last: UInt64 = 0
            for slot in 0..<slots {
                let end = word(position + slot * 8)
                guard end >= last else {
                    throw damage("target ends out of order", in: section, at: position + slot * 8)
                }
                last = end
            }
            let ends = position
            position += slots * 8
            guard last <= UInt64((words.count - position) / 8) else { throw truncated() }
            table.toMany[relationship] = LinkLists(
                stored: StoredLinks(
                    region: bytes,
                    ends: section.range.lowerBound + ends,
                    targets: section.range.lowerBound + position,
                    count: slots
                )
            )
            position += Int(last) * 8
        }
        guard position == words.count else {
            throw damage("bytes after the relationships", in: section, at: position)
        }
    }
}
