extension ModelContainer {
    /// Deletes every object of every entity in the container's store, durably, and keeps the
    /// schema.
    ///
    /// The deletes are one batch of events, appended to the log as a save's are: atomic, and
    /// on disk when the call returns (with the default durability). The store stays open and
    /// accepts saves; reopened, it is empty. Contexts see the store empty at their next fetch;
    /// their unsaved changes stay pending, and a model they hold whose object was deleted is
    /// no longer returned by fetches.
    ///
    /// ```swift
    /// try container.deleteAllData()
    /// try ModelContext(container).fetchCount(FetchDescriptor<Trip>())   // 0
    /// ```
    ///
    /// Differences from SwiftData: SwiftData's `deleteAllData()` does not throw, and removes the
    /// store's files; here the call throws, and the log keeps its history (the deletes are
    /// events after it), as every change does. No delete rule runs: every object goes. The
    /// files of `.externalStorage` values stay too: the history's inserts and updates refer to
    /// them, and reading that history returns their bytes.
    ///
    /// - Throws: ``LogbookError`` with ``LogbookError/Code/saveNotAllowed`` when the
    ///   container's configuration does not allow saving, or ``LogbookError/Code/io`` or
    ///   ``LogbookError/Code/writerFailed`` when the append fails, in which case nothing is
    ///   deleted.
    /// - Complexity: O(*n*) in the number of objects in the store.
    public func deleteAllData() throws {
        guard allowsSave else {
            throw LogbookError(
                .saveNotAllowed,
                "this container's configuration does not allow saving, so its data cannot be deleted",
                path: store.location
            )
        }
        if try store.deleteAllObjects().sequences != nil { store.saveSignal?.notify() }
    }

    /// Erases the container's data: every object of every entity, durably, as
    /// ``deleteAllData()`` does.
    ///
    /// ```swift
    /// try container.erase()
    /// ```
    ///
    /// Differences from SwiftData: SwiftData's `erase()` removes the store's files. Logbook's log
    /// never rewrites its history, and other containers of the process may share the open store:
    /// `erase()` appends the deletes instead, so the store stays open, keeps its schema and
    /// history, and accepts saves at once.
    ///
    /// - Throws: See ``deleteAllData()``.
    /// - Complexity: O(*n*) in the number of objects in the store.
    public func erase() throws {
        try deleteAllData()
    }
}
