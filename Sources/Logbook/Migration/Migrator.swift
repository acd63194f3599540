import Foundation

/// Brings a store written at an earlier version of a migration plan up to the models' version.
///
/// Old events are never rewritten. Lightweight changes are applied while replaying: the
/// projection finds renamed attributes by their former names, drops removed ones, and folds
/// objects whose newly unique values collide. Each stage appends one batch: the events its
/// custom closures saved (`willMigrate`'s at the old version, `didMigrate`'s at the new one),
/// the record of the new schema, and a marker. A crash before a stage's batch is complete
/// leaves the store at the old version, and the next open runs the stage again from the start;
/// once the batch is there, replays go through it and the closures never run again.
struct Migrator {
    let plan: MigrationPlanChain
    let store: Store
    /// Whether the store is kept in a database server whose migration lock this container
    /// does not hold: a migration it finds needed throws ``MigrationLockNeeded`` instead of
    /// running, and the container opens again under the lock.
    var lockNeeded = false

    /// Migrates the store, which was opened without replaying, or replays it when it is at the
    /// models' version already.
    ///
    /// Two cores share the work. This thread replays the log at the models' schema: the state
    /// of the store either way, since lightweight changes apply while replaying and the stages'
    /// batches follow the log. Meanwhile another thread finds the schemas the log recorded, and
    /// runs the stages when the latest one is an earlier version. It decompresses only the
    /// batches that may hold a schema record (all of a format 1 log, a handful of a format 2
    /// one), so a store at the models' version is read once, not once for its schemas and again
    /// for its state.
    ///
    /// A store whose newest checkpoint is at the models' schema is almost surely at the models'
    /// version: its open loads the checkpoint and replays only what follows, and the scan of
    /// every batch header would cost that open more than it could save. The scan then does not
    /// start; should the open end at an earlier version after all (the checkpoint was ignored),
    /// the stages run once the replay has found the schemas.
    func migrate() throws {
        guard let log = store.log else { return }
        // The stages' stores live in that thread's memory and are freed by yet another, off
        // this thread's path and out of its allocator's way.
        let leftovers = Leftovers()
        // The replay decodes ahead on the second core until the stages need it.
        let decodingAhead = InsertPredecoder.Switch()
        let checkpointAtModels =
            CheckpointFiles.newestSchemaFingerprint(in: log.directory, syscalls: log.configuration.syscalls)
            .map { Schema.Fingerprint(bytes: $0).hexString == store.fingerprint } ?? false
        let scan: BackgroundWork<[[EventEnvelope]]>? =
            checkpointAtModels
            ? nil
            : BackgroundWork { [self] () throws -> [[EventEnvelope]] in
                let records = try RecordedSchemas.scan(log.reader())
                guard let latest = records.last, latest.fingerprint != store.fingerprint else { return [] }
                decodingAhead.turnOff()
                let start = try startIndex(latest)
                let lastNumber = records.map(\.number).max() ?? 0
                return try stageBatches(from: start, after: lastNumber, reader: log.reader(), leftovers: leftovers)
            }
        let final: Store
        do {
            final = try Store(
                capturing: plan.current,
                history: plan.history,
                reader: log.reader(),
                pending: [],
                logger: store.logger,
                decodingAhead: .until(decodingAhead),
                checkpointsOf: log
            )
        } catch {
            _ = try? scan?.value()
            throw error
        }
        guard let latest = final.replayed.latest, latest.fingerprint != store.fingerprint else {
            // At the models' version already (or empty): nothing for the stages to do.
            _ = try scan?.value()
            store.adopt(final)
            return
        }
        let start: Int
        do {
            start = try startIndex(latest)
            if lockNeeded { throw MigrationLockNeeded(from: latest.version, to: plan.current.version) }
        } catch {
            _ = try? scan?.value()
            throw error
        }
        // Without the scan, the stages start now, from the schemas the replay found, on a
        // thread of their own as they would have (they run the app's closures).
        let lastNumber = final.replayed.numbers.values.max() ?? 0
        let stages =
            scan
            ?? BackgroundWork { [self] () throws -> [[EventEnvelope]] in
                try stageBatches(from: start, after: lastNumber, reader: log.reader(), leftovers: leftovers)
            }
        // While the stages still run, find the objects that lack mandatory values so far.
        let gaps = final.read { state in
            MandatoryValues.scan(
                state.projection,
                skipping: MandatoryValues.alwaysPresent(
                    in: state.projection,
                    plan: plan,
                    recorded: final.replayed.numbers.keys
                )
            )
        }
        let batches = try stages.value()
        leftovers.dropInBackground()
        let pending = batches.flatMap { $0 }
        try final.replay(pending: pending)
        try checkMandatoryAttributes(in: final, gaps: gaps, after: pending, from: start)
        try store.appendMigration(batches, final: final)
        store.startCheckpointAfterMigration()
        store.logger.info(
            "migrated the store",
            metadata: [
                "from": "\(plan.schemas[start].version)", "to": "\(plan.current.version)", "stages": "\(batches.count)",
            ]
        )
    }

    /// Where the store is in the plan.
    func startIndex(_ latest: Event.SchemaRecord) throws -> Int {
        guard let index = plan.index(ofFingerprint: latest.fingerprint) else {
            if latest.version > plan.current.version {
                throw LogbookError(
                    .schemaMismatch,
                    "the store was written by a newer version of the app: its schema \(latest.version) is newer than the models' \(plan.current.version) and not in \(plan.planName)",
                    path: store.location
                )
            }
            throw LogbookError(
                .schemaMismatch,
                "the store's schema \(latest.version) (fingerprint \(latest.fingerprint.prefix(12))) is not one of the versions of \(plan.planName)"
                    + closestVersion(to: latest.schema),
                path: store.location
            )
        }
        guard index <= plan.currentIndex else {
            throw LogbookError(
                .schemaMismatch,
                "the store is at version \(latest.version), newer than the models' version \(plan.current.version): it was written by a newer version of the app",
                path: store.location
            )
        }
        return index
    }

