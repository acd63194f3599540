extension MigrationPlanChain {
    /// The chain of one store of a container of several configurations: each of the plan's
    /// schemas restricted to the entities the store holds, so that the store's recorded schema
    /// is compared with its part of the models.
    ///
    /// Versions that do not change the store's entities fold into one: a store of a catalogue
    /// goes through a plan whose versions change only the user's models without recording a
    /// new schema. Entities of older versions that no store holds today (removed since) stay
    /// with the store that holds the entities no configuration names, `keepsUnknown`.
    ///
    /// - Parameters:
    ///   - names: The entities the store holds, of the models' schema.
    ///   - keepsUnknown: Whether the store also holds the older versions' entities that no
    ///     store holds today.
    ///   - known: Every entity of the models' schema.
    /// - Throws: ``LogbookError/Code/unsupported`` when the plan has a custom stage: its
    ///   closures work on a context of all the models, which no one store has.
    func restricted(to names: Set<String>, keepsUnknown: Bool, known: Set<String>) throws -> MigrationPlanChain {
        for stage in stages {
            if case .custom = stage {
                throw LogbookError(
                    .unsupported,
                    "\(planName) has a custom stage, and its closures need a context of every model, while this container keeps its models in several stores: migrate each store with a container of its configuration alone, or use lightweight stages"
                )
            }
        }
        var kept: [Schema] = []
        var keptCurrent = 0
        for (index, schema) in schemas.enumerated() {
            let part = Set(
                schema.entities.map(\.name).filter { names.contains($0) || (keepsUnknown && !known.contains($0)) }
            )
            let restricted = Schema(restricting: schema, to: part)
            if let last = kept.last, last.fingerprint == restricted.fingerprint {
                // The same stored shape as the version before: no stage to run for this store.
                kept[kept.count - 1] = restricted
            } else {
                kept.append(restricted)
            }
            if index == currentIndex { keptCurrent = kept.count - 1 }
        }
        return MigrationPlanChain(
            schemas: kept,
            stages: Array(repeating: .lightweight, count: max(0, kept.count - 1)),
            currentIndex: keptCurrent,
            planName: planName
        )
    }

    /// A chain laid out already.
    private init(schemas: [Schema], stages: [Stage], currentIndex: Int, planName: String) {
        self.schemas = schemas
        self.stages = stages
        self.currentIndex = currentIndex
        self.planName = planName
    }
}
