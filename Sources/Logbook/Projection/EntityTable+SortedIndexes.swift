extension EntityTable {
    /// Records that an object was indexed or unindexed, for the sorted indexes already built.
    mutating func noteChange(_ id: UInt64) {
        for position in sortedIndexes.indices where sortedIndexes[position].isBuilt {
            sortedIndexes[position].changed.insert(id)
        }
    }

    /// The position in ``sortedIndexes`` of the index led by `attribute`, brought up to date
    /// with the objects (built the first time), or `nil` when no index leads with it or its
    /// values cannot be ordered as their properties are (see ``SortedIndex``).
    ///
    /// - Parameter slotOf: The slot of a live object of this table, by identifier.
    mutating func sortedIndex(leadingWith attribute: Int, slotOf: (UInt64) -> Int?) -> Int? {
        guard let position = sortedIndexes.firstIndex(where: { $0.attribute == attribute }) else { return nil }
        if !sortedIndexes[position].isBuilt || sortedIndexes[position].changed.count * 4 > count {
            var entries: [SortedIndex.Entry] = []
            entries.reserveCapacity(count)
            for (slot, id) in identifiers.enumerated() where id != 0 {
                entries.append(SortedIndex.Entry(value: value(slot, attribute), id: id))
            }
            sortedIndexes[position].rebuild(from: entries)
            followsChanges = true
        } else if !sortedIndexes[position].changed.isEmpty {
            var fresh: [SortedIndex.Entry] = []
            for id in sortedIndexes[position].changed {
                guard let slot = slotOf(id), slot < identifiers.count, identifiers[slot] == id else { continue }
                fresh.append(SortedIndex.Entry(value: value(slot, attribute), id: id))
            }
            sortedIndexes[position].update(with: fresh)
        }
        return sortedIndexes[position].isOrderable ? position : nil
    }
}
