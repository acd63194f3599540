// Reading and changing the objects of a table by slot; the projection finds the slot of an
// identifier (`Projection.slot(_:_:)`).
extension EntityTable {
    // MARK: - Reading

    /// Whether `slot` holds the object `id`.
    @inline(__always)
    package func holds(_ id: UInt64, at slot: Int) -> Bool {
        slot < identifiers.count && identifiers[slot] == id
    }

    /// The value of an attribute of the object in `slot`.
    @inline(__always)
    package func value(_ slot: Int, _ attribute: Int) -> AttributeValue {
        values[slot &* width &+ attribute]
    }

    /// The targets of a relationship of the object in `slot`: zero or one for a to-one
    /// relationship.
    @inline(__always)
    package func targets(_ slot: Int, _ relationship: Int) -> [UInt64] {
        if isToMany[relationship] { return toMany[relationship][slot] }
        let target = toOne[relationship][slot]
        return target == 0 ? [] : [target]
    }

    /// Calls `body` with each target of a relationship of the object in `slot` of `table`, in
    /// order, without making an array of them. Static, over a pointer, reading only stored
    /// properties: a method called on `pointee` would copy the table first.
    @inline(__always)
    package static func forEachTarget(
        in table: UnsafePointer<EntityTable>,
        _ slot: Int,
        _ relationship: Int,
        _ body: (UInt64) -> Void
    ) {
        if table.pointee.isToMany[relationship] {
            table.pointee.toMany[relationship].forEach(in: slot, body)
        } else {
            let target = table.pointee.toOne[relationship][slot]
            if target != 0 { body(target) }
        }
    }

    /// Lets go of the memory of the checkpoint's chunks that a read of the targets of `slot`
    /// through `relationship` mapped: its list or link, and the identifier the object's lookup
    /// read. For an object met at random, in a table read here and there.
    static func dropChunks(in table: UnsafePointer<EntityTable>, of slot: Int, _ relationship: Int) {
        if table.pointee.isToMany[relationship] {
            table.pointee.toMany[relationship].dropChunks(of: slot)
        } else {
            table.pointee.toOne[relationship].dropChunk(around: slot)
        }
        table.pointee.loadedIdentifiers?.identifiers.dropChunk(around: slot)
    }

    /// The identifiers of the live objects, in ascending order, each with its slot.
    package func identifiersInOrder() -> [(id: UInt64, slot: Int)] {
        var result: [(id: UInt64, slot: Int)] = []
        result.reserveCapacity(count)
        var ordered = true
        var last: UInt64 = 0
        for (slot, id) in identifiers.enumerated() where id != 0 {
            if id < last { ordered = false }
            last = id
            result.append((id, slot))
        }
        if !ordered { result.sort { $0.id < $1.id } }
        return result
    }

    /// The object in a slot as a ``Row`` of its own: for tools and tests, which read a few
    /// objects whole; the model layer reads the values in place.
    package func row(at slot: Int) -> Row {
        Row(
            values: (0..<width).map { value(slot, $0) },
            relationships: isToMany.indices.map { targets(slot, $0) }
        )
    }

    /// Every live object as a ``Row``, by identifier. O(*n*), allocating a row per object.
    package var rowsByIdentifier: [UInt64: Row] {
        var result: [UInt64: Row] = [:]
        result.reserveCapacity(count)
        for (id, slot) in identifiersInOrder() { result[id] = row(at: slot) }
        return result
    }

    // MARK: - Changing

    /// Makes the values' column this table's alone, with room for `added` more objects than
    /// its free slots take: what ``reserveSlot()``, ``setValue(_:_:_:)`` and ``release(_:)`` need,
    /// since they never allocate the values' memory themselves.
    ///
    /// - Parameter limit: The most bytes the values may take (see
    ///   ``ValueColumn/reserve(adding:limit:)``).
    /// - Throws: ``LogbookError/Code/outOfMemory``, naming the entity, when the memory cannot be
    ///   had; the table is then as it was.
    mutating func reserveRoom(forObjects added: Int, limit: Int = .max) throws(LogbookError) {
        let newSlots = Swift.max(0, added - freeSlots.count)
        let (valueCount, overflow) = newSlots.multipliedReportingOverflow(by: width)
        do {
            try values.reserve(adding: overflow ? .max : valueCount, limit: limit)
        } catch {
            let bytes = error.bytes.map { "\($0) bytes" } ?? "more bytes than an Int counts"
            let objects =
                overflow || error.values == .max ? "more objects than memory holds" : "\(error.values / width) objects"
            throw LogbookError(
                .outOfMemory,
                "out of memory for the attribute values of \(entity.name): the values of \(objects) (\(error.values) values, \(bytes)) could not be allocated"
            )
        }
    }

    /// A slot with every attribute `null` and every relationship empty, holding no object yet:
    /// a freed one, or a new one. Set its values, then place an object in it through the
    /// projection (``Projection/place(_:_:in:)``, which records the slot) or ``release(_:)`` it.
    /// A new slot takes room that ``reserveRoom(forObjects:limit:)`` made.
    mutating func reserveSlot() -> Int {
        if let free = freeSlots.popLast() { return free }
        identifiers.append(0)
        values.appendNulls(width)
        for relationship in isToMany.indices {
            if isToMany[relationship] { toMany[relationship].appendSlot() } else { toOne[relationship].append(0) }
        }
        return identifiers.count - 1
    }

    /// Puts `id` in a reserved slot. The object is not indexed: call ``index(_:slot:)``.
    /// Called by ``Projection``, which records the slot.
    mutating func place(_ id: UInt64, in slot: Int) {
        identifiers[slot] = id
        count += 1
    }

    /// Clears a slot and makes it free for reuse.
    mutating func release(_ slot: Int) {
        clear(slot)
        if identifiers[slot] != 0 { count -= 1 }
        identifiers[slot] = 0
        freeSlots.append(slot)
    }

    @inline(__always)
    mutating func setValue(_ value: AttributeValue, _ slot: Int, _ attribute: Int) {
        values[slot &* width &+ attribute] = value
    }

    /// Adds `target` to a to-many relationship, unless it is there already.
    mutating func appendTarget(_ target: UInt64, _ slot: Int, _ relationship: Int) {
        toMany[relationship].update(slot) { targets in
            guard !targets.contains(target) else { return }
            // Room for a few from the first: a to-many relationship usually gets its targets one
            // by one, and growing an array one element at a time reallocates it at 1, 2 and 4.
            if targets.isEmpty { targets.reserveCapacity(4) }
            targets.append(target)
        }
    }

    /// The target of a to-one relationship, 0 for none.
    @inline(__always)
    func toOneTarget(_ slot: Int, _ relationship: Int) -> UInt64 {
        toOne[relationship][slot]
    }

    mutating func setToOneTarget(_ target: UInt64, _ slot: Int, _ relationship: Int) {
        toOne[relationship][slot] = target
    }

    /// Removes `target` from a relationship, to-one or to-many.
    mutating func removeTarget(_ target: UInt64, _ slot: Int, _ relationship: Int) {
        if isToMany[relationship] {
            toMany[relationship].update(slot) { targets in
                if let position = targets.firstIndex(of: target) { targets.remove(at: position) }
            }
        } else if toOne[relationship][slot] == target {
            toOne[relationship][slot] = 0
        }
    }

    private mutating func clear(_ slot: Int) {
        let start = slot &* width
        for index in start..<(start &+ width) { values[index] = .null }
        for relationship in isToMany.indices {
            if isToMany[relationship] {
                toMany[relationship].update(slot) { $0 = [] }
            } else {
                toOne[relationship][slot] = 0
            }
        }
    }
}
