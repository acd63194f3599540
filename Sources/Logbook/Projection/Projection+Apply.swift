extension Projection {
    /// Applies one event, written at the current schema or upcast to it.
    ///
    /// - An insert whose unique attribute holds a value a live object of the entity already has
    ///   is an *upsert*: the existing object survives; the inserted attribute values and set
    ///   to-one relationships overwrite its own; the inserted identifier becomes an alias of the
    ///   survivor, so every later event that refers to it (a to-many link, a reference from
    ///   another object) reaches the survivor, and to-many relationships are united.
    /// - An update that gives an object a unique value another live object holds folds the
    ///   updated object into the holder the same way: the updated object's values win, its
    ///   relationships move to the holder, and its identifier becomes an alias. This is how a
    ///   custom migration stage that edits names before a unique constraint folds duplicates.
    /// - Relationships with an inverse are kept in step on both sides.
    /// - Names the schema does not know are ignored: they belong to attributes, relationships
    ///   or entities that a later schema removed.
    ///
    /// - Returns: the identifier the event's object ends up with (the survivor of an upsert), or
    ///   `nil` for events that do not concern one object.
    @discardableResult
    package mutating func apply(_ event: Event) -> UInt64? {
        switch event {
        case .schema, .migration:
            return nil
        case .insert(let insert):
            guard let table = table(named: insert.entity) else { return nil }
            return self.insert(table, insert.id, insert.attributes, insert.toOne)
        case .update(let update):
            guard let table = table(named: update.entity) else { return nil }
            let id = resolve(update.id)
            guard var row = tables[table].rows[id] else { return nil }
            for (position, field) in update.attributes.enumerated() {
                if let index = tables[table].attribute(named: field.name, at: position) {
                    row.values[index] = field.value
                }
            }
            if let holder = uniqueCollision(table, row, excluding: id) {
                fold(table, id, into: holder, values: row.values)
                for reference in update.toOne {
                    guard let relationship = tables[table].relationship(named: reference.name) else { continue }
                    setToOne(table, holder, relationship, reference.target.map(resolve))
                }
                return holder
            }
            setAttributes(table, id, update.attributes)
            for reference in update.toOne {
                guard let relationship = tables[table].relationship(named: reference.name) else { continue }
                setToOne(table, id, relationship, reference.target.map(resolve))
            }
            return id
        case .delete(let entity, let rawID):
            guard let table = table(named: entity) else { return nil }
            let id = resolve(rawID)
            delete(table, id)
            return id
        case .link(let link):
            guard let (table, id, relationship) = locate(link) else { return nil }
            for target in link.targets { connect(table, id, relationship, resolve(target)) }
            return id
        case .unlink(let link):
            guard let (table, id, relationship) = locate(link) else { return nil }
            for target in link.targets { disconnect(table, id, relationship, resolve(target)) }
            return id
        }
    }

    // MARK: - Inserts and upserts

    private mutating func insert(
        _ table: Int,
        _ id: UInt64,
        _ attributes: [Event.Field],
        _ toOne: [Event.Reference]
    ) -> UInt64 {
        nextIdentifier = max(nextIdentifier, id + 1)
        var row = tables.withUnsafeBufferPointer { $0[table].emptyRow }
        for (position, field) in attributes.enumerated() {
            if let index = tables[table].attribute(named: field.name, at: position) { row.values[index] = field.value }
        }
        if let survivor = uniqueCollision(table, row, excluding: id) {
            alias(id, to: survivor)
            foldCounts[table] += 1
            setAttributes(table, survivor, attributes)
            for reference in toOne {
                guard let target = reference.target,
                    let relationship = tables[table].relationship(named: reference.name)
                else { continue }
                setToOne(table, survivor, relationship, resolve(target))
            }
            return survivor
        }
        tables[table].rows[id] = row
        tables[table].index(id, row)
        for reference in toOne {
            guard let relationship = tables[table].relationship(named: reference.name) else { continue }
            setToOne(table, id, relationship, reference.target.map(resolve))
        }
        return id
    }

    /// Folds a live object into another: `values` replace the survivor's, the folded object's
    /// relationships move to the survivor (to-many ones united, a set to-one replacing the
    /// survivor's), and the folded identifier becomes an alias of the survivor.
    private mutating func fold(_ table: Int, _ id: UInt64, into survivor: UInt64, values: [AttributeValue]) {
        guard let folded = tables[table].rows[id], var kept = tables[table].rows[survivor] else { return }
        for (relationship, targets) in folded.relationships.enumerated() {
            for target in targets { disconnect(table, id, relationship, target) }
        }
        tables[table].unindex(id, folded)
        tables[table].rows[id] = nil
        tables[table].unindex(survivor, kept)
        kept.values = values
        tables[table].rows[survivor] = kept
        tables[table].index(survivor, kept)
        for (relationship, targets) in folded.relationships.enumerated() {
            // To-many relationships are united; a set to-one replaces the survivor's, whose
            // former target is kept, unlinked.
            for target in targets { connect(table, survivor, relationship, target) }
        }
        alias(id, to: survivor)
        foldCounts[table] += 1
    }

    /// The live object that already holds one of `row`'s unique values.
    /// Records that `id` was merged into `survivor`, unless `survivor` already resolves through
    /// `id`: the aliases would then loop and ``resolve(_:)`` never return. Only a damaged or forged
    /// log asks for that (an insert of an identifier that was merged away and then inserted again);
    /// `id` then stays unaliased.
    private mutating func alias(_ id: UInt64, to survivor: UInt64) {
        var current = survivor
        while current != id {
            guard let next = aliases[current], next != current else {
                aliases[id] = survivor
                return
            }
            current = next
        }
    }

    private func uniqueCollision(_ table: Int, _ row: Row, excluding id: UInt64) -> UInt64? {
        // Through a buffer pointer: reading the table out of the array would copy all of it.
        tables.withUnsafeBufferPointer { tables in
            for (position, attribute) in tables[table].uniqueAttributes.enumerated()
            where row.values[attribute] != .null {
                if let holder = tables[table].uniqueIndexes[position][row.values[attribute]], holder != id {
                    return holder
                }
            }
            return nil
        }
    }

    private mutating func setAttributes(_ table: Int, _ id: UInt64, _ attributes: [Event.Field]) {
        guard var row = tables[table].rows[id] else { return }
        tables[table].unindex(id, row)
        for (position, field) in attributes.enumerated() {
            if let index = tables[table].attribute(named: field.name, at: position) { row.values[index] = field.value }
        }
        tables[table].rows[id] = row
        tables[table].index(id, row)
    }

    // MARK: - Deletes

    private mutating func delete(_ table: Int, _ id: UInt64) {
        guard let row = tables[table].rows[id] else { return }
        // Clear the other side of every relationship, so that no live object keeps pointing
        // here through an inverse. References without an inverse stay as they are (`.noAction`
        // semantics); delete rules were applied, and recorded, when the delete was saved.
        for (relationship, targets) in row.relationships.enumerated() {
            let link = links[table][relationship]
            guard let inverse = link.inverse else { continue }
            for target in targets { removeFromRelationship(link.destination, target, inverse, id) }
        }
        tables[table].unindex(id, row)
        tables[table].rows[id] = nil
    }

    // MARK: - Relationships

    private func locate(_ link: Event.Link) -> (Int, UInt64, Int)? {
        guard let table = table(named: link.entity),
            let relationship = tables[table].relationship(named: link.relationship)
        else { return nil }
        let id = resolve(link.id)
        guard tables[table].rows[id] != nil else { return nil }
        return (table, id, relationship)
    }

    /// Sets a to-one relationship and keeps its inverse in step.
    private mutating func setToOne(_ table: Int, _ id: UInt64, _ relationship: Int, _ target: UInt64?) {
        guard let current = tables[table].rows[id].map({ $0.relationships[relationship].first }) else { return }
        if current == target { return }
        if let old = current { disconnect(table, id, relationship, old) }
        if let target { connect(table, id, relationship, target) }
    }

    /// Adds `target` to a relationship of `id`, and `id` to the inverse of `target`.
    private mutating func connect(_ table: Int, _ id: UInt64, _ relationship: Int, _ target: UInt64) {
        let link = links[table][relationship]
        guard link.destination >= 0, tables[link.destination].rows[target] != nil else { return }
        addToRelationship(table, id, relationship, target)
        if let inverse = link.inverse { addToRelationship(link.destination, target, inverse, id) }
    }

    /// Removes `target` from a relationship of `id`, and `id` from the inverse of `target`.
    private mutating func disconnect(_ table: Int, _ id: UInt64, _ relationship: Int, _ target: UInt64) {
        let link = links[table][relationship]
        removeFromRelationship(table, id, relationship, target)
        if let inverse = link.inverse, link.destination >= 0 {
            removeFromRelationship(link.destination, target, inverse, id)
        }
    }

    /// Adds one identifier to one side. A to-one side that pointed elsewhere lets go of its old
    /// target first, on both sides, so that a one-to-one or one-to-many pair stays consistent.
    ///
    /// The relationship is read and changed in separate statements, so that no copy of its
    /// array is alive while it changes: a live copy would make every append copy the array.
    private mutating func addToRelationship(_ table: Int, _ id: UInt64, _ relationship: Int, _ target: UInt64) {
        let link = links[table][relationship]
        if link.isToMany {
            guard tables[table].rows[id]?.relationships[relationship].contains(target) == false else { return }
            tables[table].rows[id]?.relationships[relationship].append(target)
            return
        }
        guard let current = tables[table].rows[id].map({ $0.relationships[relationship].first }) else { return }
        if current == target { return }
        if let old = current, let inverse = link.inverse, link.destination >= 0 {
            removeFromRelationship(link.destination, old, inverse, id)
        }
        tables[table].rows[id]?.relationships[relationship] = [target]
    }

    private mutating func removeFromRelationship(_ table: Int, _ id: UInt64, _ relationship: Int, _ target: UInt64) {
        guard table >= 0, let position = tables[table].rows[id]?.relationships[relationship].firstIndex(of: target)
        else { return }
        tables[table].rows[id]?.relationships[relationship].remove(at: position)
    }
}
