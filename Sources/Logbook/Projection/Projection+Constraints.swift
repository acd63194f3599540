extension Projection {
    /// Applies the unique constraints of a recorded schema to the events that follow its record.
    ///
    /// An event is replayed with the rules of the schema it was written at: events written at
    /// a version without a unique constraint never fold into each other, even when a later
    /// version adds the constraint. The constraint takes effect where the later version's
    /// schema record stands in the log, which is the boundary of the migration stage that
    /// introduced it: after the stage's `willMigrate` changes, before its `didMigrate` ones.
    /// There, the objects that still share a value fold by the upsert rule, as if each had been
    /// inserted again in the order of their identifiers: the oldest object keeps its
    /// identifier, the values of the newest win, to-many relationships are united, a set
    /// to-one relationship of a newer object replaces the older one's, and the newer
    /// identifiers become aliases of the survivor, so that every reference reaches it.
    ///
    /// Attributes are matched by their current and former names; entities the recorded schema
    /// does not have keep their constraints.
    ///
    /// - Complexity: O(1) for a schema whose constraints are already in force; otherwise
    ///   O(*n* log *n*) for the *n* objects of each entity that gains a constraint.
    package mutating func enforceConstraints(of recorded: Schema) {
        for table in tables.indices {
            guard let entity = recorded.entity(named: tables[table].entity.name) else { continue }
            var unique: [Int] = []
            for attribute in entity.attributes where attribute.isUnique {
                guard let index = tables[table].attributeIndex[attribute.name], !unique.contains(index) else {
                    continue
                }
                unique.append(index)
            }
            guard tables[table].enforceUnique(on: unique) else { continue }
            foldDuplicates(in: table)
        }
    }

    /// Indexes every live object of a table again, oldest first, folding each into an older
    /// one that holds one of its unique values.
    private mutating func foldDuplicates(in table: Int) {
        for (id, slot) in tables[table].liveObjectsByAge {
            tables[table].unindex(id, slot: slot)
            if let holder = tables[table].indexUnlessTaken(id, slot: slot) {
                fold(table, id, slot, into: holder)
            }
        }
    }
}
