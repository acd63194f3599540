extension ModelContext: ModelObserver {
    func modelDidBecomeDirty(_ model: any PersistentModel) {
        guard model.storedIdentifier != nil else { return }
        dirty[ObjectIdentifier(model)] = model
        scheduleAutosave()
    }

    /// Keeps the inverse side in step, in memory, as soon as one side is set; inserts models
    /// that become reachable from this context.
    func model(
        _ model: any PersistentModel,
        didSetRelationship index: Int,
        from oldValue: [any PersistentModel],
        to newValue: [any PersistentModel]
    ) {
        // Only the models this change adds: those it kept were inserted when they were added,
        // and an append would otherwise insert the whole list again.
        let added = Self.models(newValue, missingFrom: oldValue)
        for related in added { insertIfNew(related) }
        guard let inverse = inverseProperty(of: model, index) else { return }
        for target in Self.models(oldValue, missingFrom: newValue) { remove(model, from: target, inverse) }
        for target in added { add(model, to: target, inverse, partnerProperty: index) }
    }

    func model(
        _ model: any PersistentModel,
        didSetToOne index: Int,
        from oldValue: (any PersistentModel)?,
        to newValue: (any PersistentModel)?
    ) {
        // What the general form does with one model at most on each side, without its arrays.
        if oldValue === newValue { return }
        if let newValue { insertIfNew(newValue) }
        guard let inverse = inverseProperty(of: model, index) else { return }
        if let oldValue { remove(model, from: oldValue, inverse) }
        if let newValue { add(model, to: newValue, inverse, partnerProperty: index) }
    }

    func model<Target: PersistentModel>(
        _ model: any PersistentModel,
        didAppend appended: any PersistentModel,
        toMany index: Int,
        from oldValue: [Target],
        to newValue: [Target]
    ) {
        insertIfNew(appended)
        guard let inverse = inverseProperty(of: model, index) else { return }
        add(model, to: appended, inverse, partnerProperty: index)
    }

    /// The models of `models` that `others` does not hold. Most changes append to a short array,
    /// where comparing identities in place costs less than building a set for every append.
    private static func models(
        _ models: [any PersistentModel],
        missingFrom others: [any PersistentModel]
    ) -> [any PersistentModel] {
        if others.count <= 16 { return models.filter { model in !others.contains { $0 === model } } }
        let held = Set(others.map(ObjectIdentifier.init))
        return models.filter { !held.contains(ObjectIdentifier($0)) }
    }

    func resolveFault(of model: any PersistentModel, relationship index: Int) {
        guard let id = model.storedIdentifier else { return }
        withMapping(of: model) { mapping in
            guard case .relationship(let relationship) = mapping.slots[index] else { return }
            let loader = FaultLoader(context: self, id: id, table: mapping.table, relationship: relationship)
            mapping.loadRelated(model, index, from: loader)
        }
    }

    /// Makes the targets of one stored object's relationship for ``EntityMapping/loadRelated(_:_:from:)``.
    ///
    /// Three words, so that it fits an existential's inline buffer instead of a box of its own.
    private struct FaultLoader: RelatedModelLoader {
        let context: ModelContext
        let id: UInt64
        let table: Int32
        let relationship: Int32

        init(context: ModelContext, id: UInt64, table: Int, relationship: Int) {
            self.context = context
            self.id = id
            self.table = Int32(truncatingIfNeeded: table)
            self.relationship = Int32(truncatingIfNeeded: relationship)
        }

        func models<Target: PersistentModel>(_: Target.Type) -> [Target] {
            var models = targets(Target.self)
            let typed = Target._$array(models)
            release(&models)
            return typed
        }

        func model<Target: PersistentModel>(_: Target.Type) -> Target? {
            var models = targets(Target.self)
            defer { release(&models) }
            precondition(models.count <= 1, "A to-one relationship holds at most one model")
            guard let model = models.first else { return nil }
            return downcast(model, to: Target.self)
        }

        /// The targets, made in the context's reused buffer, which ``release(_:)`` gives back.
        /// No closure: one generic over its result looked the result's type up on every call.
        private func targets<Target: PersistentModel>(_: Target.Type) -> [AnyObject] {
            var models: [AnyObject] = []
            swap(&models, &context.scratchModels)
            context.materializeRelated(
                Target.self,
                of: id,
                table: Int(table),
                relationship: Int(relationship),
                into: &models
            )
            return models
        }

        private func release(_ models: inout [AnyObject]) {
            models.removeAll(keepingCapacity: true)
            swap(&models, &context.scratchModels)
        }
    }

    // MARK: - Inverses

    /// The property index of the inverse of `model`'s relationship at `index`, on the target type.
    func inverseProperty(of model: any PersistentModel, _ index: Int) -> Int? {
        withMapping(of: model) { $0.inverseProperties[index] }
    }

    /// The related models, loading a fault first.
    func currentRelationship(_ model: any PersistentModel, _ property: Int) -> [any PersistentModel] {
        loadIfFaulted(model, property)
        return withMapping(of: model) { $0.related(model, property) }
    }

    /// Loads a relationship that is still a fault.
    private func loadIfFaulted(_ model: any PersistentModel, _ property: Int) {
        guard model.inPlace({ $0._$isFaulted(property) }) else { return }
        model._$storage.clearFault(property)
        resolveFault(of: model, relationship: property)
    }

    /// Applies the delete rules, in memory, to a model inserted since the last save and deleted
    /// before it: the models related through `.cascade` are deleted too, and the others let go
    /// of it, so that no saved model refers to one that was never stored.
    func letGo(ofUnsaved model: any PersistentModel) {
        let mapping = mapping(of: model)
        for property in mapping.relationshipProperties {
            let targets = currentRelationship(model, property)
            if case .relationship(let index) = mapping.slots[property],
                mapping.entity.relationships[index].deleteRule == .cascade
            {
                for target in targets { delete(target) }
                continue
            }
            guard let inverse = inverseProperty(of: model, property) else { continue }
            for target in targets { remove(model, from: target, inverse) }
        }
    }

    private func remove(_ model: any PersistentModel, from target: any PersistentModel, _ property: Int) {
        let target = standIn(for: target)
        let current = currentRelationship(target, property)
        guard current.contains(where: { $0 === model }) else { return }
        mapping(of: target).setRelated(target, property, current.filter { $0 !== model }, observed: true)
        noteRelationshipChange(target, property)
    }

    /// The model a to-one relationship holds, loading a fault first.
    func currentOne(_ model: any PersistentModel, _ property: Int) -> (any PersistentModel)? {
        withMapping(of: model) { currentOne(model, property, mapping: $0) }
    }

    /// ``currentOne(_:_:)`` for a caller that has the model's mapping at hand.
    private func currentOne(
        _ model: any PersistentModel,
        _ property: Int,
        mapping: EntityMapping
    ) -> (any PersistentModel)? {
        loadIfFaulted(model, property)
        return mapping.relatedOne(model, property)
    }

    private func add(
        _ model: any PersistentModel,
        to target: any PersistentModel,
        _ property: Int,
        partnerProperty: Int
    ) {
        let target = standIn(for: target)
        let changed = withMapping(of: target) { targetMapping -> Bool in
            if targetMapping.isToMany(property) {
                let current = currentRelationship(target, property)
                if current.contains(where: { $0 === model }) { return false }
                targetMapping.setRelated(target, property, current + [model], observed: true)
                return true
            }
            let current = currentOne(target, property, mapping: targetMapping)
            if current === model { return false }
            // A to-one side lets go of its previous partner, which loses `target` in turn.
            if let previous = current {
                let previousSide = currentRelationship(previous, partnerProperty)
                mapping(of: previous).setRelated(
                    previous,
                    partnerProperty,
                    previousSide.filter { $0 !== target },
                    observed: true
                )
                noteRelationshipChange(previous, partnerProperty)
            }
            targetMapping.setRelatedOne(target, property, model, observed: true)
            return true
        }
        if changed { noteRelationshipChange(target, property) }
    }

    /// Records a relationship change made on the user's behalf, so that the next save writes it.
    func noteRelationshipChange(_ model: any PersistentModel, _ property: Int) {
        let isStored = model.inPlace { storage in
            storage.markChanged(property)
            return storage.storedNumber != nil
        }
        if isStored { dirty[ObjectIdentifier(model)] = model }
    }
}
