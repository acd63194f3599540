import Foundation

extension ModelContext {
    /// The transactions of the store's history that a descriptor selects: every save, with its
    /// token, author, time and changes.
    ///
    /// ```swift
    /// let descriptor = HistoryDescriptor<DefaultHistoryTransaction>(
    ///     predicate: #Predicate { $0.token > lastSeen })
    /// for transaction in try context.fetchHistory(descriptor) {
    ///     for case .update(let update as DefaultHistoryUpdate<Trip>) in transaction.changes {
    ///         print(update.changedPersistentIdentifier, update.value(for: \.destination) ?? "")
    ///     }
    ///     lastSeen = transaction.token
    /// }
    /// ```
    ///
    /// The history is read from the log, where every save is one batch. Changes are reported as
    /// the container's model types; events written at an older schema version are read as
    /// replay reads them (renamed attributes under their new names, removed ones left out), and
    /// changes to entities the container has no model type for are left out. After
    /// ``deleteHistory(_:)``, the transactions that remain are those after the horizon.
    ///
    /// - Parameter descriptor: Which transactions, in which order, how many.
    /// - Returns: The transactions, oldest first unless the descriptor sorts them.
    /// A context of a container of several configurations has no one history: each store
    /// numbers its own transactions, so a token would not say which store it belongs to. Read
    /// each store's history through ``ModelContainer/container(forConfigurationNamed:)``.
    ///
    /// - Throws: ``LogbookError/Code/invalidArgument`` for an in-memory store, which keeps no
    ///   history, or a predicate that reads a transaction's `changes`;
    ///   ``LogbookError/Code/unsupported`` for a context of a container of several
    ///   configurations;
    ///   ``LogbookError/Code/corruption`` naming the segment and offset of damage in the log.
    /// - Complexity: O(*n*) in the size of the log: each batch's header is read, and the
    ///   batches the predicate keeps are decoded.
    public func fetchHistory(
        _ descriptor: HistoryDescriptor<DefaultHistoryTransaction>
    ) throws -> [DefaultHistoryTransaction] {
        let reader = try historyReader()
        if let predicate = descriptor.predicate { try HistoryPredicateCheck.check(predicate, store: store.location) }
        let limit = descriptor.sortBy.isEmpty ? descriptor.fetchLimit : nil
        var transactions: [DefaultHistoryTransaction] = []
        let log = store.log?.reader() ?? LogReader(directory: store.location)
        // After a deleted history, what remains: the transactions after the horizon.
        var cursor = log.batches(from: (try log.horizon() ?? 0) + 1)
        while let batch = try cursor.next() {
            if let limit, transactions.count >= limit { break }
            // A store opened as of a token has no history after it.
            if let last = store.readLimit, batch.firstSequence > last { break }
            if let predicate = descriptor.predicate {
                guard try predicate.evaluate(try reader.header(of: batch)) else { continue }
            }
            transactions.append(try reader.transaction(of: batch))
        }
        if !descriptor.sortBy.isEmpty { transactions.sort(using: descriptor.sortBy) }
        if let fetchLimit = descriptor.fetchLimit, transactions.count > fetchLimit {
            transactions.removeSubrange(max(fetchLimit, 0)...)
        }
        return transactions
    }

    /// The reader of this context's store's history.
    func historyReader() throws(LogbookError) -> HistoryReader {
        try container.historyReader()
    }
}

extension ModelContainer {
    /// The reader of the store's history, as this container's model types.
    ///
    /// - Throws: ``LogbookError/Code/invalidArgument`` for an in-memory store;
    ///   ``LogbookError/Code/unsupported`` for a container of several configurations.
    func historyReader() throws(LogbookError) -> HistoryReader {
        guard parts.isEmpty else {
            throw LogbookError(
                .unsupported,
                "this container keeps its models in several stores (configurations \(parts.map(\.configurationDescription).joined(separator: ", "))), each with its own history and tokens: read the history of one with container(forConfigurationNamed:)"
            )
        }
        guard store.reader != nil else {
            throw LogbookError(
                .invalidArgument,
                "an in-memory store keeps no history: open the container with ModelConfiguration(url:) to read its transactions"
            )
        }
        return HistoryReader(schema: schema, history: store.history, storeIdentifier: store.location)
    }
}

/// Refuses a history predicate that reads anything but what a transaction's header holds.
enum HistoryPredicateCheck {
    /// The properties a predicate may read, by name.
    private static var allowed: [(PartialKeyPath<DefaultHistoryTransaction>, String)] {
        [
            (\.token, "token"), (\.transactionIdentifier, "transactionIdentifier"), (\.timestamp, "timestamp"),
            (\.author, "author"), (\.storeIdentifier, "storeIdentifier"), (\.id, "id"),
        ]
    }

    /// - Throws: ``LogbookError/Code/invalidArgument`` naming the property read.
    static func check(_ predicate: Predicate<DefaultHistoryTransaction>, store: String) throws(LogbookError) {
        var found: [AnyKeyPath] = []
        collectKeyPaths(Mirror(reflecting: predicate.expression), into: &found, depth: 0)
        for keyPath in found where keyPath is PartialKeyPath<DefaultHistoryTransaction> {
            guard !allowed.contains(where: { $0.0 == keyPath }) else { continue }
            let name = keyPath == \DefaultHistoryTransaction.changes ? "changes" : "\(keyPath)"
            throw LogbookError(
                .invalidArgument,
                "a history predicate may read a transaction's token, transactionIdentifier, timestamp, author and storeIdentifier, not its \(name)",
                path: store
            )
        }
    }

    /// The key paths anywhere in a predicate's expression tree, found by reflection: the
    /// expressions are public types whose stored properties are their operands.
    private static func collectKeyPaths(_ mirror: Mirror, into found: inout [AnyKeyPath], depth: Int) {
        guard depth < 64 else { return }
        for child in mirror.children {
            if let keyPath = child.value as? AnyKeyPath {
                found.append(keyPath)
            } else {
                collectKeyPaths(Mirror(reflecting: child.value), into: &found, depth: depth + 1)
            }
        }
    }
}
