import Foundation

extension ModelContext {
    /// Posted through `NotificationCenter.default`, with the context as its object, when a
    /// context is about to write its pending inserts, changes and deletes. It has no `userInfo`.
    ///
    /// ```swift
    /// let observer = NotificationCenter.default.addObserver(
    ///     forName: ModelContext.willSave, object: context, queue: nil
    /// ) { _ in print("saving") }
    /// ```
    ///
    /// It is posted on the saving thread, by a ``save()`` that has changes to write. A context
    /// of a container of several configurations posts it once per store it writes, just
    /// before that store's batch.
    public static let willSave = Notification.Name("Logbook.ModelContext.willSave")

    /// Posted through `NotificationCenter.default`, with the context as its object, once a
    /// context's save is in the store.
    ///
    /// Its `userInfo` holds the identifiers of the models the save inserted, updated and
    /// deleted, as arrays of ``PersistentIdentifier`` under the raw values of
    /// ``NotificationKey``:
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: context, queue: nil) {
    ///     let key = ModelContext.NotificationKey.insertedIdentifiers.rawValue
    ///     let inserted = $0.userInfo?[key] as? [PersistentIdentifier] ?? []
    /// }
    /// ```
    ///
    /// It is posted on the saving thread before ``save()`` returns; a failed save posts none.
    /// An insert that a unique attribute turned into an update of a stored model (an upsert)
    /// is listed with the stored model's identifier, under the inserted identifiers.
    ///
    /// A context of a container of several configurations posts it once per store whose batch
    /// is in, each listing that store's models: when the save of a later store fails, the
    /// notifications of the stores written before it still tell what they hold.
    public static let didSave = Notification.Name("Logbook.ModelContext.didSave")

    /// The keys of the `userInfo` of ``ModelContext/didSave``, by their raw values.
    ///
    /// ## Topics
    ///
    /// ### Keys
    /// - ``insertedIdentifiers``
    /// - ``updatedIdentifiers``
    /// - ``deletedIdentifiers``
    public enum NotificationKey: String, Sendable {
        /// The identifiers of the models the save inserted.
        case insertedIdentifiers
        /// The identifiers of the models the save updated.
        case updatedIdentifiers
        /// The identifiers of the models the save deleted.
        case deletedIdentifiers
    }

    /// Posts ``willSave``.
    /// The context a notification names: the one the app made, also when one of its stores'
    /// contexts saves.
    private var notifyingContext: ModelContext { owner ?? self }

    func postWillSave() {
        NotificationCenter.default.post(name: Self.willSave, object: notifyingContext)
    }

    /// Posts ``didSave`` with the identifiers of a save's models, and wakes the store's feeds.
    func postDidSave(inserted: [PersistentIdentifier], updated: [PersistentIdentifier], deleted: [PersistentIdentifier])
    {
        NotificationCenter.default.post(
            name: Self.didSave,
            object: notifyingContext,
            userInfo: [
                NotificationKey.insertedIdentifiers.rawValue: inserted,
                NotificationKey.updatedIdentifiers.rawValue: updated,
                NotificationKey.deletedIdentifiers.rawValue: deleted,
            ]
        )
    }
}
