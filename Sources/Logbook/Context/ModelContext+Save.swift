extension ModelContext {
    /// Writes every unsaved insert, change and delete as one batch of events.
    ///
    /// The batch is atomic: after a crash either all of it is in the store or none of it is.
    /// With the default durability, `save()` returns once the batch is on disk.
    ///
    /// Before writing, the save applies delete rules (`.cascade` deletes the related models,
    /// `.nullify` clears their references, `.deny` refuses the save while related models
    /// remain) and checks minimum and maximum model counts. Inserting a model whose unique
    /// attribute collides with a stored model updates that model instead (an *upsert*): the
    /// inserted values win, to-many relationships are united, and the inserted object takes the
    /// stored model's identifier.
    ///
    /// ## One object per model
    ///
    /// A context holds one object per identifier, also after an upsert. When the context
    /// already held the stored model (it fetched it, or inserted it earlier), that object stays
    /// the one fetches return, as with SwiftData: it takes the merged values at the save. The
    /// inserted object is then *merged away*: it stands in for the kept one. Reading a property
    /// through it reads the kept object's current value, setting one sets the kept object's,
    /// which the next save writes; deleting it deletes the kept object. Either reference can be
    /// used, and both always agree:
    ///
    /// ```swift
    /// let paris = Trip(name: "Paris", destination: "Paris", startDate: start, endDate: end)
    /// context.insert(paris)
    /// try context.save()
    ///
    /// let paris2 = Trip(name: "Paris", destination: "Lyon", startDate: start, endDate: end)
    /// context.insert(paris2)
    /// try context.save()                  // an upsert: paris.destination == "Lyon"
    ///
    /// paris2.destination = "Nice"         // sets paris.destination
    /// try context.save()
    /// try context.fetch(FetchDescriptor<Trip>()).first === paris   // true; it shows "Nice"
    /// ```
    ///
    /// A merged-away object keeps no observation of its own: observe the kept object, which
    /// fetches return. When the context did not hold the stored model, the inserted object
    /// becomes the context's object of it, with the merged values.
    ///
    /// ## Several stores
    ///
    /// A context of a container of several configurations writes one batch per store that has
    /// changes, in the order of the configurations: the save is atomic per store, not as a
    /// whole. A store whose configuration does not allow saving refuses a save that changes it
    /// before any store is written. When a store's batch fails, that store is left as it was
    /// and its changes stay pending; the stores before it keep their saves, the stores after it
    /// are not written and keep their changes pending, and the error's message names each. A
    /// second `save()` writes what is still pending. See
    /// <doc:ModelContainer#Several-stores-in-one-container>.
    ///
    /// - Throws: ``LogbookError`` with code ``LogbookError/Code/validationFailed`` naming the
    ///   entity, relationship and count when a rule is broken;
    ///   ``LogbookError/Code/saveNotAllowed`` when the configuration does not allow saving;
    ///   ``LogbookError/Code/io`` or ``LogbookError/Code/writerFailed`` when the write fails.
    ///   A failed save writes nothing and leaves the changes pending.
    public func save() throws {
        if !_storeParts.isEmpty { return try saveStores() }
        guard hasChanges else {
            dirty.removeAll()
            return
        }
        guard container.allowsSave else {
            throw LogbookError(
                .saveNotAllowed,
                "this container's configuration does not allow saving",
                path: store.location
            )
        }
        postWillSave()
        let deletions = try deletionClosure()
        var inserts: [any PersistentModel] = []
        swap(&inserts, &scratchInserts)
        // Taken rather than copied: copying retained each model, and emptying both lists
        // released it twice. A failed save gives them back.
        inserted.takeModels(into: &inserts)
        defer {
            // Emptied before it is kept: the list must not keep the models alive. The list of a
            // very large save is let go of rather than kept.
            inserts.removeAll(keepingCapacity: inserts.capacity <= Store.spareInsertsLimit)
            swap(&inserts, &scratchInserts)
        }
        let changes = dirty.values.filter { deletions[ObjectIdentifier($0)] == nil && $0.hasChanges }
        // Most schemas set no counts: then no model needs looking at.
        if store.hasCountLimits {
            do {
                try validateCounts(inserts + changes)
            } catch {
                inserted.giveBack(inserts)
                throw error
            }
        }
        // Each insert takes its permanent identifier while the batch is built, so that
        // references to it read like references to stored models; a failed commit gives the
        // temporary identifiers back.
        var temporaries: [(position: Int, number: UInt64)] = []
        var assigned = 0
        let commit: Store.Commit
        do {
            let transaction = BatchTransaction(timestamp: store.clock(), author: author)
            commit = try store.saveBatch(transaction: transaction) { projection, nextIdentifier, schemaNumber, batch in
                try checkStillStored(changes, deletions, in: projection)
                for (position, model) in inserts.enumerated() {
                    model.inPlace { storage in
                        if storage.identifierKind == .temporary {
                            temporaries.append((position, storage.identifierNumber))
                        }
                        storage.setIdentifier(nextIdentifier, kind: .permanent)
                    }
                    nextIdentifier += 1
                    assigned += 1
                }
                try prepareBatch(
                    &batch,
                    inserts: inserts,
                    changes: changes,
                    deletions: deletions,
                    schemaNumber: schemaNumber,
                    projection
                )
            }
        } catch {
            restoreIdentifiers(of: inserts.prefix(assigned), temporaries)
            inserted.giveBack(inserts)
            throw error
        }
        let deleted = deletions.values.map(\.persistentModelID)
        let updated = changes.map(\.persistentModelID)
        finishSave(commit, inserts: inserts, changes: changes, deletions: deletions)
        if commit.sequences != nil, let signal = store.saveSignal { signal.notify() }
        postDidSave(inserted: inserts.map(\.persistentModelID), updated: updated, deleted: deleted)
    }

    /// The events of a batch: inserts first, each referring only to objects already in the
    /// store or inserted before it in the batch; the references to later ones, and every
    /// to-many link, follow once all the objects exist. Then changes, then deletes.
    private func prepareBatch(
        _ batch: inout Store.PreparedBatch,
        inserts: [any PersistentModel],
        changes: [any PersistentModel],
        deletions: [ObjectIdentifier: any PersistentModel],
        schemaNumber: UInt32,
        _ projection: Projection
    ) throws {
        var toOne: [(property: Int, relationship: Int, target: UInt64)] = []
        batch.inserts.reserveCapacity(forInserts: inserts.count)
        for model in inserts {
            try recordInsert(model, into: &batch, toOne: &toOne)
        }
        for model in changes {
            batch.events += try updateEvents(model, projection)
        }
        for model in deletions.values {
            guard let id = model.storedIdentifier else { continue }
            batch.events.append(
                .delete(entity: type(of: model).entityName, id: id, preserved: try preservedValues(of: model))
            )
        }
    }

    /// Gives inserted models back the identifiers they had before a failed commit: none, or
    /// the temporary one at the positions listed.
    private func restoreIdentifiers(
        of inserts: ArraySlice<any PersistentModel>,
        _ temporaries: [(position: Int, number: UInt64)]
    ) {
        for model in inserts { model._$storage.setIdentifier(0, kind: .none) }
        for (position, number) in temporaries { inserts[position]._$storage.setIdentifier(number, kind: .temporary) }
    }

    /// The identifier number of a related model, which must be stored or inserted in this batch.
    private func identify(_ model: any PersistentModel) throws -> UInt64 {
        if let id = model.storedIdentifier { return id }
        throw LogbookError(
            .validationFailed,
            "a relationship refers to a \(type(of: model).entityName) that is neither in the store nor inserted in this context"
        )
    }

    // MARK: - Delete rules

    /// The models a save deletes: those marked, and those reached through `.cascade`. Applies
    /// `.nullify` in memory, and refuses the save for `.deny`.
    private func deletionClosure() throws -> [ObjectIdentifier: any PersistentModel] {
        var closure = deleted
        var queue = Array(deleted.values)
        while let model = queue.popLast() {
            let mapping = mapping(of: model)
            let entity = mapping.entity
            for property in mapping.relationshipProperties {
                guard case .relationship(let index) = mapping.slots[property],
                    entity.relationships[index].deleteRule == .cascade
                else { continue }
                for target in currentRelationship(model, property) where closure[ObjectIdentifier(target)] == nil {
                    if inserted.contains(target) {
                        delete(target)
                        continue
                    }
                    closure[ObjectIdentifier(target)] = target
                    queue.append(target)
                }
            }
        }
        for model in closure.values {
            let mapping = mapping(of: model)
            let entity = mapping.entity
            for property in mapping.relationshipProperties {
                guard case .relationship(let index) = mapping.slots[property] else { continue }
                let relationship = entity.relationships[index]
                let remaining = currentRelationship(model, property).filter { closure[ObjectIdentifier($0)] == nil }
                if relationship.deleteRule == .deny && !remaining.isEmpty {
                    throw LogbookError(
                        .validationFailed,
                        "cannot delete \(model.persistentModelID): its relationship '\(entity.name).\(relationship.name)' has the .deny delete rule and \(remaining.count) related model(s) remain"
                    )
                }
            }
        }
        // Nullify: the models that remain let go of the deleted ones, in memory, so that the
        // references are written as explicit changes in the same batch.
        for model in closure.values {
            let mapping = mapping(of: model)
            for property in mapping.relationshipProperties {
                guard let inverse = inverseProperty(of: model, property) else { continue }
                for target in currentRelationship(model, property) where closure[ObjectIdentifier(target)] == nil {
                    let current = currentRelationship(target, inverse)
                    guard current.contains(where: { $0 === model }) else { continue }
                    self.mapping(of: target).setRelated(
                        target,
                        inverse,
                        current.filter { $0 !== model },
                        observed: true
                    )
                    noteRelationshipChange(target, inverse)
                }
            }
        }
        return closure
    }

    // MARK: - Validation

    private func validateCounts(_ models: [any PersistentModel]) throws {
        for model in models {
            let mapping = mapping(of: model)
            guard mapping.hasCountLimits else { continue }
            let entity = mapping.entity
            let isNew = model.storedIdentifier == nil
            for property in mapping.relationshipProperties {
                guard case .relationship(let index) = mapping.slots[property] else { continue }
                let relationship = entity.relationships[index]
                guard relationship.hasCountLimit,
                    isNew || model._$storage.changedProperties.contains(property)
                else { continue }
                let count = currentRelationship(model, property).count
                if let minimum = relationship.minimumModelCount, minimum > 0, count < minimum {
                    throw LogbookError(
                        .validationFailed,
                        "\(entity.name).\(relationship.name) of \(model.persistentModelID) has \(count) model(s), fewer than its minimumModelCount of \(minimum)"
                    )
                }
                if let maximum = relationship.maximumModelCount, maximum > 0, count > maximum {
                    throw LogbookError(
                        .validationFailed,
                        "\(entity.name).\(relationship.name) of \(model.persistentModelID) has \(count) model(s), more than its maximumModelCount of \(maximum)"
                    )
                }
            }
        }
    }

    // MARK: - Events

    /// Records the insert of a model: its attribute values in declaration order, as the model
    /// type lists them, and the to-one references to models already stored or inserted before
    /// it; a reference to a later one follows as an update, and a to-many relationship as a
    /// link. `toOne` is scratch space, kept across inserts so that each does not allocate it.
    private func recordInsert(
        _ model: any PersistentModel,
        into batch: inout Store.PreparedBatch,
        toOne: inout [(property: Int, relationship: Int, target: UInt64)]
    ) throws {
        let id = try identify(model)
        try withMapping(of: model) { mapping in
            try recordInsert(model, id: id, mapping: mapping, into: &batch, toOne: &toOne)
        }
    }

    /// ``recordInsert(_:into:toOne:)`` with the model's identifier and mapping.
    private func recordInsert(
        _ model: any PersistentModel,
        id: UInt64,
        mapping: EntityMapping,
        into batch: inout Store.PreparedBatch,
        toOne: inout [(property: Int, relationship: Int, target: UInt64)]
    ) throws {
        let entityName = mapping.entityName
        toOne.removeAll(keepingCapacity: true)
        for property in mapping.relationshipProperties {
            guard case .relationship(let index) = mapping.slots[property] else { continue }
            let link = mapping.links[index]
            guard link.isRecorded else { continue }
            if mapping.isToMany(property) {
                let related = mapping.related(model, property)
                if related.isEmpty { continue }
                batch.events.append(
                    .link(
                        .init(
                            entity: entityName,
                            id: id,
                            relationship: mapping.propertyNames[property],
                            targets: try related.map(identify)
                        )
                    )
                )
                continue
            }
            guard let related = mapping.relatedOne(model, property) else { continue }
            let target = try identify(related)
            // Identifiers grow in insertion order: a smaller one is stored or inserted before.
            if target < id {
                toOne.append((property, index, target))
            } else {
                let reference = Event.Reference(mapping.propertyNames[property], target)
                batch.events.append(.update(.init(entity: entityName, id: id, attributes: [], toOne: [reference])))
            }
        }
        let recorder = batch.inserts
        recorder.begin(table: mapping.table, id: id)
        var uniqueHash: UInt32?
        for property in mapping.attributeProperties {
            guard case .attribute(let attribute) = mapping.slots[property] else {
                preconditionFailure("property \(property) of \(entityName) is listed as an attribute")
            }
            let value = try mapping.attribute(model, property)
            // Hashed while the value is at hand, for the projection to ask for its bucket ahead.
            if attribute == mapping.soleUniqueAttribute, value != .null { uniqueHash = UniqueIndex.hash(value) }
            recorder.attribute(attribute, value)
        }
        for reference in toOne { recorder.reference(reference.relationship, reference.target) }
        recorder.end()
        if let uniqueHash { recorder.setUniqueHash(uniqueHash) }
    }

    /// The values of a deleted model's attributes marked `.preserveValueOnDeletion`, which its
    /// delete event carries for history's tombstones.
    private func preservedValues(of model: any PersistentModel) throws -> [Event.Field] {
        let mapping = mapping(of: model)
        guard mapping.hasPreservedAttributes else { return [] }
        var fields: [Event.Field] = []
        for property in mapping.attributeProperties {
            guard case .attribute(let attribute) = mapping.slots[property],
                mapping.entity.attributes[attribute].options.contains(.preserveValueOnDeletion)
            else { continue }
            fields.append(Event.Field(mapping.propertyNames[property], try mapping.attribute(model, property)))
        }
        return fields
    }

    private func updateEvents(_ model: any PersistentModel, _ projection: Projection) throws -> [Event] {
        guard let id = model.storedIdentifier else { return [] }
        let mapping = mapping(of: model)
        let entityName = mapping.entityName
        var attributes: [Event.Field] = []
        var toOne: [Event.Reference] = []
        var links: [Event] = []
        for property in model.inPlace({ $0.changedProperties }) {
            switch mapping.slots[property] {
            case .attribute:
                attributes.append(Event.Field(mapping.propertyNames[property], try mapping.attribute(model, property)))
            case .relationship(let index):
                let link = mapping.links[index]
                guard link.isRecorded, !model.inPlace({ $0._$isFaulted(property) }) else { continue }
                if !mapping.isToMany(property) {
                    let target = try mapping.relatedOne(model, property).map(identify)
                    toOne.append(Event.Reference(mapping.propertyNames[property], target))
                    continue
                }
                let targets = try mapping.related(model, property).map(identify)
                let stored = projection.targets(mapping.table, id, index)
                let added = targets.filter { !stored.contains($0) }
                let removed = stored.filter { !targets.contains($0) }
                let name = mapping.propertyNames[property]
                if !removed.isEmpty {
                    links.append(.unlink(.init(entity: entityName, id: id, relationship: name, targets: removed)))
                }
                if !added.isEmpty {
                    links.append(.link(.init(entity: entityName, id: id, relationship: name, targets: added)))
                }
            }
        }
        guard !attributes.isEmpty || !toOne.isEmpty else { return links }
        return [.update(.init(entity: entityName, id: id, attributes: attributes, toOne: toOne))] + links
    }

    // MARK: - After a successful commit

    private func finishSave(
        _ commit: Store.Commit,
        inserts: [any PersistentModel],
        changes: [any PersistentModel],
        deletions: [ObjectIdentifier: any PersistentModel]
    ) {
        for model in inserts {
            // One access to the model's storage, through its `_modify` here.
            let stored = model.inPlace { storage -> (survivor: UInt64, merged: Bool)? in
                guard let id = storage.storedNumber else { return nil }
                let survivor = commit.survivors.isEmpty ? id : commit.survivors[id] ?? id
                if survivor != id { storage.setIdentifier(survivor, kind: .permanent) }
                storage.clearChanges()
                return (survivor, survivor != id)
            }
            guard let (survivor, merged) = stored else { continue }
            if merged, let other = self.survivor(survivor, ofAnotherClassThan: model) {
                detach(model, mergedInto: other)
                continue
            }
            if let existing = registry[survivor], existing !== model {
                // An upsert merged this object into one that the context already had: that one
                // stays the context's object of the identifier, brought up to date, and this
                // one stands in for it from now on.
                reload(existing)
                mergeAway(model, into: existing)
            } else {
                registry[survivor] = model
                // Merged into a stored model that the context did not hold: the store's values,
                // to-many relationships united, are this object's now.
                if merged { reload(model) }
            }
        }
        for model in changes { model._$storage.clearChanges() }
        for model in deletions.values {
            if let id = model.storedIdentifier { registry[id] = nil }
            model.inPlace { $0.isDeletedBySave = true }
            // Deleted models that held each other (a trip and its cascaded items) would
            // otherwise keep each other alive once the app lets go of them.
            releaseRelationships(of: model)
        }
        inserted.removeAll()
        deleted.removeAll()
        dirty.removeAll()
        if commit.generation == seenGeneration + 1 { seenGeneration = commit.generation }
    }
}
