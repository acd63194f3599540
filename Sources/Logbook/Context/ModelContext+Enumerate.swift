extension ModelContext {
    /// The models that match a descriptor, in its order, as a collection read batch by batch.
    ///
    /// ```swift
    /// let trips = try context.fetch(FetchDescriptor<Trip>(), batchSize: 500)
    /// ```
    ///
    /// The matches are fetched when the call is made, as ``fetch(_:)`` does: see
    /// ``FetchResultsCollection`` for how this differs from SwiftData.
    ///
    /// - Parameters:
    ///   - descriptor: Which models, in which order, how many.
    ///   - batchSize: The number of models in a batch.
    /// - Returns: The matching models.
    /// - Throws: See ``fetch(_:)``.
    /// - Precondition: `batchSize` is positive.
    /// - Complexity: As ``fetch(_:)``.
    public func fetch<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>,
        batchSize: Int
    ) throws -> FetchResultsCollection<T> {
        precondition(batchSize > 0, "fetch(_:batchSize:) needs a positive batch size, not \(batchSize)")
        return FetchResultsCollection(try fetch(descriptor))
    }

    /// Runs a closure for each model that matches a descriptor, in its order, a batch at a time.
    ///
    /// ```swift
    /// try context.enumerate(FetchDescriptor<Trip>(), batchSize: 1_000) { trip in
    ///     total += trip.bucketList?.count ?? 0
    /// }
    /// ```
    ///
    /// The matches are those of the descriptor when the call is made: models the block inserts
    /// are not enumerated, and a model the block marks for deletion is still passed to it when
    /// its turn comes, as SwiftData does.
    ///
    /// Unless `allowEscapingMutations` is `true`, the block must leave the context as it found
    /// it: when a batch ends with changes that were not there before the enumeration (the
    /// block changed, inserted or deleted a model and did not save), the enumeration stops
    /// there and throws, and the changes stay pending (``rollback()`` discards them).
    ///
    /// - Parameters:
    ///   - descriptor: Which models, in which order, how many.
    ///   - batchSize: The number of models between two checks for escaping mutations; 5,000
    ///     by default, as in SwiftData.
    ///   - allowEscapingMutations: Whether the block may leave unsaved changes behind.
    ///   - block: The closure run for each model.
    /// - Throws: What `block` or ``fetch(_:)`` throws; ``LogbookError`` with
    ///   ``LogbookError/Code/validationFailed``, naming the entity, when the block left
    ///   unsaved changes and `allowEscapingMutations` is `false`.
    /// - Precondition: `batchSize` is positive.
    /// - Complexity: As ``fetch(_:)``, plus the block's work.
    public func enumerate<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>,
        batchSize: Int = 5_000,
        allowEscapingMutations: Bool = false,
        block: (T) throws -> Void
    ) throws {
        precondition(batchSize > 0, "enumerate(_:batchSize:) needs a positive batch size, not \(batchSize)")
        let models = try fetch(descriptor)
        let hadChanges = hasChanges
        var start = 0
        while start < models.count {
            let end = min(start + batchSize, models.count)
            for model in models[start..<end] { try block(model) }
            if !allowEscapingMutations, !hadChanges, hasChanges {
                throw LogbookError(
                    .validationFailed,
                    "the block of enumerate(_:) left unsaved changes after \(end) of \(models.count) \(T.entityName) models; save them in the block, or pass allowEscapingMutations: true"
                )
            }
            start = end
        }
    }
}