    /// Which of the plan's versions a schema the plan does not list is closest to, and how
    /// they differ, one change a line: what a developer needs to find the version they forgot.
    private func closestVersion(to schema: Schema) -> String {
        let differences = plan.schemas.map { SchemaDifference(from: schema, to: $0) }
        guard
            let closest = differences.indices.min(by: { differences[$0].changes.count < differences[$1].changes.count })
        else { return "" }
        let lines = differences[closest].changes.map { "\n- \($0)" }.joined()
        return "; the closest is version \(plan.schemas[closest].version), which differs from it by:\(lines)"
    }

    /// Runs each stage's closures against stores that capture their saves, and returns one
    /// batch per stage. The stages' stores and contexts go to `leftovers`, to be freed off the
    /// caller's path.
    private func stageBatches(
        from start: Int,
        after lastNumber: UInt32,
        reader: LogReader,
        leftovers: Leftovers
    ) throws -> [[EventEnvelope]] {
        var batches: [[EventEnvelope]] = []
        var lastNumber = lastNumber
        for index in start..<plan.currentIndex {
            let from = plan.schemas[index]
            let to = plan.schemas[index + 1]
            let earlier = batches.flatMap { $0 }
            var batch: [EventEnvelope] = []
            var isCustom = false
            if case .custom(let willMigrate, let didMigrate) = plan.stages[index] {
                isCustom = true
                if let willMigrate {
                    batch += try run(
                        willMigrate,
                        "willMigrate",
                        at: from,
                        history: Array(plan.schemas[..<index]),
                        reader,
                        earlier,
                        from,
                        to,
                        leftovers
                    )
                }
                lastNumber += 1
                batch.append(EventEnvelope.schemaRecord(to, number: lastNumber))
                if let didMigrate {
                    batch += try run(
                        didMigrate,
                        "didMigrate",
                        at: to,
                        history: Array(plan.schemas[..<(index + 1)]),
                        reader,
                        earlier + batch,
                        from,
                        to,
                        leftovers
                    )
                }
            } else {
                lastNumber += 1
                batch.append(EventEnvelope.schemaRecord(to, number: lastNumber))
            }
            let marker = Event.MigrationMarker(
                fromVersion: from.version,
                toVersion: to.version,
                fromFingerprint: from.fingerprint.hexString,
                toFingerprint: to.fingerprint.hexString,
                isCustom: isCustom
            )
            batch.append(EventEnvelope(schemaNumber: lastNumber, event: .migration(marker)))
            batches.append(batch)
        }
        return batches
    }

    // swift-format-ignore: ParameterCount
    private func run(
        _ closure: @Sendable (ModelContext) throws -> Void,
        _ name: String,
        at schema: Schema,
        history: [Schema],
        _ reader: LogReader,
        _ pending: [EventEnvelope],
        _ from: Schema,
        _ to: Schema,
        _ leftovers: Leftovers
    ) throws -> [EventEnvelope] {
        let stageStore = try Store(
            capturing: schema,
            history: history,
            reader: reader,
            pending: pending,
            logger: store.logger
        )
        let context = ModelContext(ModelContainer(store: stageStore))
        leftovers.keep(context)
        do {
            let key = StoreRegistry.key(for: URL(fileURLWithPath: store.location))
            try StoreRegistry.$storeInMigration.withValue(key) { try closure(context) }
            if context.hasChanges { try context.save() }
        } catch {
            throw LogbookError(
                .migrationFailed,
                "\(name) of the stage from \(from.version) to \(to.version) failed; the store is left at \(from.version)",
                path: store.location,
                cause: SendableDescription(error)
            )
        }
        return stageStore.captured
    }

    /// Refuses a migration that would leave a non-optional attribute without a value.
    ///
    /// - Parameter gaps: What ``MandatoryValues/scan(_:)`` found before `pending` was applied.
    private func checkMandatoryAttributes(
        in final: Store,
        gaps: MandatoryValues,
        after pending: [EventEnvelope],
        from start: Int
    ) throws {
        let first = final.read { gaps.rechecked(in: $0.projection, after: pending).first(in: $0.projection) }
        guard let first else { return }
        throw LogbookError(
            .migrationFailed,
            "\(first.entity).\(first.attribute) is not optional and has no default, but \(first.count) object(s) would have no value after migrating from \(plan.schemas[start].version) to \(plan.current.version) (missing attribute values on mandatory destination attribute); make it optional, give it a default, or set it in a custom stage's didMigrate",
            path: store.location
        )
    }
}

extension EventEnvelope {
    /// The record of a schema, as a migration stage writes it.
    static func schemaRecord(_ schema: Schema, number: UInt32) -> EventEnvelope {
        EventEnvelope(
            schemaNumber: number,
            event: .schema(
                .init(
                    number: number,
                    version: schema.version,
                    fingerprint: schema.fingerprint.hexString,
                    schema: schema
                )
            )
        )
    }
}

/// An error reduced to its description, so that any error a closure throws can be kept as the
/// `Sendable` cause of a ``LogbookError``.
struct SendableDescription: Error, Sendable, CustomStringConvertible {
    let description: String

    init(_ error: any Error) {
        description = String(describing: error)
    }
}

/// Thrown by a migration of a store kept in a database server that is needed while the
/// container does not hold the store's migration lock (``ExternalLog/withMigrationLock(_:)``).
struct MigrationLockNeeded: Error {
    /// The store's version.
    let from: Schema.Version
    /// The models' version.
    let to: Schema.Version
}
