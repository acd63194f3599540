// Unique constraints across the tables of a model hierarchy.
//
// Each entity of a hierarchy has a table of its own, with unique indexes of its own. A unique
// constraint declared on an entity with subentities holds across the tables of that entity and
// of all its subentities, as Core Data and SwiftData hold a parent entity's constraint across
// its hierarchy: each table's index answers for its own objects, and an insert or an update
// also asks the indexes of the other tables the constraint spans.

extension Projection {
    /// A unique constraint a table shares with other tables of its model hierarchy: one
    /// declared on an entity with subentities, which every table of that entity and of its
    /// subentities (at every depth) inherits.
    package struct SharedUnique: Hashable, Sendable {
        /// The constrained attributes' names: one for `.unique`, several for `#Unique`.
        package var names: [String]
        /// The other tables the constraint spans.
        package var tables: [Int]
    }

    /// The table among `table` and the other tables of its hierarchy that holds the live
    /// object `id`: an object that an upsert merged into an object of another class is found
    /// under that class, where later events that name the inserted class look for it.
    @inline(__always)
    func homeTable(_ table: Int, _ id: UInt64) -> Int? {
        if contains(table, id) { return table }
        if hierarchyTables[table].isEmpty { return nil }
        return hierarchyTables[table].first { contains($0, id) }
    }

    /// The live object of another table of the hierarchy that holds one of the values of the
    /// shared unique constraints in `slot` of `table`, other than `id`; `nil` when none does,
    /// or when a constraint is not in force (an event written before its schema added it).
    func crossHolder(_ table: Int, slot: Int, excluding id: UInt64) -> (table: Int, id: UInt64)? {
        for shared in sharedUniques[table] {
            guard let attributes = inForce(shared.names, in: table) else { continue }
            var key: [AttributeValue] = []
            for attribute in attributes {
                let value = tables[table].value(slot, attribute)
                if value == .null { break }
                key.append(value)
            }
            guard key.count == attributes.count else { continue }
            for other in shared.tables {
                guard let others = inForce(shared.names, in: other) else { continue }
                let holder: UInt64?
                if others.count == 1 {
                    holder = uniqueHolder(other, attribute: others[0], key[0]).flatMap { $0 }
                } else {
                    holder = tables[other].compositeHolder(others, key)
                }
                if let holder, holder != id { return (other, holder) }
            }
        }
        return nil
    }

    /// The indexes in `table` of the attributes `names`, when the table keeps a unique index
    /// of them.
    private func inForce(_ names: [String], in table: Int) -> [Int]? {
        var attributes: [Int] = []
        for name in names {
            guard let attribute = tables[table].attributeIndex[name] else { return nil }
            attributes.append(attribute)
        }
        if attributes.count == 1 {
            return tables[table].uniqueAttributes.contains(attributes[0]) ? attributes : nil
        }
        return tables[table].hasCompositeUnique(attributes) ? attributes : nil
    }

    /// Folds the live object `id` of `table` into `survivor`, an object of another table of the
    /// hierarchy: the attributes `written` (all when `nil`) are copied by name to the survivor
    /// where its class has them, the relationships move to the survivor's of the same name
    /// (to-many ones united, a set to-one replacing the survivor's), and `id` becomes an alias
    /// of the survivor. The survivor keeps its class: the values of properties its class does
    /// not have stay in the log's events, not in the object.
    mutating func foldAcross(
        _ table: Int,
        _ id: UInt64,
        _ slot: Int,
        into survivorTable: Int,
        _ survivor: UInt64,
        written: [Int]? = nil
    ) {
        guard let kept = self.slot(survivorTable, survivor) else { return }
        let source = tables[table].entity
        let folded = source.relationships.indices.map { tables[table].targets(slot, $0) }
        for (relationship, targets) in folded.enumerated() {
            for target in targets { disconnect(table, id, relationship, target) }
        }
        tables[table].unindex(id, slot: slot)
        tables[survivorTable].unindex(survivor, slot: kept)
        for attribute in written ?? Array(source.attributes.indices) {
            guard let target = tables[survivorTable].attributeIndex[source.attributes[attribute].name] else { continue }
            tables[survivorTable].setValue(tables[table].value(slot, attribute), kept, target)
        }
        free(table, id, slot: slot)
        tables[survivorTable].index(survivor, slot: kept)
        for (relationship, targets) in folded.enumerated() {
            guard let same = tables[survivorTable].relationship(named: source.relationships[relationship].name) else {
                continue
            }
            for target in targets { connect(survivorTable, survivor, same, target) }
        }
        alias(id, to: survivor)
        foldCounts[table] += 1
    }

