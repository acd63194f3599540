extension ModelContainer {
    /// Opens, checks and replays the store of a configuration for a container made without a
    /// migration plan, migrating it automatically when the models changed only in ways replay
    /// applies by itself.
    ///
    /// The store is replayed at the models' schema first: the whole open when its latest
    /// recorded schema is the models'. Otherwise the ``SchemaDifference`` between the two
    /// decides. When every change is lightweight, the store is opened again and migrated as a
    /// plan's lightweight stage would migrate it: the models' schema and a migration marker are
    /// appended, and old events are read through the schemas the log recorded. When a change
    /// is not, the open is refused, listing those changes, and nothing is written.
    ///
    /// - Throws: ``LogbookError/Code/schemaMismatch`` when the store was written with models
    ///   that differ by a change that needs a migration plan, or with a newer version, or was
    ///   migrated from these models to others since.
    static func openWithoutPlan(_ schema: Schema, _ configuration: ModelConfiguration) throws -> Store {
        let store = try Store(schema: schema, history: [], configuration: configuration)
        guard let latest = store.replayed.latest else { return store }
        // Only the models' schema recorded: the common open, with nothing more to look at.
        if latest.fingerprint == store.fingerprint && store.replayed.numbers.count == 1 { return store }
        let chain = MigrationPlanChain(automaticFrom: store.replayed.schemas, to: schema)
        guard latest.fingerprint != store.fingerprint else {
            // Names that changed two automatic migrations ago are found only through the
            // schemas in between: replay again with them, in the rare store that needs it.
            guard schema.formerNames(through: chain.history) != schema.formerNames(through: []) else { return store }
            store.close()
            return try Store(schema: schema, history: chain.history, configuration: configuration)
        }
        do {
            // The models' schema recorded before the latest one: the store has moved past these
            // models, so this is older code. Migrating back would lift the newer models'
            // attributes and constraints from every later read.
            if store.replayed.numbers[store.fingerprint] != nil {
                throw LogbookError(
                    .schemaMismatch,
                    "the store was migrated past these models: its schema \(latest.version) (fingerprint \(latest.fingerprint.prefix(12))) was recorded after theirs, so this code is older than the store; open it with the newer models",
                    path: store.location
                )
            }
            try checkAutomaticMigration(from: latest, to: schema, location: store.location)
        } catch {
            store.close()
            throw error
        }
        store.close()
        let migrating = try Store(schema: schema, history: chain.history, configuration: configuration, replay: false)
        do {
            try Migrator(plan: chain, store: migrating, lockNeeded: configuration.needsMigrationLock).migrate()
        } catch {
            migrating.close()
            throw error
        }
        return migrating
    }

    /// Refuses to migrate a store automatically from a newer version, or across a change that
    /// needs a migration plan.
    private static func checkAutomaticMigration(
        from latest: Event.SchemaRecord,
        to schema: Schema,
        location: String
    ) throws {
        guard latest.version <= schema.version else {
            throw LogbookError(
                .schemaMismatch,
                "the store was written by a newer version of the app: its schema \(latest.version) is newer than the models' \(schema.version)",
                path: location
            )
        }
        let difference = SchemaDifference(from: latest.schema, to: schema)
        guard difference.isLightweight else {
            let changes = difference.refused.map { "\n- \($0)" }.joined()
            throw LogbookError(
                .schemaMismatch,
                "the store was written with models that differ from these by changes that need a migration plan (store schema \(latest.version), models \(schema.version)):\(changes)\nDeclare both as VersionedSchema types in a SchemaMigrationPlan, with a custom stage for these changes",
                path: location
            )
        }
    }
}
