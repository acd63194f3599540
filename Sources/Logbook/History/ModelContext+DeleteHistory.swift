import Foundation

extension ModelContext {
    /// Deletes the store's history up to and including the newest transaction a descriptor
    /// matches.
    ///
    /// A log can only lose a prefix: the *horizon* is the token of the newest transaction the
    /// descriptor matches, and every transaction up to and including it is deleted, whether the
    /// predicate matched it or not; every later one is kept. A descriptor that matches nothing
    /// deletes nothing; one without a predicate deletes the history up to the last save.
    ///
    /// ```swift
    /// let horizon = tokenEveryReaderHasSeen
    /// try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>(
    ///     predicate: #Predicate { $0.token <= horizon }))
    /// ```
    ///
    /// The log up to the horizon is folded into a compaction base: the schema records and
    /// migration markers, then one insert per object live at the horizon, with its identifier
    /// and relationships (see the `OnDiskFormat` article). The objects do not change, and the
    /// store keeps opening, verifying and migrating: the base's events are upcast at the next
    /// change of schema like any others. The switch is crash-safe: after a crash the store has
    /// either its whole history or the base. Checkpoints are deleted with the history.
    ///
    /// Afterwards ``fetchHistory(_:)`` returns the transactions after the horizon, and
    /// ``ModelContainer/changes(after:)`` or ``ModelConfiguration/asOf`` with a token before
    /// the horizon throw ``LogbookError/Code/historyDeleted`` naming it.
    ///
    /// - Parameter descriptor: Which transactions to delete; its sort and limit are applied
    ///   before the newest match is taken.
    /// - Throws: ``LogbookError/Code/saveNotAllowed`` for a read-only container or one opened
    ///   as of a token; ``LogbookError/Code/unsupported`` for a store kept in PostgreSQL or a
    ///   container of several configurations; ``LogbookError/Code/invalidArgument`` for an
    ///   in-memory store or a predicate that reads `changes`; ``LogbookError/Code/corruption``
    ///   for damage in the log; ``LogbookError/Code/io`` when a system call fails, and the
    ///   store is left as it was but for its checkpoints and durable record;
    ///   ``LogbookError/Code/writerFailed`` when the base was renamed into place but the
    ///   directory could not be flushed: the container accepts no more saves, and a reopened
    ///   store has either its whole history or the base.
    /// - Complexity: O(*n*) in the size of the log up to the horizon, which is replayed.
    public func deleteHistory(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws {
        let headers = try historyReader()
        guard let log = store.log else {
            throw LogbookError(
                .saveNotAllowed,
                "this container only reads the store (allowsSave is false, or it is opened as of a token): its history cannot be deleted",
                path: store.location
            )
        }
        try log.checkHistoryCanBeDeleted()
        if let predicate = descriptor.predicate { try HistoryPredicateCheck.check(predicate, store: store.location) }
        let reader = log.reader()
        let current = try reader.horizon() ?? 0
        var tokens: [DefaultHistoryTransaction] = []
        var cursor = reader.batches(from: current + 1)
        while let batch = try cursor.next() {
            let header = try headers.header(of: batch)
            if let predicate = descriptor.predicate, try !predicate.evaluate(header) { continue }
            tokens.append(header)
        }
        if !descriptor.sortBy.isEmpty { tokens.sort(using: descriptor.sortBy) }
        if let limit = descriptor.fetchLimit, tokens.count > limit { tokens.removeSubrange(max(limit, 0)...) }
        guard let horizon = tokens.map(\.token.sequence).max(), horizon > current else { return }
        let events = try Projection.compactionBase(reader, through: horizon)
        try log.replaceHistory(through: horizon, with: events)
    }
}
