extension ModelContext {
    /// The stored identifiers a fetch returns, in its order, found on the stored values without
    /// making a model; `nil` when the fetch cannot be answered this way and must look at models.
    ///
    /// The objects are every object of the type without a predicate, or the matches of an
    /// equality or of a range an `#Index` answers
    /// (see ``indexedMatches(_:mapping:)``), as in ``firstOnStoredValues(_:)``; any other
    /// predicate is evaluated on models. They are ordered by the keys ``StoredSortKey`` reads,
    /// then by identifier, the order a fetch gives its models, and the descriptor's window is
    /// cut from them.
    ///
    /// Stored values stand for the models' values only while the context has no unsaved
    /// changes and no migration fills values in: otherwise, and for a sort descriptor or value
    /// a key cannot order, the answer is `nil`.
    ///
    /// - Complexity: O(*n* log *n*) comparisons of stored values for *n* candidates when the
    ///   descriptor sorts, O(*n*) otherwise; no model is made.
    func identifiersOnStoredValues<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) -> [UInt64]? {
        guard let (mapping, keys, matches) = storedValueSelection(descriptor) else { return nil }
        let seen = seenGeneration
        let ordered = store.read { state -> [UInt64]? in
            // Another save between the refresh and now: stored values and models may differ.
            guard state.generation == seen else { return nil }
            return state.projection.withTable(mapping.table) { table in
                let candidates =
                    matches.map { ids in
                        ids.compactMap { id in state.projection.slot(mapping.table, id).map { (id: id, slot: $0) } }
                    } ?? table.pointee.identifiersInOrder()
                return Self.ordered(candidates, in: table, keys: keys)
            }
        }
        guard let ordered else { return nil }
        let offset = min(max(descriptor.fetchOffset ?? 0, 0), ordered.count)
        let limit = descriptor.fetchLimit.map { max($0, 0) } ?? ordered.count
        return Array(ordered[offset...].prefix(limit))
    }

    /// The identifiers of `candidates`, which are in identifier order, in the order of `keys`
    /// and then of their identifiers; `nil` when a value is one a key cannot order. Call it
    /// under the store's lock.
    private static func ordered(
        _ candidates: [(id: UInt64, slot: Int)],
        in table: UnsafePointer<EntityTable>,
        keys: [StoredSortKey]
    ) -> [UInt64]? {
        guard !keys.isEmpty else { return candidates.map(\.id) }
        let width = table.pointee.width
        let slots = candidates.lazy.map(\.slot)
        return table.pointee.values.withUnsafeBufferPointer(decodingSlots: slots, width: width) { values -> [UInt64]? in
            for candidate in candidates {
                for key in keys where !key.accepts(values[candidate.slot &* width &+ key.attribute]) { return nil }
            }
            // A stable sort keeps equal objects in identifier order, as a fetch of models does.
            let sorted = candidates.sorted { left, right in
                for key in keys {
                    let order = key.compare(
                        values[left.slot &* width &+ key.attribute],
                        values[right.slot &* width &+ key.attribute]
                    )
                    if order != 0 { return order < 0 }
                }
                return left.id < right.id
            }
            return sorted.map(\.id)
        }
    }
}
