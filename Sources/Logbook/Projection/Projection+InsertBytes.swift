extension Projection {
    /// Applies an encoded insert straight from its bytes, without building an ``Event``: the
    /// path of nearly every event a replay meets. The result is exactly what decoding the event
    /// and calling ``apply(_:)`` gives.
    ///
    /// - Returns: `false`, having changed nothing, when the bytes are not an insert of an entity
    ///   the schema has, or hold a value other than a scalar or a string (UUIDs, data, arrays,
    ///   `Codable` values); the caller then decodes the event in full. Also `false` when the bytes
    ///   are malformed past the attribute values, which a full decode then reports; and `false`
    ///   when the memory for the table's values cannot be had, which ``apply(_:)`` of the decoded
    ///   event then throws.
    package mutating func applyInsert(_ bytes: UnsafeRawBufferPointer) -> Bool {
        applyInsert(bytes, sequence: nil)
    }

    /// ``applyInsert(_:)`` for the event at `sequence` of a replay, which becomes
    /// ``lastSequence`` when the insert is applied.
    package mutating func applyInsert(_ bytes: UnsafeRawBufferPointer, sequence: UInt64?) -> Bool {
        applyInsertKeepingSurvivor(bytes, sequence: sequence) != nil
    }

    /// ``applyInsert(_:)``, returning the identifier the object ended up with: its own, or that
    /// of the object an upsert folded it into; `nil` where ``applyInsert(_:)`` returns `false`.
    mutating func applyInsertKeepingSurvivor(_ bytes: UnsafeRawBufferPointer, sequence: UInt64? = nil) -> UInt64? {
        var insert = InsertInProgress()
        let read = EventCodec.readChange(
            bytes,
            head: { head in
                guard !head.isUpdate, head.id != 0, let table = table(matching: head.entity),
                    hasReservedRoom(table, forObjects: 1), hasReservedHierarchyRoom(table)
                else { return false }
                begin(&insert, table: table, id: head.id)
                return true
            },
            attribute: { name, value in
                defer { insert.position += 1 }
                guard let attribute = tables[insert.table].attribute(named: name, at: insert.position) else { return }
                switch value {
                case .scalar(let scalar): set(&insert, attribute, scalar)
                case .string(let text): set(&insert, attribute, .string(String(decoding: text, as: UTF8.self)))
                }
            },
            reference: { name, target in
                if !insert.isPlaced { place(&insert) }
                guard let relationship = tables[insert.table].relationship(named: name) else { return }
                refer(&insert, relationship, target)
            }
        )
        guard insert.table >= 0 else { return nil }
        if !read {
            // Declined before anything took effect, or malformed bytes, which the full decode
            // then reports (bytes an insert took effect from are malformed only past its
            // attribute values).
            if !insert.isPlaced { tables[insert.table].release(insert.slot) }
            return nil
        }
        if !insert.isPlaced { place(&insert) }
        if !sharedUniques[insert.table].isEmpty { foldAcrossHierarchy(&insert) }
        if let sequence { lastSequence = sequence }
        return insert.survivor
    }

    /// Applies the insert recorded at `index` of `inserts`, from its values: exactly what
    /// ``applyInsertKeepingSurvivor(_:sequence:)`` does with the bytes encoded from them. The
    /// event at `sequence` of a replay becomes ``lastSequence``; see
    /// ``applyInsertWithRoom(_:at:sequence:takingValues:)`` for `takingValues`.
    ///
    /// - Returns: The identifier the object ended up with: its own, or that of the object an
    ///   upsert folded it into; `nil`, having changed nothing, when the memory for the table's
    ///   values cannot be had. A replay that gets `nil` applies the event decoded from its bytes
    ///   instead, which throws the failure.
    @discardableResult
    mutating func applyInsert(
        _ inserts: DirectInserts,
        at index: Int,
        sequence: UInt64?,
        takingValues: Bool
    ) -> UInt64? {
        let table = inserts.heads[index].table
        guard hasReservedRoom(table, forObjects: 1), hasReservedHierarchyRoom(table) else { return nil }
        return applyInsertWithRoom(inserts, at: index, sequence: sequence, takingValues: takingValues)
    }

    /// ``applyInsert(_:at:sequence:takingValues:)`` once the room it needs is reserved
    /// (``reserveRoom(for:_:)``), as a save reserves it for its whole batch.
    ///
    /// - Parameter takingValues: Whether to move the values out of `inserts` instead of copying
    ///   them (``DirectInserts/withValuesToTake(_:)``): `true` only where nothing reads `inserts`
    ///   again, as in a replay, which applies each insert it decoded once, or a save whose batch
    ///   is encoded already. Copying each string into the projection retained it twice and
    ///   released it twice more when the decoded batch was dropped.
    ///
    /// Never inlined: compiled into the replay's loop, it made the compiler stop inlining the
    /// decoding of an insert's bytes there, which cost a migration's replays 14% more
    /// instructions.
    @discardableResult @inline(never)
    mutating func applyInsertWithRoom(
        _ inserts: DirectInserts,
        at index: Int,
        sequence: UInt64?,
        takingValues: Bool
    ) -> UInt64 {
        let head = inserts.heads[index]
        var insert = InsertInProgress()
        begin(&insert, table: head.table, id: head.id)
        insert.uniqueHash = inserts.uniqueHash(at: index)
        // The unique index's bucket for an insert a few ahead, whose hash the predecoder
        // computed: a replay's bucket reads are otherwise one cache miss each, in a table of
        // hundreds of thousands of entries.
        let ahead = index &+ Self.uniqueBucketDistance
        if ahead < inserts.heads.count, let hash = inserts.uniqueHash(at: ahead) {
            prefetchUniqueBucket(inserts.heads[ahead].table, hash)
        }
        if takingValues {
            // Each value swapped with the `null` of the fresh slot, through one pointer to each
            // array: writing them one by one checked both arrays' uniqueness for every value.
            let width = tables[insert.table].width
            let base = insert.slot &* width
            inserts.withValuesToTake { taken in
                tables[insert.table].values.withUnsafeMutableBufferPointer(decodingSlot: insert.slot, width: width) {
                    values in
                    for position in head.attributes {
                        let attribute = inserts.attributeIndexes[position]
                        swap(&values[base &+ attribute], &taken[position])
                        insert.written.insert(attribute)
                    }
                }
            }
        } else {
            // Copied through one pointer to each array, as above: setting them one by one
            // checked the uniqueness of the tables and of the values for every value.
            let width = tables[insert.table].width
            let base = insert.slot &* width
            inserts.withValues { copied in
                tables[insert.table].values.withUnsafeMutableBufferPointer(decodingSlot: insert.slot, width: width) {
                    values in
                    for position in head.attributes {
                        let attribute = inserts.attributeIndexes[position]
                        values[base &+ attribute] = copied[position]
                        insert.written.insert(attribute)
                    }
                }
            }
        }
        for position in head.references {
            if !insert.isPlaced { place(&insert) }
            let reference = inserts.references[position]
            refer(&insert, reference.relationship, reference.target)
        }
        if !insert.isPlaced { place(&insert) }
        if !sharedUniques[insert.table].isEmpty { foldAcrossHierarchy(&insert) }
        if let sequence { lastSequence = sequence }
        return insert.survivor
    }

    /// How many inserts ahead a replay asks for a unique index's bucket.
    private static let uniqueBucketDistance = 8

    /// Starts an insert of `id` in a reserved slot of `table`.
    @inline(__always)
    private mutating func begin(_ insert: inout InsertInProgress, table: Int, id: UInt64) {
        insert.table = table
        insert.id = id
        insert.slot = tables[table].reserveSlot()
    }

    /// Sets an attribute of the insert's reserved slot.
    @inline(__always)
    private mutating func set(_ insert: inout InsertInProgress, _ attribute: Int, _ value: AttributeValue) {
        tables[insert.table].setValue(value, insert.slot, attribute)
        insert.written.insert(attribute)
    }

    /// Sets a to-one reference of the placed insert.
    @inline(__always)
    private mutating func refer(_ insert: inout InsertInProgress, _ relationship: Int, _ target: UInt64?) {
        if insert.survivor != insert.id {
            // An upsert sets the to-one relationships the insert names, and only those.
            guard let target else { return }
            setToOne(insert.table, insert.survivor, relationship, resolve(target))
        } else if let target, tables[insert.table].toOneTarget(insert.slot, relationship) == 0,
            !links[insert.table][relationship].isToMany
        {
            setFreshToOne(insert.table, insert.id, insert.slot, relationship, resolve(target))
        } else {
            setToOne(insert.table, insert.id, relationship, target.map(resolve))
        }
    }

    /// Folds a placed insert into the object of another table of its hierarchy that holds one
    /// of its shared unique values, if any: an upsert across classes (see ``foldAcross(_:_:_:into:_:written:)``).
    @inline(never)
    private mutating func foldAcrossHierarchy(_ insert: inout InsertInProgress) {
        guard insert.survivor == insert.id,
            let holder = crossHolder(insert.table, slot: insert.slot, excluding: insert.id)
        else { return }
        foldAcross(insert.table, insert.id, insert.slot, into: holder.table, holder.id, written: Array(insert.written))
        insert.survivor = holder.id
    }

    /// An insert read from bytes: where its values went, and what became of it.
    private struct InsertInProgress {
        var table = -1
        var id: UInt64 = 0
        var slot = 0
        /// The field position of the next attribute.
        var position = 0
        /// The attributes the insert names.
        var written = PropertySet()
        var isPlaced = false
        /// The identifier the object ends up with: its own, or the survivor of an upsert.
        var survivor: UInt64 = 0
        /// The hash of its unique value, when the replay's predecoder computed it.
        var uniqueHash: UInt32?
    }

    /// Makes the reserved slot the object's, or folds the values into the object that already
    /// holds one of its unique values (an upsert, as ``apply(_:)`` describes).
    private mutating func place(_ insert: inout InsertInProgress) {
        insert.isPlaced = true
        let table = insert.table
        nextIdentifier = max(nextIdentifier, insert.id + 1)
        if let survivor = tables[table].indexUnlessTaken(insert.id, slot: insert.slot, hash: insert.uniqueHash) {
            guard let kept = slot(table, survivor) else {
                // Not a live object of the table, which only a damaged index would give: the
                // insert takes its place.
                tables[table].index(insert.id, slot: insert.slot)
                place(table, insert.id, in: insert.slot)
                insert.survivor = insert.id
                return
            }
            alias(insert.id, to: survivor)
            foldCounts[table] += 1
            tables[table].unindex(survivor, slot: kept)
            for attribute in insert.written {
                tables[table].setValue(tables[table].value(insert.slot, attribute), kept, attribute)
            }
            tables[table].index(survivor, slot: kept)
            tables[table].release(insert.slot)
            insert.survivor = survivor
            return
        }
        place(table, insert.id, in: insert.slot)
        insert.survivor = insert.id
    }

    /// ``setToOne(_:_:_:_:)`` for a to-one relationship of an object just placed in `slot`,
    /// which refers to nothing yet: the slots are known, so that the common reference of a
    /// replay (an item to its trip) looks up only its target.
    private mutating func setFreshToOne(_ table: Int, _ id: UInt64, _ slot: Int, _ relationship: Int, _ target: UInt64)
    {
        let link = links[table][relationship]
        let destination: Int
        let inverse: Int?
        let targetSlot: Int
        if link.destination >= 0, let slot = self.slot(link.destination, target) {
            (destination, inverse, targetSlot) = (link.destination, link.inverse, slot)
        } else {
            // A target of a subentity of the destination, in a table of its own.
            guard let found = self.destination(of: link, holding: target), let slot = self.slot(found.table, target)
            else { return }
            (destination, inverse, targetSlot) = (found.table, found.inverse, slot)
        }
        tables[table].setToOneTarget(target, slot, relationship)
        guard let inverse else { return }
        if links[destination][inverse].isToMany {
            tables[destination].appendTarget(id, targetSlot, inverse)
        } else {
            // One to one: the target lets go of its previous partner first.
            addToRelationship(destination, target, inverse, id)
        }
    }
}
