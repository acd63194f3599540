// How a context of a container of several configurations works: it hands every operation on a
// model to the context of the model's store (``ModelContext/_storeParts``), and saves store by
// store.

extension ModelContext {
    /// The context of the store of `T`, for a context of several stores. A model type the
    /// container does not know goes to the first store, whose context answers as the context
    /// of a container of one store does.
    func storePart<T: PersistentModel>(for type: T.Type) -> ModelContext {
        let index = container.partIndex[T._$binding.entityName] ?? 0
        return _storeParts[index]
    }

    /// ``storePart(for:)`` for ``fetch(_:)``, which is compiled into its callers: one call,
    /// made only by a context of several stores.
    @usableFromInline
    func _storePart<T: PersistentModel>(for type: T.Type) -> ModelContext {
        storePart(for: type)
    }

    /// The context of the store of an entity, for a context of several stores; `nil` for an
    /// entity the container does not know.
    func storePart(forEntity name: String) -> ModelContext? {
        container.partIndex[name].map { _storeParts[$0] }
    }

    /// Saves each store's changes as that store's own batch, in the order of the
    /// configurations.
    ///
    /// A store whose configuration does not allow saving, with changes pending, refuses the
    /// save before any store is written. A store whose save fails keeps its changes pending and
    /// its log as it was, as the save of a container of one store does; the stores before it
    /// keep their saves, and the stores after it are not written and keep their changes
    /// pending too. The error says which is which.
    func saveStores() throws {
        let pending = _storeParts.filter(\.hasChanges)
        for part in pending where !part.container.allowsSave {
            let entities = Set(
                (part.insertedModelsArray + part.deletedModelsArray + part.changedModelsArray)
                    .map { $0.persistentModelID.entityName }
            )
            throw LogbookError(
                .saveNotAllowed,
                "configuration \(part.configurationDescription) does not allow saving, and this save changes its models (\(entities.sorted().joined(separator: ", "))); nothing was saved, and the changes stay pending",
                path: part.store.location
            )
        }
        var saved: [String] = []
        for (position, part) in _storeParts.enumerated() {
            do {
                try part.save()
            } catch var error as LogbookError {
                let notTried = _storeParts[(position + 1)...].filter(\.hasChanges).map(\.configurationDescription)
                var summary =
                    "the save of configuration \(part.configurationDescription) failed and its changes stay pending"
                if !saved.isEmpty {
                    summary += "; configurations \(saved.joined(separator: ", ")) were saved before it"
                }
                if !notTried.isEmpty {
                    summary +=
                        "; configurations \(notTried.joined(separator: ", ")) were not written, and their changes stay pending"
                }
                error.message = summary + ": " + error.message
                throw error
            }
            if pending.contains(where: { $0 === part }) { saved.append(part.configurationDescription) }
        }
    }

    /// The configuration of this context's store, as messages name it.
    var configurationDescription: String {
        container.configurationDescription
    }
}
