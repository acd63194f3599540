// What a model knows of its context: which context manages it, and whether it is deleted.

extension PersistentModel {
    /// The context that manages the model: the one it was inserted into or fetched from, or
    /// `nil`.
    ///
    /// A model is managed by a context from the moment it is inserted (or fetched, or reached
    /// by a fetched model's relationship) until a save of that context deletes it, a rollback
    /// forgets it (an insert not saved yet), or the context goes away. A model marked for
    /// deletion and not saved yet is still managed. A model a save merged into another object
    /// of the context (an upsert on a unique attribute) stands in for that object and reports
    /// its context.
    ///
    /// ```swift
    /// let trip = Trip(name: "Lisbon")
    /// trip.modelContext            // nil
    /// context.insert(trip)
    /// trip.modelContext === context   // true
    /// ```
    ///
    /// Read it in the context's isolation domain, as every other property of the model.
    public var modelContext: ModelContext? {
        let (link, isDeletedBySave) = inPlace { ($0.link, $0.isDeletedBySave) }
        guard let link, !isDeletedBySave, let observer = link.observer else { return nil }
        if let merged = observer as? MergedModels {
            return merged.survivor(of: self) == nil ? nil : merged.context.owner ?? merged.context
        }
        guard let context = observer as? ModelContext else { return nil }
        // The context of one store of a container of several reports the context the app made.
        return context.manages(self) ? context.owner ?? context : nil
    }

    /// Whether the model is deleted: marked for deletion in its context, or deleted by a save
    /// of its context.
    ///
    /// Marking a model inserted and not saved yet for deletion forgets it instead: it is then
    /// not deleted, and has no ``modelContext``. A rollback cancels the marks.
    ///
    /// ```swift
    /// context.delete(trip)
    /// trip.isDeleted   // true
    /// try context.save()
    /// trip.isDeleted   // still true; trip.modelContext is nil
    /// ```
    ///
    /// Unlike SwiftData, which answers `false` again once the deletion is saved, a model a save
    /// deleted stays deleted here. A model deleted by a save of another context (of the same
    /// store) is not reported as deleted in this one.
    public var isDeleted: Bool {
        let (link, isDeletedBySave) = inPlace { ($0.link, $0.isDeletedBySave) }
        if isDeletedBySave { return true }
        guard let observer = link?.observer else { return false }
        if let merged = observer as? MergedModels {
            // The object it stands in for is gone only when a save deleted it.
            guard let survivor = merged.survivor(of: self) else { return true }
            return merged.context.isMarkedForDeletion(survivor)
        }
        guard let context = observer as? ModelContext else { return false }
        return context.isMarkedForDeletion(self)
    }
}

extension ModelContext {
    /// Whether the context holds `model`: registered (fetched or saved), inserted, or marked
    /// for deletion.
    func manages(_ model: any PersistentModel) -> Bool {
        if let number = model.storedIdentifier {
            return registry[number] === model || deleted[ObjectIdentifier(model)] != nil
        }
        return inserted.contains(model)
    }

    /// Whether `model` is marked for deletion at the next save.
    func isMarkedForDeletion(_ model: any PersistentModel) -> Bool {
        !deleted.isEmpty && deleted[ObjectIdentifier(model)] != nil
    }
}
