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
        let mapping = mapping(of: model)
        guard case .relationship(let relationship) = mapping.slots[index], let targetType = mapping.targetType(index)
        else { return }
        let targets = materializeRelated(targetType, of: id, table: mapping.table, relationship: relationship)
        mapping.setRelated(model, index, targets, observed: false)
    }

    // MARK: - Inverses

    /// The property index of the inverse of `model`'s relationship at `index`, on the target type.
    func inverseProperty(of model: any PersistentModel, _ index: Int) -> Int? {
        mapping(of: model).inverseProperties[index]
    }

    /// The related models, loading a fault first.
    func currentRelationship(_ model: any PersistentModel, _ property: Int) -> [any PersistentModel] {
        if model.inPlace({ $0._$isFaulted(property) }) {
            model._$storage.faultedProperties.remove(property)
            resolveFault(of: model, relationship: property)
        }
        return mapping(of: model).related(model, property)
    }

    private func remove(_ model: any PersistentModel, from target: any PersistentModel, _ property: Int) {
        let current = currentRelationship(target, property)
        guard current.contains(where: { $0 === model }) else { return }
        mapping(of: target).setRelated(target, property, current.filter { $0 !== model }, observed: true)
        noteRelationshipChange(target, property)
    }

    private func add(
        _ model: any PersistentModel,
        to target: any PersistentModel,
        _ property: Int,
        partnerProperty: Int
    ) {
        let current = currentRelationship(target, property)
        if current.contains(where: { $0 === model }) { return }
        let targetMapping = mapping(of: target)
        if targetMapping.isToMany(property) {
            targetMapping.setRelated(target, property, current + [model], observed: true)
        } else {
            // A to-one side lets go of its previous partner, which loses `target` in turn.
            if let previous = current.first {
                let previousSide = currentRelationship(previous, partnerProperty)
                mapping(of: previous).setRelated(
                    previous,
                    partnerProperty,
                    previousSide.filter { $0 !== target },
                    observed: true
                )
                noteRelationshipChange(previous, partnerProperty)
            }
            targetMapping.setRelated(target, property, [model], observed: true)
        }
        noteRelationshipChange(target, property)
    }

    /// Records a relationship change made on the user's behalf, so that the next save writes it.
    func noteRelationshipChange(_ model: any PersistentModel, _ property: Int) {
        model._$storage.markChanged(property)
        if model.storedIdentifier != nil {
            dirty[ObjectIdentifier(model)] = model
        }
    }
}
