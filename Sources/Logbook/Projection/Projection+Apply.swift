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
    /// - A schema record puts in force the unique constraints of the schema it records, so that
    ///   the events after it are applied with that version's rules; a constraint it adds folds
    ///   the objects that already share a value (see ``enforceConstraints(of:)``).
    /// - Relationships with an inverse are kept in step on both sides.
    /// - Names the schema does not know are ignored: they belong to attributes, relationships
    ///   or entities that a later schema removed.
    ///
    /// - Returns: the identifier the event's object ends up with (the survivor of an upsert), or
    ///   `nil` for events that do not concern one object.
    /// - Throws: ``LogbookError/Code/outOfMemory`` when the memory for the table's values cannot
    ///   be had; the event then took no effect.
    @discardableResult
    package mutating func apply(_ event: Event) throws(LogbookError) -> UInt64? {
        try apply(event, reserving: true)
    }

    /// ``apply(_:)`` once the room it needs is reserved (``reserveRoom(for:_:)``), as a save
    /// reserves it for its whole batch.
    @discardableResult
    mutating func applyWithRoom(_ event: Event) -> UInt64? {
        do {
            return try apply(event, reserving: false)
        } catch {
            preconditionFailure("only a reservation throws, and none was asked for: \(error)")
        }
    }

    /// ``apply(_:)``, reserving the room the event takes first when `reserving`. One function
    /// for both, the reservation in each case, since a check of the event's kind before the
    /// switch copied the event and retained its payload once more for every event a migration
    /// replays.
    private mutating func apply(_ event: Event, reserving: Bool) throws(LogbookError) -> UInt64? {
        switch event {
        case .schema(let record):
            enforceConstraints(of: record.schema)
            return nil
        case .migration:
            return nil
        case .insert(let insert):
            guard let table = table(named: insert.entity), insert.id != 0 else { return nil }
            if reserving {
                try reserveRoom(table, forObjects: 1)
                for other in hierarchyTables[table] { try reserveRoom(other, forObjects: 0) }
            }
            return self.insert(table, insert.id, insert.attributes, insert.toOne)
        case .update(let update):
            guard let named = table(named: update.entity) else { return nil }
            let id = resolve(update.id)
            guard let table = homeTable(named, id) else { return nil }
            if reserving {
                try reserveRoom(table, forObjects: 0)
                for other in hierarchyTables[table] { try reserveRoom(other, forObjects: 0) }
            }
            guard let slot = slot(table, id) else { return nil }
            let changesIndexes = !sharedUniques[table].isEmpty || writesAnIndexedAttribute(update.attributes, table)
            let (survivorTable, survivor) = updateObject(table, id, slot, changingIndexes: changesIndexes) {
                projection in
                projection.write(update.attributes, table, slot)
            }
            for reference in update.toOne {
                guard let relationship = tables[survivorTable].relationship(named: reference.name) else { continue }
                setToOne(survivorTable, survivor, relationship, reference.target.map(resolve))
            }
            return survivor
        case .delete(let entity, let rawID, _):
            guard let named = table(named: entity) else { return nil }
            let id = resolve(rawID)
            let table = homeTable(named, id) ?? named
            if reserving { try reserveRoom(table, forObjects: 0) }
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
        // The values go to a slot of their own first: an upsert leaves no object behind, and a
        // log that inserts an identifier the table holds already replaces that object only
        // when the insert is not an upsert.
        let slot = tables[table].reserveSlot()
        write(attributes, table, slot)
        if let survivor = tables[table].indexUnlessTaken(id, slot: slot) {
            tables[table].release(slot)
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
        place(table, id, in: slot)
        for reference in toOne {
            guard let relationship = tables[table].relationship(named: reference.name) else { continue }
            setToOne(table, id, relationship, reference.target.map(resolve))
        }
        if !sharedUniques[table].isEmpty, let holder = crossHolder(table, slot: slot, excluding: id) {
            // An upsert into an object of another class of the hierarchy: the attributes the
            // insert names, and its references, go to that object.
            let written = attributes.compactMap { tables[table].attributeIndex[$0.name] }
            foldAcross(table, id, slot, into: holder.table, holder.id, written: written)
            return holder.id
        }
        return id
    }

    /// Writes an update's values into the slot of its object with `write`, keeping the indexes
    /// right: when `changingIndexes`, the object leaves its indexes first and comes back after,
    /// folding into the live object that holds a unique value it now has; otherwise the object
    /// stays where the indexes have it.
    ///
    /// - Returns: The table and identifier of the object the update ends up in: its own, or the
    ///   survivor of a fold.
    mutating func updateObject(
        _ table: Int,
        _ id: UInt64,
        _ slot: Int,
        changingIndexes: Bool,
        write: (inout Projection) -> Void
    ) -> (table: Int, id: UInt64) {
        guard changingIndexes else {
            write(&self)
            return (table, id)
        }
        tables[table].unindex(id, slot: slot)
        write(&self)
        if let holder = tables[table].indexUnlessTaken(id, slot: slot) {
            fold(table, id, slot, into: holder)
            return (table, holder)
        }
        if !sharedUniques[table].isEmpty, let holder = crossHolder(table, slot: slot, excluding: id) {
            foldAcross(table, id, slot, into: holder.table, holder.id)
            return holder
        }
        return (table, id)
    }

    /// Folds a live object, already unindexed, into another: its values replace the
    /// survivor's, its relationships move to the survivor (to-many ones united, a set to-one
    /// replacing the survivor's), and its identifier becomes an alias of the survivor.
    mutating func fold(_ table: Int, _ id: UInt64, _ slot: Int, into survivor: UInt64) {
        guard let kept = self.slot(table, survivor) else { return }
        let relationships = tables[table].entity.relationships.indices
        let folded = relationships.map { tables[table].targets(slot, $0) }
        for (relationship, targets) in folded.enumerated() {
            for target in targets { disconnect(table, id, relationship, target) }
        }
        tables[table].unindex(survivor, slot: kept)
        for attribute in tables[table].entity.attributes.indices {
            tables[table].setValue(tables[table].value(slot, attribute), kept, attribute)
        }
        free(table, id, slot: slot)
        tables[table].index(survivor, slot: kept)
        for (relationship, targets) in folded.enumerated() {
            // To-many relationships are united; a set to-one replaces the survivor's, whose
            // former target is kept, unlinked.
            for target in targets { connect(table, survivor, relationship, target) }
        }
        alias(id, to: survivor)
        foldCounts[table] += 1
    }

    /// Records that `id` was merged into `survivor`, unless `survivor` already resolves through
    /// `id`: the aliases would then loop and ``resolve(_:)`` never return. Only a damaged or forged
    /// log asks for that (an insert of an identifier that was merged away and then inserted again);
    /// `id` then stays unaliased.
    mutating func alias(_ id: UInt64, to survivor: UInt64) {
        var current = survivor
        while current != id {
            guard let next = aliases[current], next != current else {
                aliases[id] = survivor
                return
            }
            current = next
        }
    }

    /// Whether an event writes an attribute that an index of the table holds (see
    /// ``EntityTable/changesAnIndex(_:)``).
    private mutating func writesAnIndexedAttribute(_ attributes: [Event.Field], _ table: Int) -> Bool {
        for (position, field) in attributes.enumerated() {
            if let index = tables[table].attribute(named: field.name, at: position),
                tables[table].changesAnIndex(index)
            {
                return true
            }
        }
        return false
    }

    /// Writes an event's attribute values into a slot, by name.
    private mutating func write(_ attributes: [Event.Field], _ table: Int, _ slot: Int) {
        for (position, field) in attributes.enumerated() {
            if let index = tables[table].attribute(named: field.name, at: position) {
                tables[table].setValue(field.value, slot, index)
            }
        }
    }

    private mutating func setAttributes(_ table: Int, _ id: UInt64, _ attributes: [Event.Field]) {
        guard let slot = slot(table, id) else { return }
        tables[table].unindex(id, slot: slot)
        write(attributes, table, slot)
        tables[table].index(id, slot: slot)
    }

    // MARK: - Deletes

    private mutating func delete(_ table: Int, _ id: UInt64) {
        guard let slot = slot(table, id) else { return }
        // Clear the other side of every relationship, so that no live object keeps pointing
        // here through an inverse. References without an inverse stay as they are (`.noAction`
        // semantics); delete rules were applied, and recorded, when the delete was saved.
        for (relationship, link) in links[table].enumerated() {
            guard link.inverse != nil || !link.subdestinations.isEmpty else { continue }
            for target in tables[table].targets(slot, relationship) {
                guard let destination = destination(of: link, holding: target), let inverse = destination.inverse
                else { continue }
                removeFromRelationship(destination.table, target, inverse, id)
            }
        }
        tables[table].unindex(id, slot: slot)
        free(table, id, slot: slot)
    }

    // MARK: - Relationships

    private func locate(_ link: Event.Link) -> (Int, UInt64, Int)? {
        guard let named = table(named: link.entity) else { return nil }
        let id = resolve(link.id)
        guard let table = homeTable(named, id), let relationship = tables[table].relationship(named: link.relationship)
        else { return nil }
        return (table, id, relationship)
    }

    /// Sets a to-one relationship and keeps its inverse in step.
    mutating func setToOne(_ table: Int, _ id: UInt64, _ relationship: Int, _ target: UInt64?) {
        guard let slot = slot(table, id) else { return }
        let current: UInt64?
        if links[table][relationship].isToMany {
            current = tables[table].targets(slot, relationship).first
        } else {
            let stored = tables[table].toOneTarget(slot, relationship)
            current = stored == 0 ? nil : stored
        }
        if current == target { return }
        if let old = current { disconnect(table, id, relationship, old) }
        if let target { connect(table, id, relationship, target) }
    }

    /// Adds `target` to a relationship of `id`, and `id` to the inverse of `target`.
    mutating func connect(_ table: Int, _ id: UInt64, _ relationship: Int, _ target: UInt64) {
        let link = links[table][relationship]
        guard let destination = destination(of: link, holding: target) else { return }
        addToRelationship(table, id, relationship, target)
        if let inverse = destination.inverse { addToRelationship(destination.table, target, inverse, id) }
    }

    /// Removes `target` from a relationship of `id`, and `id` from the inverse of `target`.
    mutating func disconnect(_ table: Int, _ id: UInt64, _ relationship: Int, _ target: UInt64) {
        let link = links[table][relationship]
        removeFromRelationship(table, id, relationship, target)
        if let destination = destination(of: link, holding: target), let inverse = destination.inverse {
            removeFromRelationship(destination.table, target, inverse, id)
        }
    }

    /// Adds one identifier to one side. A to-one side that pointed elsewhere lets go of its old
    /// target first, on both sides, so that a one-to-one or one-to-many pair stays consistent.
    mutating func addToRelationship(_ table: Int, _ id: UInt64, _ relationship: Int, _ target: UInt64) {
        guard let slot = slot(table, id) else { return }
        let link = links[table][relationship]
        if link.isToMany {
            tables[table].appendTarget(target, slot, relationship)
            return
        }
        let current = tables[table].toOneTarget(slot, relationship)
        if current == target { return }
        if current != 0, let destination = destination(of: link, holding: current), let inverse = destination.inverse {
            removeFromRelationship(destination.table, current, inverse, id)
        }
        tables[table].setToOneTarget(target, slot, relationship)
    }

    private mutating func removeFromRelationship(_ table: Int, _ id: UInt64, _ relationship: Int, _ target: UInt64) {
        guard table >= 0, let slot = slot(table, id) else { return }
        tables[table].removeTarget(target, slot, relationship)
    }
}
