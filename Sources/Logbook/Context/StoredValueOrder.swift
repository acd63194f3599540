import Foundation

extension ModelContext {
    /// `ids` in the order of `sortBy`, compared on their stored values, or `nil` unless every
    /// sort descriptor names a date or integer attribute that every object holds.
    ///
    /// Sorting the objects with `sort(using:)` reads each compared property through its key
    /// path, twice per comparison; comparing stored values first and making the objects in
    /// order costs a fraction of that. Dates and integers order the same way either way; strings
    /// (which sort descriptors compare with a localized comparator), floating-point numbers
    /// (NaN) and missing values are left to `sort(using:)`. Equal values keep the identifiers'
    /// ascending order, as the stable `sort(using:)` keeps the candidates' order.
    func orderedOnStoredValues<T: PersistentModel>(
        _ ids: [UInt64],
        _ sortBy: [SortDescriptor<T>],
        mapping: EntityMapping
    ) -> [UInt64]? {
        var keys: [(attribute: Int, ascending: Bool)] = []
        for descriptor in sortBy {
            guard let keyPath = descriptor.keyPath,
                let property = mapping.propertyIndex(of: keyPath, in: T.self),
                case .attribute(let attribute) = mapping.slots[property]
            else { return nil }
            keys.append((attribute, descriptor.order == .forward))
        }
        return store.read { state -> [UInt64]? in
            var entries: [(values: [AttributeValue], id: UInt64)] = []
            entries.reserveCapacity(ids.count)
            let table = state.projection.tables[mapping.table]
            for id in ids {
                guard let slot = state.projection.slot(mapping.table, id) else { continue }
                entries.append((keys.map { table.value(slot, $0.attribute) }, id))
            }
            for (index, _) in keys.enumerated() {
                guard let first = entries.first?.values[index], first.isOrderedByStoredValue,
                    entries.allSatisfy({ $0.values[index].hasSameCase(as: first) })
                else { return entries.isEmpty ? [] : nil }
            }
            entries.sort { left, right in
                for (index, key) in keys.enumerated() where left.values[index] != right.values[index] {
                    return left.values[index].precedes(right.values[index]) == key.ascending
                }
                return left.id < right.id
            }
            return entries.map(\.id)
        }
    }
}

extension AttributeValue {
    /// Whether values of this case order the same way stored as they do as properties.
    fileprivate var isOrderedByStoredValue: Bool {
        switch self {
        case .int, .uint, .date: return true
        default: return false
        }
    }

    fileprivate func hasSameCase(as other: AttributeValue) -> Bool {
        switch (self, other) {
        case (.int, .int), (.uint, .uint), (.date, .date): return true
        default: return false
        }
    }

    /// Whether `self` sorts before `other`, both of one case that ``isOrderedByStoredValue``.
    fileprivate func precedes(_ other: AttributeValue) -> Bool {
        switch (self, other) {
        case (.int(let left), .int(let right)): return left < right
        case (.uint(let left), .uint(let right)): return left < right
        case (.date(let left), .date(let right)): return left < right
        default: return false
        }
    }
}
