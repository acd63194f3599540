import Foundation

extension ModelContext {
    /// Whether other entities inherit from `T`'s, so that a fetch of `T` reads their tables too.
    func hasSubentities<T: PersistentModel>(_: T.Type) -> Bool {
        withMapping(for: T.self) { !$0.subentityNames.isEmpty }
    }

    /// A fetch of a model type that other model types inherit from: the objects of its own
    /// table and of the tables of every entity below it, each made as its own class, matched,
    /// sorted and cut as the descriptor says.
    ///
    /// The predicate is evaluated on the objects, and the sort made on them: the stored-value
    /// shortcuts of a fetch of one table do not apply across tables. Objects come in the order
    /// of their identifiers before the descriptor's sort, those inserted since the last save
    /// last, so that the same store gives the same order in memory and on disk.
    ///
    /// - Complexity: O(*n* log *n*) in the number of objects of the hierarchy, each made into
    ///   an object.
    func fetchAcrossHierarchy<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
        refreshIfStoreChanged()
        let names = withMapping(for: T.self) { [$0.entityName] + $0.subentityNames }
        var stored: [T] = []
        var pending: [T] = []
        for name in names {
            guard let type = store.schema.modelType(forEntity: name) else { continue }
            let (fromTable, inserted) = try ownModels(type, includePendingChanges: descriptor.includePendingChanges)
            stored += fromTable.compactMap { $0 as? T }
            pending += inserted.compactMap { $0 as? T }
        }
        stored.sort { ($0.storedIdentifier ?? 0) < ($1.storedIdentifier ?? 0) }
        var models = stored + pending
        if let predicate = descriptor.predicate {
            models = try models.filter { try predicate.evaluate($0) }
        }
        if !descriptor.sortBy.isEmpty { models.sort(using: descriptor.sortBy) }
        let offset = min(max(descriptor.fetchOffset ?? 0, 0), models.count)
        let end = descriptor.fetchLimit.map { min(models.count, offset + max($0, 0)) } ?? models.count
        return offset == 0 && end == models.count ? models : Array(models[offset..<end])
    }

    /// The objects of one entity's own table (not of the entities below it), registered or
    /// made from their rows, without those marked for deletion when pending changes count;
    /// and the objects of exactly that class inserted since the last save, when they count.
    private func ownModels(
        _ type: any PersistentModel.Type,
        includePendingChanges: Bool
    ) throws -> (stored: [any PersistentModel], inserted: [any PersistentModel]) {
        func open<U: PersistentModel>(_: U.Type) throws -> ([any PersistentModel], [any PersistentModel]) {
            let mapping = mapping(for: U.self)
            let table = store.read { $0.projection.tables[mapping.table] }
            var stored: [any PersistentModel] = []
            var values: [AttributeValue] = []
            try table.values.withUnsafeBufferPointer { rows in
                for (id, slot) in table.identifiersInOrder() {
                    let model = try materialize(
                        U.self,
                        id,
                        slot: slot,
                        of: rows,
                        width: table.width,
                        mapping: mapping,
                        values: &values
                    )
                    stored.append(model)
                }
            }
            guard includePendingChanges else { return (stored, []) }
            if !deleted.isEmpty { stored.removeAll { deleted[ObjectIdentifier($0)] != nil } }
            let inserted = self.inserted.models.filter { Swift.type(of: $0) == U.self }
            return (stored, inserted)
        }
        return try open(type)
    }
}

extension ModelContext {
    /// ``materializeRelated(_:of:table:relationship:into:)`` for a relationship whose
    /// destination has subentities: each target is in the table of its own entity, and is made
    /// as an object of that entity's class.
    ///
    /// - Complexity: O(*n*) lookups of a table and an object, for *n* targets.
    func materializeRelatedInHierarchy(
        of id: UInt64,
        table: Int,
        relationship: Int,
        into models: inout [AnyObject]
    ) {
        let targets = store.read { state -> [(id: UInt64, entity: String)] in
            let projection = state.projection
            let link = projection.links[table][relationship]
            return projection.targets(table, id, relationship).compactMap { target in
                guard let destination = projection.destination(of: link, holding: target) else { return nil }
                return (target, projection.schema.entities[destination.table].name)
            }
        }
        for target in targets {
            guard let type = store.schema.modelType(forEntity: target.entity),
                let model = madeOrLogged({ try materialize(type, target.id) }) ?? nil
            else { continue }
            models.append(model)
        }
    }
}

extension ModelContext {
    /// The object `survivor` is, when a save merged `model` into an object of another class of
    /// its hierarchy: the context's registered object, brought up to date, or one made for it.
    /// `nil` when the survivor is of `model`'s own class.
    func survivor(_ survivor: UInt64, ofAnotherClassThan model: any PersistentModel) -> (any PersistentModel)? {
        let table = mapping(of: model).table
        let entity = store.read { state -> String? in
            let projection = state.projection
            guard !projection.contains(table, survivor), let home = projection.homeTable(table, survivor) else {
                return nil
            }
            return projection.schema.entities[home].name
        }
        guard let entity, let type = store.schema.modelType(forEntity: entity) else { return nil }
        if let existing = registry[survivor], existing !== model {
            reload(existing)
            return existing
        }
        return madeOrLogged { try materialize(type, survivor) } ?? nil
    }
}
