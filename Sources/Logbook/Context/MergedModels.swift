/// The models of a context that a save merged into another object of the same context, and the
/// observer that keeps them working.
///
/// Inserting `paris2` with the unique name of a stored `paris` that the context already holds
/// is an upsert: the save folds both into one stored model, with the identifier of `paris`.
/// The context keeps one object per identifier, and keeps the one it had, `paris`: fetches go
/// on returning the object they returned before the save, as SwiftData's do. `paris2` is then
/// *merged away*: it stays usable, standing in for `paris`. Each read of one of its persisted
/// properties reads `paris`'s current value, and each write sets the property of `paris`,
/// which the next save writes. Inserting it again does nothing, deleting it deletes `paris`,
/// and a relationship set to it relates the other side to `paris`.
///
/// A merged-away model is given a link of its own, whose observer is this object instead of
/// the context, and every persisted property of it is marked as a fault: its generated getters
/// then ask this observer before each read (``resolveFault(of:relationship:)``), and its
/// setters report each write (``modelDidBecomeDirty(_:)``, since its changes are forwarded and
/// cleared at once), without any cost to the context's other models.
final class MergedModels: ModelObserver {
    /// The link every merged-away model of the context holds.
    let link = ContextLink()
    /// The context, which owns this object and sets ``link``'s observer to `nil` before it
    /// goes away.
    unowned(unsafe) let context: ModelContext

    init(context: ModelContext) {
        self.context = context
        link.observer = self
    }

    /// The object a merged-away model stands in for: the context's registered object of its
    /// identifier, unless that was deleted since.
    func survivor(of model: any PersistentModel) -> (any PersistentModel)? {
        guard let id = model.storedIdentifier, let survivor = context.registry[id],
            type(of: survivor) == type(of: model)
        else { return nil }
        return survivor
    }

    // MARK: - Reads

    /// A persisted property of a merged-away model is being read: give it the survivor's
    /// current value, and leave it a fault, so that the next read asks again.
    func resolveFault(of model: any PersistentModel, relationship index: Int) {
        defer {
            model.inPlace { storage in
                var faulted = storage.faultedProperties
                _ = faulted.insert(index)
                storage.faultedProperties = faulted
            }
        }
        guard let survivor = survivor(of: model) else { return }
        context.withMapping(of: model) { mapping in
            switch mapping.slots[index] {
            case .attribute:
                guard let value = try? mapping.attribute(survivor, index) else { return }
                try? model.writeAttribute(index, value, observed: false)
            case .relationship:
                mapping.setRelated(model, index, context.currentRelationship(survivor, index), observed: false)
            }
        }
    }

    // MARK: - Writes

    /// An attribute of a merged-away model was set: set the survivor's, as a change of the
    /// survivor. A relationship is forwarded by ``model(_:didSetRelationship:from:to:)``, which
    /// the setter calls next. The model's own changes are cleared, so that its next write
    /// reports again.
    func modelDidBecomeDirty(_ model: any PersistentModel) {
        let changed = model.inPlace { storage in
            let changed = storage.changedProperties
            storage.clearChanges()
            return changed
        }
        guard let survivor = survivor(of: model) else { return }
        context.withMapping(of: model) { mapping in
            for property in changed {
                guard case .attribute = mapping.slots[property],
                    let value = try? mapping.attribute(model, property)
                else { continue }
                try? survivor.writeAttribute(property, value, observed: true)
                survivor._$storage.markChanged(property)
            }
        }
        context.modelDidBecomeDirty(survivor)
    }

    /// A relationship of a merged-away model was set: set the survivor's, with its inverses,
    /// as if it had been set on the survivor.
    func model(
        _ model: any PersistentModel,
        didSetRelationship index: Int,
        from oldValue: [any PersistentModel],
        to newValue: [any PersistentModel]
    ) {
        model.inPlace { $0.clearChanges() }
        guard let survivor = survivor(of: model) else { return }
        let mapping = context.mapping(of: survivor)
        let current = context.currentRelationship(survivor, index)
        mapping.setRelated(survivor, index, newValue, observed: true)
        context.noteRelationshipChange(survivor, index)
        context.modelDidBecomeDirty(survivor)
        context.model(survivor, didSetRelationship: index, from: current, to: newValue)
    }
}

