import Foundation

extension ModelContext {
    /// The models a fetch with a limit returns, chosen on their stored values, so that only
    /// those are made; `nil` when the fetch cannot be answered this way and must compare the
    /// models themselves.
    ///
    /// The objects the predicate can match are every object of the type without a predicate,
    /// or the matches of an equality or of a range an `#Index` answers (see
    /// ``indexedMatches(_:mapping:)``); any other predicate is evaluated on models, and is left
    /// to the general path. When the first sort descriptor is on the leading attribute of an
    /// `#Index`, only the objects among which the first ones must be are read (see
    /// ``indexedLeading(_:key:count:mapping:)``). The first
    /// `fetchOffset + fetchLimit` of them in the descriptor's order are kept in a heap of that
    /// size while the table is read once; equal objects keep the order of their identifiers,
    /// as the stable sort of the general path keeps them. The models are made from copies of
    /// the kept rows, taken under the same lock, after the offset is skipped.
    ///
    /// Stored values stand for the models' values only while the context has no unsaved
    /// changes and no migration fills values in, and only for sort keys that
    /// ``StoredSortKey`` can read: otherwise, and when a value is one its key cannot order
    /// (a NaN, or a case the property's type does not store), the answer is `nil`.
    ///
    /// - Complexity: O(*n* log *k*) comparisons of stored values for *n* candidates and
    ///   *k* = offset + limit, and *k* − offset models made.
    func firstOnStoredValues<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [T]? {
        guard let limit = descriptor.fetchLimit else { return nil }
        let offset = max(descriptor.fetchOffset ?? 0, 0)
        let (sum, overflow) = offset.addingReportingOverflow(max(limit, 0))
        let capacity = overflow ? Int.max : sum
        guard let (mapping, keys, matches) = storedValueSelection(descriptor, leading: capacity) else { return nil }
        if capacity <= offset { return [] }
        let seen = seenGeneration
        let chosen = store.read { state -> Chosen? in
            // Another save between the refresh and now: the registered models are behind the
            // stored values, which no longer stand for them.
            guard state.generation == seen else { return nil }
            let slots = matches.map { ids in
                ids.compactMap { id in state.projection.slot(mapping.table, id).map { (id: id, slot: $0) } }
            }
            return state.projection.withTable(mapping.table) { table in
                Self.choose(in: table, slots, keys: keys, capacity: capacity, skipping: offset)
            }
        }
        guard var chosen else { return nil }
        var made: [AnyObject] = []
        made.reserveCapacity(chosen.ids.count)
        var values: [AttributeValue] = []
        try chosen.rows.withUnsafeMutableBufferPointer { rows in
            for (row, id) in chosen.ids.enumerated() {
                let model = try materialize(
                    T.self,
                    id,
                    slot: row,
                    takingFrom: rows,
                    width: chosen.width,
                    mapping: mapping,
                    values: &values
                )
                made.append(model)
            }
        }
        return T._$array(made)
    }

    // MARK: - Internals

    /// The identifiers a fetch returns, in order, with copies of their rows.
    private struct Chosen {
        var ids: [UInt64]
        /// The objects' attribute values, `width` per object, in the order of `ids`.
        var rows: [AttributeValue]
        var width: Int
    }