    /// Indexes every live object of the `changed` tables again, oldest first across the tables
    /// of each hierarchy, folding each into an older one that holds one of its unique values,
    /// in its own table or in another: what ``enforceConstraints(of:)`` does within a table,
    /// across the tables a shared constraint spans. The oldest object keeps its identifier and
    /// its class; the values of the newest win.
    mutating func foldAcrossHierarchies(_ changed: [Int]) {
        guard !changed.isEmpty else { return }
        var objects: [(id: UInt64, table: Int)] = []
        for table in changed {
            objects += tables[table].liveObjectsByAge.map { ($0.id, table) }
        }
        objects.sort { $0.id < $1.id }
        for object in objects {
            guard let slot = self.slot(object.table, object.id) else { continue }
            tables[object.table].unindex(object.id, slot: slot)
            if let holder = tables[object.table].indexUnlessTaken(object.id, slot: slot) {
                fold(object.table, object.id, slot, into: holder)
            } else if let holder = crossHolder(object.table, slot: slot, excluding: object.id) {
                // Every object indexed so far is older.
                foldAcross(object.table, object.id, slot, into: holder.table, holder.id)
            }
        }
    }

    // MARK: - Building

    /// For each table, the tables of its entity's subentities at every depth, nearest first.
    static func subentityTables(of schema: Schema, _ byName: [String: Int]) -> [[Int]] {
        var children = Array(repeating: [Int](), count: schema.entities.count)
        for (index, entity) in schema.entities.enumerated() {
            guard let superName = entity.superentityName, let parent = byName[superName], parent != index else {
                continue
            }
            children[parent].append(index)
        }
        return children.indices.map { table in
            var found: [Int] = []
            var queue = children[table]
            while !queue.isEmpty {
                let next = queue.removeFirst()
                guard next != table, !found.contains(next) else { continue }
                found.append(next)
                queue += children[next]
            }
            return found
        }
    }

    /// For each table, the other tables of its hierarchy.
    static func hierarchyTableLists(of schema: Schema, _ byName: [String: Int], _ subentities: [[Int]]) -> [[Int]] {
        schema.entities.indices.map { table in
            let root = byName[schema.rootEntityName(of: schema.entities[table].name)] ?? table
            return ([root] + subentities[root]).filter { $0 != table }
        }
    }

    /// For each table, its unique constraints that an entity with subentities declares, each
    /// with the other tables it spans: those of the highest entity above the table (or the
    /// table's own) that declares it, and of its subentities.
    static func sharedUniqueLists(
        of schema: Schema,
        _ byName: [String: Int],
        _ subentities: [[Int]]
    ) -> [[SharedUnique]] {
        func constraints(of entity: Schema.Entity) -> [[String]] {
            entity.attributes.filter(\.isUnique).map { [$0.name] } + entity.uniquenessConstraints
        }
        return schema.entities.indices.map { table in
            let entity = schema.entities[table]
            guard entity.superentityName != nil || !subentities[table].isEmpty else { return [] }
            var chain: [Int] = [table]
            var current = entity
            while let superName = current.superentityName, let parent = byName[superName], !chain.contains(parent) {
                chain.append(parent)
                current = schema.entities[parent]
            }
            return constraints(of: entity).compactMap { names in
                let declaring = chain.last { ancestor in
                    constraints(of: schema.entities[ancestor]).contains { Set($0) == Set(names) }
                }
                guard let declaring else { return nil }
                let spanned = ([declaring] + subentities[declaring]).filter { $0 != table }
                return spanned.isEmpty ? nil : SharedUnique(names: names, tables: spanned)
            }
        }
    }
}
