extension ModelContainer {
    /// Opens the store of a configuration that does not allow saving, or that reads as of a
    /// token: without the writer's lock, writing nothing, replaying the log as it is (up to
    /// the token).
    ///
    /// - Throws: ``LogbookError/Code/notAStore`` when there is no store at the configuration's
    ///   URL (a read-only container creates none); ``LogbookError/Code/schemaMismatch`` when
    ///   the store's latest schema (at the token) is not the models'; for a token,
    ///   ``LogbookError/Code/invalidArgument`` when it is past the end of the log or not the
    ///   end of a transaction.
    static func openReadOnly(
        _ schema: Schema,
        _ plan: MigrationPlanChain?,
        _ configuration: ModelConfiguration
    ) throws -> Store {
        var store = try Store(
            schema: plan?.current ?? schema,
            history: plan?.history ?? [],
            configuration: configuration
        )
        try store.checkReadOnlySchema()
        if plan == nil, store.replayed.numbers.count > 1 {
            // As a plain open does: names that changed two automatic migrations ago are found
            // only through the schemas in between.
            let chain = MigrationPlanChain(automaticFrom: store.replayed.schemas, to: schema)
            if schema.formerNames(through: chain.history) != schema.formerNames(through: []) {
                store = try Store(schema: schema, history: chain.history, configuration: configuration)
            }
        }
        if let token = configuration.asOf { try checkToken(token, of: store) }
        return store
    }

    /// Checks that a store opened as of `token` holds the log up to the end of its transaction.
    private static func checkToken(_ token: DefaultHistoryToken, of store: Store) throws(LogbookError) {
        let last = store.read { $0.projection.lastSequence }
        guard last >= token.sequence, token.sequence > 0 else {
            throw LogbookError(
                .invalidArgument,
                "the token \(token) is past the end of the store's log, whose last token is \(last)",
                path: store.location,
                sequence: token.sequence
            )
        }
        // The horizon of a deleted history ends the base's last batch.
        guard let reader = store.reader, try reader.horizon() != token.sequence else { return }
        var cursor = reader.batches(from: token.sequence)
        if let batch = try cursor.next(), batch.lastSequence != token.sequence {
            throw LogbookError(
                .invalidArgument,
                "the token \(token) does not end a transaction: the transaction holding it runs from \(batch.firstSequence) to \(batch.lastSequence), so its token is \(batch.lastSequence)",
                path: store.location,
                sequence: token.sequence
            )
        }
    }
}
