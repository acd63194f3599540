extension Projection {
    /// Applies an encoded insert or update straight from its bytes, without building an
    /// ``Event``: what a replay offers each event first (see ``applyInsert(_:sequence:)`` and
    /// ``applyUpdate(_:sequence:)``).
    ///
    /// - Returns: `false`, having changed nothing, when the event takes the full decode.
    package mutating func applyChange(_ bytes: UnsafeRawBufferPointer, sequence: UInt64?) -> Bool {
        if bytes.first == EventCodec.Kind.update.rawValue { return applyUpdate(bytes, sequence: sequence) }
        return applyInsert(bytes, sequence: sequence)
    }

    /// Applies an encoded update straight from its bytes, without building an ``Event``: the
    /// path of the edits a replay meets after the inserts. The result is exactly what decoding
    /// the event and calling ``apply(_:)`` gives.
    ///
    /// The bytes are read twice. The first reading has no effect: it finds the object and
    /// whether a written attribute is one an index holds. The second writes the values.
    /// Building the event instead made a string of every attribute name and an array of every
    /// update's fields, which cost a replay of edits more than applying them.
    ///
    /// - Returns: `false`, having changed nothing, when the bytes are not an update of a live
    ///   object of an entity the schema has; when they hold a value other than a scalar or a
    ///   string, or a to-one reference; when the object's table shares unique constraints with
    ///   others of its hierarchy; when the memory for the table's values cannot be had; or when
    ///   the bytes are malformed. The caller then decodes the event in full, which applies it,
    ///   throws the failure or reports the damage.
    package mutating func applyUpdate(_ bytes: UnsafeRawBufferPointer, sequence: UInt64?) -> Bool {
        var object: (table: Int, id: UInt64, slot: Int)?
        var changesIndexes = false
        var hasReferences = false
        var position = 0
        let readable = EventCodec.readChange(
            bytes,
            head: { head in
                guard head.isUpdate, let named = table(matching: head.entity) else { return false }
                let id = resolve(head.id)
                guard let found = updated(named, id) else { return false }
                object = (found.table, id, found.slot)
                return sharedUniques[found.table].isEmpty
            },
            attribute: { name, _ in
                defer { position += 1 }
                guard let table = object?.table, let attribute = tables[table].attribute(named: name, at: position)
                else { return }
                if tables[table].changesAnIndex(attribute) { changesIndexes = true }
            },
            reference: { _, _ in hasReferences = true }
        )
        guard readable, !hasReferences, let object, hasReservedRoom(object.table, forObjects: 0) else { return false }
        _ = updateObject(object.table, object.id, object.slot, changingIndexes: changesIndexes) { projection in
            projection.writeValues(of: bytes, object.table, object.slot)
        }
        if let sequence { lastSequence = sequence }
        return true
    }

    /// The table and slot of the live object an update of `table` names: in that table, or in
    /// another of its hierarchy (see ``homeTable(_:_:)``); one lookup in the common case.
    private func updated(_ table: Int, _ id: UInt64) -> (table: Int, slot: Int)? {
        if let slot = slot(table, id) { return (table, slot) }
        guard let home = homeTable(table, id), let slot = slot(home, id) else { return nil }
        return (home, slot)
    }

    /// Writes the attribute values of an update's bytes, which ``applyUpdate(_:sequence:)``
    /// read whole once already, into a slot.
    private mutating func writeValues(of bytes: UnsafeRawBufferPointer, _ table: Int, _ slot: Int) {
        var position = 0
        _ = EventCodec.readChange(
            bytes,
            head: { _ in true },
            attribute: { name, value in
                defer { position += 1 }
                guard let attribute = tables[table].attribute(named: name, at: position) else { return }
                switch value {
                case .scalar(let scalar): tables[table].setValue(scalar, slot, attribute)
                case .string(let text):
                    tables[table].setValue(.string(String(decoding: text, as: UTF8.self)), slot, attribute)
                }
            },
            reference: { _, _ in }
        )
    }

    /// The table of the entity whose UTF-8 name `bytes` holds.
    func table(matching bytes: UnsafeRawBufferPointer) -> Int? {
        for index in entityNames.indices where entityNames[index].matches(bytes) { return index }
        return nil
    }
}
