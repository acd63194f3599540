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
    /// A container of several configurations deletes the objects of every store, one batch per
    /// store in the order of the configurations: each store's deletes are atomic, not the
    /// whole. A configuration that does not allow saving refuses the call before any store is
    /// changed; when a store's append fails, the stores before it are empty, and it and the
    /// ones after it are as they were. The error names them.
    ///
    /// - Throws: ``LogbookError`` with ``LogbookError/Code/saveNotAllowed`` when the
    ///   container's configuration (or one of them) does not allow saving, or ``LogbookError/Code/io`` or
    ///   ``LogbookError/Code/writerFailed`` when the append fails, in which case nothing is
    ///   deleted.
    /// - Complexity: O(*n*) in the number of objects in the store.
    public func deleteAllData() throws {
        if !parts.isEmpty { return try deleteAllDataOfStores() }
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

extension ModelContainer {
    /// ``deleteAllData()`` of a container of several configurations: every store, or none when
    /// one of them does not allow saving.
    private func deleteAllDataOfStores() throws {
        for part in parts where !part.allowsSave {
            throw LogbookError(
                .saveNotAllowed,
                "configuration \(part.configurationDescription) does not allow saving, so its data cannot be deleted; no store was changed",
                path: part.store.location
            )
        }
        var emptied: [String] = []
        for part in parts {
            do {
                try part.deleteAllData()
            } catch var error as LogbookError {
                error.message =
                    "deleting the data of configuration \(part.configurationDescription) failed, and its store is as it was"
                    + (emptied.isEmpty
                        ? "" : "; configurations \(emptied.joined(separator: ", ")) were emptied before it")
                    + ": " + error.message
                throw error
            }
            emptied.append(part.configurationDescription)
        }
    }

    /// The first configuration of the container, as messages name it.
    var configurationDescription: String {
        StorePartition.describe(configurations.first ?? ModelConfiguration())
    }
}