extension ModelContext {
    /// Makes `model`, which a save merged into `survivor`, the context's registered object of
    /// their identifier, a stand-in for `survivor` (see ``MergedModels``).
    ///
    /// The models that `model` refers to and that refer back to it refer to `survivor`
    /// instead, as the store's do; `model` lets go of them.
    func mergeAway(_ model: any PersistentModel, into survivor: any PersistentModel) {
        let merged = self.merged ?? MergedModels(context: self)
        self.merged = merged
        withMapping(of: model) { mapping in
            for property in mapping.relationshipProperties {
                if let inverse = mapping.inverseProperties[property] {
                    for target in mapping.related(model, property) {
                        redirect(target, inverse, from: model, to: survivor)
                    }
                }
                mapping.clearRelated(model, property)
            }
            model.inPlace { storage in
                storage.link = merged.link
                storage.faultedProperties = PropertySet(mapping.slots.indices)
                storage.clearChanges()
            }
        }
    }

    /// Lets `model` go after a save merged it into `survivor`, an object of another class of
    /// its model hierarchy (an upsert on a unique constraint the classes share). The survivor
    /// keeps its class, so `model` cannot stand in for it: the models that `model` refers to
    /// and that refer back to it refer to `survivor` instead, where its class has the
    /// relationship, as the store's do, or let go of `model` otherwise; and `model` is no
    /// longer managed by the context (its ``PersistentModel/modelContext`` is `nil`).
    func detach(_ model: any PersistentModel, mergedInto survivor: any PersistentModel) {
        let survivorMapping = mapping(of: survivor)
        withMapping(of: model) { mapping in
            for property in mapping.relationshipProperties {
                let kept = survivorMapping.propertyNames.contains(mapping.propertyNames[property])
                if let inverse = mapping.inverseProperties[property] {
                    for target in mapping.related(model, property) {
                        if kept {
                            redirect(target, inverse, from: model, to: survivor)
                        } else {
                            letGo(of: model, target, inverse)
                        }
                    }
                }
                mapping.clearRelated(model, property)
            }
        }
        model.inPlace { storage in
            storage.link = nil
            storage.mayRelateUnobserved = true
            storage.clearChanges()
        }
    }

    /// Makes `target`'s relationship at `property` no longer refer to `model`, without
    /// recording a change: the store made the same change.
    private func letGo(of model: any PersistentModel, _ target: any PersistentModel, _ property: Int) {
        guard !target.inPlace({ $0._$isFaulted(property) }) else { return }
        withMapping(of: target) { mapping in
            let current = mapping.related(target, property)
            guard current.contains(where: { $0 === model }) else { return }
            mapping.setRelated(target, property, current.filter { $0 !== model }, observed: true)
        }
    }

    /// Makes `target`'s relationship at `property` refer to `survivor` where it referred to
    /// `model`, without recording a change: the store made the same change.
    private func redirect(
        _ target: any PersistentModel,
        _ property: Int,
        from model: any PersistentModel,
        to survivor: any PersistentModel
    ) {
        guard !target.inPlace({ $0._$isFaulted(property) }) else { return }
        withMapping(of: target) { mapping in
            let current = mapping.related(target, property)
            guard current.contains(where: { $0 === model }) else { return }
            var kept = false
            let redirected = current.compactMap { related -> (any PersistentModel)? in
                let replacement = related === model ? survivor : related
                guard replacement === survivor else { return replacement }
                defer { kept = true }
                return kept ? nil : replacement
            }
            mapping.setRelated(target, property, redirected, observed: true)
        }
    }

    /// The object `model` stands for: the survivor when a save merged `model` away, `model`
    /// itself otherwise.
    @inline(__always)
    func standIn(for model: any PersistentModel) -> any PersistentModel {
        guard let merged, model.inPlace({ $0.link === merged.link }) else { return model }
        return merged.survivor(of: model) ?? model
    }
}
