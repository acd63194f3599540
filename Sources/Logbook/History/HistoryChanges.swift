import Foundation

extension ModelContainer {
    /// Every transaction saved to the store after a token, as they are saved: the change feed.
    ///
    /// ```swift
    /// for try await transaction in container.changes(after: lastSeen) {
    ///     for change in transaction.changes { apply(change) }
    ///     lastSeen = transaction.token       // store it: the feed resumes from any token
    /// }
    /// ```
    ///
    /// The feed reads the log, one batch at a time: it delivers every transaction exactly
    /// once, in the log's order, without gaps and without folding transactions together, and it
    /// holds one transaction at a time whatever the size of the log. A slow consumer slows only
    /// its own reading: saves never wait for a feed. Once it has read the whole log it waits:
    /// a save through any container of the store in this process wakes it at once, and it
    /// looks at the log again every ``HistoryChanges/pollInterval`` (20 milliseconds) for batches
    /// another process appended. It ends when its task is cancelled.
    ///
    /// The feed holds the store's directory, not the container: it keeps reading once the
    /// container is gone, for instance while another process has opened the store to write.
    ///
    /// The feed of a container opened as of a token (``ModelConfiguration/asOf``) ends after
    /// that token's transaction, as the store it shows does.
    ///
    /// - Parameter token: The token of the last transaction already seen, or `nil` to start
    ///   with the first transaction of the store.
    /// A container of several configurations has no one feed: iterating its feed throws
    /// ``LogbookError/Code/unsupported``. Follow each store's through
    /// ``container(forConfigurationNamed:)``.
    ///
    /// - Returns: The feed. Iterating it throws ``LogbookError/Code/historyDeleted`` for a
    ///   token before the horizon of a deleted history (or `nil` once history was deleted),
    ///   ``LogbookError/Code/invalidArgument`` for an
    ///   in-memory store or a token past the end of the log, ``LogbookError/Code/unsupported``
    ///   for a container of several configurations, and ``LogbookError/Code/corruption``
    ///   for damage in the log.
    public func changes(after token: DefaultHistoryToken?) -> HistoryChanges {
        HistoryChanges(
            reader: Result { () throws(LogbookError) in try historyReader() },
            log: store.log?.reader() ?? LogReader(directory: store.location),
            after: token,
            through: store.readLimit
        )
    }
}

/// The change feed of a store: every history transaction after a token, in order, as they are
/// saved. Made by ``ModelContainer/changes(after:)``.
///
/// ## Topics
///
/// ### Following the feed
/// - ``makeAsyncIterator()``
/// - ``Iterator``
/// - ``pollInterval``
public struct HistoryChanges: AsyncSequence, Sendable {
    public typealias Element = DefaultHistoryTransaction

    /// How long the feed waits, once it has read the whole log, before it looks again for
    /// batches appended by another process: 20 milliseconds. Saves in this process wake it at
    /// once. A look that finds nothing new reads one batch header where the last one stopped.
    public static let pollInterval: Duration = .milliseconds(20)

    let reader: Result<HistoryReader, LogbookError>
    let log: LogReader
    let after: DefaultHistoryToken?
    /// The last sequence number the feed delivers, for a container opened as of a token.
    let through: UInt64?

    /// An iterator that starts after the feed's token.
    public func makeAsyncIterator() -> Iterator {
        Iterator(feed: self, signal: SaveSignal.shared(for: log.directory))
    }

    /// Reads the feed's transactions, waiting for new ones once it has read the whole log.
    public struct Iterator: AsyncIteratorProtocol {
        private let feed: HistoryChanges
        private let signal: SaveSignal
        /// The token of the last transaction delivered.
        private var position: UInt64
        private var cursor: BatchCursor?
        /// Where the last cursor stopped at the end of the log: the next one goes on from there
        /// instead of finding its batch again from the start of the segment.
        private var resumePoint: BatchCursor.ResumePoint?
        private var started = false

        init(feed: HistoryChanges, signal: SaveSignal) {
            self.feed = feed
            self.signal = signal
            self.position = feed.after?.sequence ?? 0
        }

        /// The next transaction; waits for one when the log has no more yet.
        ///
        /// - Returns: The transaction, or `nil` once the task is cancelled or, for a container
        ///   opened as of a token, once that token's transaction was delivered.
        /// - Throws: ``LogbookError/Code/invalidArgument`` for an in-memory store or a token past
        ///   the end of the log; ``LogbookError/Code/corruption`` for damage in the log.
        public mutating func next() async throws -> DefaultHistoryTransaction? {
            let reader = try feed.reader.get()
            if !started {
                try checkStart()
                started = true
            }
            while !Task.isCancelled {
                let generation = signal.generation
                var open = cursor ?? feed.log.batches(after: position, resumingAt: resumePoint)
                let batch = try open.next()
                cursor = open
                if let batch {
                    guard batch.lastSequence > position else { continue }
                    if let last = feed.through, batch.firstSequence > last { return nil }
                    position = batch.lastSequence
                    return try reader.transaction(of: batch)
                }
                if let last = feed.through, position >= last { return nil }
                // At the end of the log: a cursor made again later sees new segments too.
                resumePoint = open.resumePoint ?? resumePoint
                cursor = nil
                await signal.wait(after: generation, timeout: HistoryChanges.pollInterval)
            }
            return nil
        }

        /// Refuses a token before the horizon of a deleted history, or past the end of the log.
        private func checkStart() throws {
            let horizon = try feed.log.horizon()
            if let horizon, position < horizon {
                throw LogbookError.historyDeleted(after: position, horizon: horizon, store: feed.log.directory)
            }
            // The horizon's token ends the base's last batch: it exists.
            guard position > 0, position != horizon else { return }
            var probe = feed.log.batches(from: position)
            if try probe.next() == nil {
                throw LogbookError(
                    .invalidArgument,
                    "history token \(position) is past the end of the log: no transaction of this store has reached it",
                    path: feed.log.directory,
                    sequence: position
                )
            }
        }
    }
}
