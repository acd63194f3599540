extension ModelContainer {
    /// Writes a checkpoint of the store: its objects as of the last save, so that the next
    /// open loads them and replays only the saves after it.
    ///
    /// A checkpoint is a cache, never the truth: an open that finds any doubt about one (a
    /// damaged file, another schema, another store) ignores it with a warning and replays the
    /// log. The two newest checkpoints are kept, older ones removed. With relaxed durability,
    /// the log is flushed to disk first, so that a checkpoint never names a save the disk may
    /// lose. Saves wait while the objects are laid out; the file is written after that. A
    /// container also writes one as its store closes, when the log grew by more than
    /// ``ModelConfiguration/checkpointInterval`` since the newest one. The format is in
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
    /// - Throws: ``LogbookError/Code/saveNotAllowed`` when the container's configuration does
    ///   not allow saving; ``LogbookError/Code/io`` when the file cannot be written, or
    ///   ``LogbookError/Code/writerFailed`` when the log cannot be flushed. The store is as it
    ///   was after a failure: at worst a temporary file is left in its `checkpoints` directory.
    public func checkpoint() throws {
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