    /// The first `capacity` objects of `table` in the order of `keys`, then of their
    /// identifiers, without the first `offset` of them; `nil` when a value is one a key cannot
    /// order. Call it under the store's lock.
    ///
    /// - Parameter candidates: The objects to choose from, or `nil` for every object.
    private static func choose(
        in table: UnsafePointer<EntityTable>,
        _ candidates: [(id: UInt64, slot: Int)]?,
        keys: [StoredSortKey],
        capacity: Int,
        skipping offset: Int
    ) -> Chosen? {
        let width = table.pointee.width
        // The first key's value of every object is read once, kept with the object while the
        // selection holds it, and not decoded into the column; a later key's values are read
        // only where the keys before it tie; then the rows of the chosen. A table loaded from a
        // checkpoint decodes no other value.
        let first = keys.first
        let later = keys.dropFirst()
        let column = table.pointee.values
        typealias Candidate = (id: UInt64, slot: Int, key: AttributeValue)
        // Whether a later key met a value it cannot order: the stored values do not answer.
        var rejected = false
        var selection = BoundedSelection<Candidate>(capacity: capacity) { left, right in
            if let first {
                let order = first.compare(left.key, right.key)
                if order != 0 { return order < 0 }
            }
            for key in later {
                // Peeked, not decoded into the column: the objects compared here are mostly
                // ones the selection lets go of again.
                let (one, other) = (
                    column.peek(left.slot &* width &+ key.attribute), column.peek(right.slot &* width &+ key.attribute)
                )
                guard key.accepts(one), key.accepts(other) else {
                    rejected = true
                    return left.id < right.id
                }
                let order = key.compare(one, other)
                if order != 0 { return order < 0 }
            }
            return left.id < right.id
        }
        func offer(_ id: UInt64, _ slot: Int, _ key: AttributeValue) -> Bool {
            if let first {
                guard first.accepts(key) else { return false }
                // Most objects of a large table go after the last one kept: one comparison of
                // their keys tells, without the selection's own comparison of whole candidates.
                if let last = selection.lastWhenFull, first.compare(key, last.key) > 0 { return true }
            }
            selection.offer((id, slot, key))
            return true
        }
        if let candidates {
            for candidate in candidates {
                let key = first.map { column.peek(candidate.slot &* width &+ $0.attribute) } ?? .null
                if !offer(candidate.id, candidate.slot, key) { return nil }
            }
        } else if let first {
            let identifiers = table.pointee.identifiers
            // The identifiers are read once too, and their pages let go of a quarter megabyte at
            // a time.
            let stretch = CheckpointBytes.stretch / 16 / 8
            var passed = 0
            let offered = column.peekEach(from: first.attribute, every: width, count: identifiers.count) { slot, key in
                if slot &- passed >= stretch {
                    identifiers.dropPages(passed..<slot)
                    passed = slot
                }
                let id = identifiers[slot]
                return id == 0 || offer(id, slot, key)
            }
            identifiers.dropPages(passed..<identifiers.count)
            if !offered { return nil }
        } else {
            let identifiers = table.pointee.identifiers
            for slot in identifiers.indices {
                let id = identifiers[slot]
                if id != 0 && !offer(id, slot, .null) { return nil }
            }
        }
        let sorted = selection.sorted()
        let chosen: [(id: UInt64, slot: Int)]? =
            rejected ? nil : sorted.dropFirst(offset).map { (id: $0.id, slot: $0.slot) }
        guard let kept = chosen else { return nil }
        return table.pointee.values.withUnsafeBufferPointer(decodingSlots: kept.lazy.map(\.slot), width: width) {
            values in
            var rows: [AttributeValue] = []
            rows.reserveCapacity(kept.count * width)
            for object in kept {
                let start = object.slot * width
                rows.append(contentsOf: values[start..<(start + width)])
            }
            return Chosen(ids: kept.map(\.id), rows: rows, width: width)
        }
    }
}

extension ModelContext {
    /// What a fetch answered on stored values starts from: the mapping, a key for each sort
    /// descriptor, and the identifiers an equality predicate matches (`nil` without a
    /// predicate). `nil` when stored values cannot answer: the context has unsaved changes, a
    /// migration fills values in, a sort descriptor has no key, or the predicate is not an
    /// equality or range the stored values and indexes can answer.
    ///
    /// With `leading`, the number of objects a fetch with a limit keeps, and a first sort
    /// descriptor on the leading attribute of an `#Index`, the matches are only the objects
    /// among which those first ones are (see ``indexedLeading(_:key:count:mapping:)``).
    func storedValueSelection<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>,
        leading: Int? = nil
    ) -> (mapping: EntityMapping, keys: [StoredSortKey], matches: [UInt64]?)? {
        refreshIfStoreChanged()
        guard !hasPendingChanges, !fillsMissingValues else { return nil }
        let mapping = mapping(for: T.self)
        var keys: [StoredSortKey] = []
        keys.reserveCapacity(descriptor.sortBy.count)
        for sortDescriptor in descriptor.sortBy {
            guard let key = StoredSortKey(sortDescriptor, mapping: mapping) else { return nil }
            keys.append(key)
        }
        if let leading, leading < Int.max, let first = keys.first,
            let matches = indexedLeading(descriptor.predicate, key: first, count: leading, mapping: mapping)
        {
            return (mapping, keys, matches)
        }
        guard let predicate = descriptor.predicate else { return (mapping, keys, nil) }
        guard let matches = indexedMatches(predicate, mapping: mapping) else { return nil }
        return (mapping, keys, matches)
    }
}
