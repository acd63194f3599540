/// A migration plan checked and laid out: its schemas in order, and for each consecutive pair
/// the stage that connects them.
struct MigrationPlanChain {
    /// The plan's schemas, oldest first.
    let schemas: [Schema]
    /// `stages[i]` goes from `schemas[i]` to `schemas[i + 1]`.
    let stages: [Stage]
    /// The index of the models' schema in ``schemas``.
    let currentIndex: Int
    let planName: String

    var current: Schema { schemas[currentIndex] }
    var history: [Schema] { Array(schemas[..<currentIndex]) }

    /// Checks a plan against the models' schema.
    ///
    /// - Throws: ``SchemaError`` when the models' schema or one of the plan's versions has a
    ///   problem; ``LogbookError/Code/schemaMismatch`` when the models' schema is none of the
    ///   plan's versions (models changed without a new `VersionedSchema`), when two versions
    ///   have the same models, or when the stages do not connect the versions in order.
    init(_ plan: any SchemaMigrationPlan.Type, current: Schema) throws {
        planName = String(describing: plan)
        try current.checkProblems()
        let versioned = plan.schemas
        let schemas = versioned.map { Schema(versionedSchema: $0) }
        for schema in schemas { try schema.checkProblems() }
        let names = versioned.map { String(describing: $0) }
        var seen: [Schema.Fingerprint: String] = [:]
        for (index, schema) in schemas.enumerated() {
            if let other = seen.updateValue(names[index], forKey: schema.fingerprint) {
                throw LogbookError(
                    .schemaMismatch,
                    "\(other) and \(names[index]) in \(planName) declare the same models; each version must change something"
                )
            }
        }
        guard let currentIndex = schemas.firstIndex(where: { $0.fingerprint == current.fingerprint }) else {
            let listed = zip(names, schemas).map { "\($0) \($1.version)" }.joined(separator: ", ")
            let newest = schemas.indices.max { schemas[$0].version < schemas[$1].version }
            let changes = newest.map { index in
                let lines = SchemaDifference(from: schemas[index], to: current).changes.map { "\n- \($0)" }
                return lines.isEmpty ? "" : "\nThey differ from \(names[index]) by:" + lines.joined()
            }
            throw LogbookError(
                .schemaMismatch,
                "the models' schema (fingerprint \(current.fingerprint.hexString.prefix(12))) is none of the versions of \(planName) (\(listed)): the models changed without a new VersionedSchema; add one for them to the plan, with a stage from the previous version"
                    + (changes ?? "")
            )
        }
        var stages: [Stage] = []
        let identifiers = versioned.map { ObjectIdentifier($0) }
        for index in 0..<max(0, schemas.count - 1) {
            let matching = plan.stages.filter {
                ObjectIdentifier($0.fromVersion) == identifiers[index]
                    && ObjectIdentifier($0.toVersion) == identifiers[index + 1]
            }
            guard matching.count == 1 else {
                throw LogbookError(
                    .schemaMismatch,
                    matching.isEmpty
                        ? "the stages of \(planName) do not chain: no stage goes from \(names[index]) (\(schemas[index].version)) to \(names[index + 1]) (\(schemas[index + 1].version))"
                        : "the stages of \(planName) do not chain: \(matching.count) stages go from \(names[index]) to \(names[index + 1])"
                )
            }
            stages.append(Stage(matching[0]))
        }
        for stage in plan.stages {
            let from = identifiers.firstIndex(of: ObjectIdentifier(stage.fromVersion))
            let to = identifiers.firstIndex(of: ObjectIdentifier(stage.toVersion))
            guard let from, let to, to == from + 1 else {
                throw LogbookError(
                    .schemaMismatch,
                    "the stages of \(planName) do not chain: a stage goes from \(String(describing: stage.fromVersion)) to \(String(describing: stage.toVersion)), which are not consecutive versions of the plan"
                )
            }
        }
        self.schemas = schemas
        self.stages = stages
        self.currentIndex = currentIndex
    }

    /// The chain of a store opened without a plan, whose latest recorded schema differs from the
    /// models' only by changes replay applies by itself: one lightweight stage, from the latest
    /// recorded schema to the models'.
    ///
    /// - Parameters:
    ///   - recorded: The schemas the store recorded, in log order; the last is its latest.
    ///   - current: The models' schema.
    init(automaticFrom recorded: [Schema], to current: Schema) {
        planName = "the automatic migration"
        var seen: Set<Schema.Fingerprint> = [current.fingerprint]
        var earlier: [Schema] = []
        // Every recorded schema once, at its last record, so that names changed several
        // automatic migrations ago are still found and the one stage starts at the latest.
        for schema in recorded.reversed() where seen.insert(schema.fingerprint).inserted {
            earlier.insert(schema, at: 0)
        }
        schemas = earlier + [current]
        stages = Array(repeating: .lightweight, count: earlier.count)
        currentIndex = earlier.count
    }

    /// The index of the plan's version with this fingerprint.
    func index(ofFingerprint fingerprint: String) -> Int? {
        schemas.firstIndex { $0.fingerprint.hexString == fingerprint }
    }
}

extension MigrationPlanChain {
    /// What a stage of the chain does besides recording the new schema.
    enum Stage {
        /// Nothing: replay applies the changes.
        case lightweight
        /// Runs the closures of a custom stage.
        case custom(
            willMigrate: (@Sendable (ModelContext) throws -> Void)?,
            didMigrate: (@Sendable (ModelContext) throws -> Void)?
        )

        init(_ stage: MigrationStage) {
            switch stage {
            case .lightweight: self = .lightweight
            case .custom(_, _, let willMigrate, let didMigrate):
                self = .custom(willMigrate: willMigrate, didMigrate: didMigrate)
            }
        }
    }
}
