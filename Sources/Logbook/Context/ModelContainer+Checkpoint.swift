extension ModelContainer {
    /// Writes a checkpoint of the store: its objects as of the last save, so that the next
    /// open loads them and replays only the saves after it.
    ///
    /// A checkpoint is a cache, never the truth: an open that finds any doubt about one (a
    /// damaged file, another schema, another store) ignores it with a warning and replays the
    /// log. The two newest checkpoints are kept, older ones removed. With relaxed durability,
    /// the log is flushed to disk first, so that a checkpoint never names a save the disk may
    /// lose. Saves wait only while the objects are taken; the file is built and written after
    /// that. One checkpoint is written at a time: this waits for one being written in the
    /// background. With a ``ModelConfiguration/checkpointInterval``, a container writes them
    /// by itself. The format is in
    /// <doc:OnDiskFormat>.
    ///
    /// ```swift
    /// let container = try ModelContainer(for: Trip.self, configurations: configuration)
    /// // … many saves later:
    /// try container.checkpoint()
    /// ```
    ///
    /// Does nothing for a store in memory or a store without saves.
    ///
    /// A container of several configurations writes a checkpoint of each of its stores that
    /// allows saving, in the order of the configurations; a read-only store writes nothing in
    /// its directory, and is left out. When one fails, the ones before it are written.
    ///
    /// - Throws: ``LogbookError/Code/saveNotAllowed`` when the container's configuration does
    ///   not allow saving (for a container of several configurations: none of them does); ``LogbookError/Code/io`` when the file cannot be written, or
    ///   ``LogbookError/Code/writerFailed`` when the log cannot be flushed. The store is as it
    ///   was after a failure: at worst a temporary file is left in its `checkpoints` directory.
    public func checkpoint() throws {
        if !parts.isEmpty { return try checkpointStores() }
        guard allowsSave else {
            throw LogbookError(
                .saveNotAllowed,
                "this container's configuration does not allow saving, and a checkpoint writes to the store",
                path: store.location
            )
        }
        try store.writeCheckpoint()
    }
}

extension ModelContainer {
    /// ``checkpoint()`` of a container of several configurations: each store that allows
    /// saving.
    private func checkpointStores() throws {
        let writable = parts.filter(\.allowsSave)
        guard !writable.isEmpty else {
            throw LogbookError(
                .saveNotAllowed,
                "none of this container's configurations allows saving, and a checkpoint writes to a store"
            )
        }
        for part in writable { try part.checkpoint() }
    }
}
