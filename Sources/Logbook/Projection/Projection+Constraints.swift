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
    /// Constraints over several attributes (`#Unique`) are put in force and folded the same
    /// way, on the tuple of their values. A constraint of an entity with subentities folds the
    /// objects of all their tables together (``foldAcrossHierarchies(_:)``); the oldest object
    /// keeps its identifier and its class.
    ///
    /// Attributes are matched by their current and former names; entities the recorded schema
    /// does not have keep their constraints.
    ///
    /// - Complexity: O(1) for a schema whose constraints are already in force; otherwise
    ///   O(*n* log *n*) for the *n* objects of each entity that gains a constraint.
    package mutating func enforceConstraints(of recorded: Schema) {
        var changed: [Int] = []
        for table in tables.indices {
            guard let entity = recorded.entity(named: tables[table].entity.name) else { continue }
            var unique: [Int] = []
            for attribute in entity.attributes where attribute.isUnique {
                guard let index = tables[table].attributeIndex[attribute.name], !unique.contains(index) else {
                    continue
                }
                unique.append(index)
            }
            var composites: [[Int]] = []
            for constraint in entity.uniquenessConstraints {
                let indexes = constraint.compactMap { tables[table].attributeIndex[$0] }
                if indexes.count == constraint.count, !composites.contains(indexes) { composites.append(indexes) }
            }
            guard tables[table].enforceUnique(on: unique, composites: composites) else { continue }
            changed.append(table)
        }
        for table in changed where sharedUniques[table].isEmpty { foldDuplicates(in: table) }
        foldAcrossHierarchies(changed.filter { !sharedUniques[$0].isEmpty })
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

extension Projection {
    /// The objects of a table whose leading attribute of an `#Index` lies in `range`, in
    /// ascending order of identifiers; `nil` when no index leads with the attribute or it
    /// cannot answer (see ``SortedIndex``).
    ///
    /// - Complexity: O(log *n* + *k* log *k*) for *k* objects in the range, once the index is
    ///   up to date.
    mutating func indexedMatches(_ table: Int, attribute: Int, in range: IndexRange) -> [UInt64]? {
        guard let position = upToDateSortedIndex(table, attribute) else { return nil }
        let index = tables[table].sortedIndexes[position]
        guard index.accepts(range) else { return nil }
        return index.identifiers(at: index.positions(in: range)).sorted()
    }

    /// The objects among which the first `count` of a fetch sorted by a table's leading
    /// attribute of an `#Index` are, in ascending order of identifiers: the first `count` in
    /// the index's order (the last, when `ascending` is false) and those that tie with the last
    /// of them; only those in `range`, when given. `nil` when no index leads with the attribute
    /// or it cannot answer.
    ///
    /// - Complexity: O(log *n* + *k* log *k*) for the *k* objects returned.
    mutating func indexedLeading(
        _ table: Int,
        attribute: Int,
        count: Int,
        ascending: Bool,
        in range: IndexRange?
    ) -> [UInt64]? {
        guard let position = upToDateSortedIndex(table, attribute) else { return nil }
        let index = tables[table].sortedIndexes[position]
        let positions: Range<Int>
        if let range {
            guard index.accepts(range) else { return nil }
            positions = index.positions(in: range)
        } else {
            positions = 0..<index.entries.count
        }
        return index.leading(count, of: positions, ascending: ascending).sorted()
    }

    /// Whether a table has an `#Index` led by the attribute.
    package func hasSortedIndex(_ table: Int, attribute: Int) -> Bool {
        tables[table].sortedIndexes.contains { $0.attribute == attribute }
    }

    private mutating func upToDateSortedIndex(_ table: Int, _ attribute: Int) -> Int? {
        let (slots, loaded) = (self.slots, tables[table].loadedIdentifiers)
        return tables[table].sortedIndex(leadingWith: attribute) { id in
            slots.slot(of: id) ?? loaded?.slot(of: id)
        }
    }
}
