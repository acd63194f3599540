import Foundation

/// The objects of a table sorted by the value of one attribute, the leading attribute of an
/// `#Index`: what a fetch reads for a range of values, or for the first objects in the
/// attribute's order, instead of every object.
///
/// Entries are (value, identifier) pairs in the order of their values, then of their
/// identifiers. `null` comes first, then the values in the order `<` gives them as the
/// property's type: integers, dates, floating-point numbers, decimals, strings (by `<`, not a
/// localized comparator) and UUIDs store the property's very value, so the two orders agree.
/// Other values (an enum's raw value, a composite) and NaN have no such order: an index that
/// holds one is not ``isOrderable``, and the fetch then reads every object as it would
/// without the index.
///
/// The index is built the first time a fetch uses it. From then on, the table records the
/// identifiers of the objects it indexes or unindexes in ``changed``; the next fetch takes
/// their entries out and merges in their current ones, or builds the index again when more
/// than a quarter of the objects changed. A table that no fetch reads through its index
/// pays nothing.
struct SortedIndex: Sendable {
    /// One object: its value of the attribute and its identifier.
    struct Entry: Sendable {
        var value: AttributeValue
        var id: UInt64
    }

    /// The attribute, by its index in the table's rows.
    let attribute: Int
    /// The entries, in order; meaningful once ``isBuilt``.
    private(set) var entries: [Entry] = []
    /// Whether the index has been built.
    private(set) var isBuilt = false
    /// Whether every value is one the index can order as the property orders it.
    private(set) var isOrderable = true
    /// The objects indexed or unindexed since the entries were last brought up to date.
    var changed: Set<UInt64> = []

    init(attribute: Int) {
        self.attribute = attribute
    }

    /// Replaces the entries with `entries`, sorted.
    mutating func rebuild(from entries: [Entry]) {
        isOrderable = Self.canOrder(entries)
        self.entries = isOrderable ? entries.sorted(by: Self.precedes) : []
        isBuilt = true
        changed.removeAll()
    }

    /// Takes out the entries of ``changed`` and merges in `fresh`, their current entries (of
    /// the objects still live).
    mutating func update(with fresh: [Entry]) {
        guard isOrderable, Self.canOrder(fresh, joining: entries.first { $0.value != .null }?.value) else {
            isOrderable = false
            entries = []
            changed.removeAll()
            return
        }
        let changed = self.changed
        let kept = entries.filter { !changed.contains($0.id) }
        let added = fresh.sorted(by: Self.precedes)
        var merged: [Entry] = []
        merged.reserveCapacity(kept.count + added.count)
        var left = 0
        var right = 0
        while left < kept.count || right < added.count {
            if right == added.count || (left < kept.count && Self.precedes(kept[left], added[right])) {
                merged.append(kept[left])
                left += 1
            } else {
                merged.append(added[right])
                right += 1
            }
        }
        entries = merged
        self.changed.removeAll()
    }

    // MARK: - Reading

    /// The positions of the entries whose values lie in `range`.
    ///
    /// - Complexity: O(log *n*).
    func positions(in range: IndexRange) -> Range<Int> {
        var start = 0
        var end = entries.count
        if let lower = range.lower {
            // The first entry above the bound, or at it when it is included.
            start = firstPosition { entry in
                let order = Self.compare(entry.value, lower.value)
                return lower.isIncluded ? order >= 0 : order > 0
            }
        } else {
            // `null` satisfies no comparison with a value.
            start = firstPosition { $0.value != .null }
        }
        if let upper = range.upper {
            end = firstPosition { entry in
                guard entry.value != .null else { return false }
                let order = Self.compare(entry.value, upper.value)
                return upper.isIncluded ? order > 0 : order >= 0
            }
        }
        return start..<max(start, end)
    }

    /// Whether the bounds of `range` are of the kind of the index's values, so that they
    /// compare with them.
    func accepts(_ range: IndexRange) -> Bool {
        let first = firstPosition { $0.value != .null }
        guard first < entries.count, let kind = Self.kind(of: entries[first].value) else { return true }
        for bound in [range.lower, range.upper].compactMap(\.self) where Self.kind(of: bound.value) != kind {
            return false
        }
        return true
    }

    /// The identifiers at `positions`.
    func identifiers(at positions: Range<Int>) -> [UInt64] {
        entries[positions].map(\.id)
    }

    /// The first `count` entries of `positions` in ascending order of values (or the last in
    /// descending order), and every entry that ties with the last of them: the objects among
    /// which the first `count` in any order that sorts by this attribute first must be.
    func leading(_ count: Int, of positions: Range<Int>, ascending: Bool) -> [UInt64] {
        guard count > 0, !positions.isEmpty else { return [] }
        if ascending {
            var end = min(positions.upperBound, positions.lowerBound + count)
            let last = entries[end - 1].value
            while end < positions.upperBound, Self.compare(entries[end].value, last) == 0 { end += 1 }
            return entries[positions.lowerBound..<end].map(\.id)
        }
        var start = max(positions.lowerBound, positions.upperBound - count)
        let first = entries[start].value
        while start > positions.lowerBound, Self.compare(entries[start - 1].value, first) == 0 { start -= 1 }
        return entries[start..<positions.upperBound].map(\.id)
    }

    /// The first position whose entry satisfies `isAfter`, which is false for a prefix of the
    /// entries and true for the rest.
    private func firstPosition(where isAfter: (Entry) -> Bool) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = low + (high - low) / 2
            if isAfter(entries[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    // MARK: - Order

    /// Whether the index can order every value of `entries` (and `sample`, a value already
    /// indexed): all of one kind that orders as its property does, or `null`, and no NaN.
    private static func canOrder(_ entries: [Entry], joining sample: AttributeValue? = nil) -> Bool {
        var kind = sample.flatMap(Self.kind)
        for entry in entries where entry.value != .null {
            guard let this = Self.kind(of: entry.value) else { return false }
            if let kind, kind != this { return false }
            kind = this
        }
        return true
    }

    /// The kind of a value the index can order, or `nil`.
    private static func kind(of value: AttributeValue) -> Int? {
        switch value {
        case .int: 1
        case .uint: 2
        case .double(let number): number.isNaN ? nil : 3
        case .float(let number): number.isNaN ? nil : 4
        case .decimal(let number): number.isNaN ? nil : 5
        case .date(let date): date.timeIntervalSinceReferenceDate.isNaN ? nil : 6
        case .string: 7
        case .uuid: 8
        default: nil
        }
    }

    /// The order of two values the index can order, of one kind or `null`: negative when
    /// `left` comes first, zero when they tie.
    static func compare(_ left: AttributeValue, _ right: AttributeValue) -> Int {
        switch (left, right) {
        case (.null, .null): 0
        case (.null, _): -1
        case (_, .null): 1
        case (.int(let left), .int(let right)): order(left, right)
        case (.uint(let left), .uint(let right)): order(left, right)
        case (.double(let left), .double(let right)): order(left, right)
        case (.float(let left), .float(let right)): order(left, right)
        case (.decimal(let left), .decimal(let right)): order(left, right)
        case (.date(let left), .date(let right)): order(left, right)
        case (.string(let left), .string(let right)): order(left, right)
        case (.uuid(let left), .uuid(let right)): order(left, right)
        default: preconditionFailure("a sorted index compares values of one kind")
        }
    }

    private static func order<Value: Comparable>(_ left: Value, _ right: Value) -> Int {
        left < right ? -1 : right < left ? 1 : 0
    }

    private static func precedes(_ left: Entry, _ right: Entry) -> Bool {
        let order = compare(left.value, right.value)
        return order != 0 ? order < 0 : left.id < right.id
    }
}

/// A range of values of an attribute, from a fetch's predicate: each bound a constant, and
/// whether values equal to it are in the range. A missing bound leaves that side open, but
/// the range never holds `null`, which no comparison with a value matches.
struct IndexRange: Sendable {
    struct Bound: Sendable {
        var value: AttributeValue
        var isIncluded: Bool
    }

    var lower: Bound?
    var upper: Bound?

    /// The range of values in both ranges, or `nil` when a bound is one the index cannot
    /// compare with the other.
    func intersection(_ other: IndexRange) -> IndexRange? {
        var result = self
        if let bound = other.lower {
            if let current = result.lower {
                guard Self.comparable(current.value, bound.value) else { return nil }
                let order = SortedIndex.compare(bound.value, current.value)
                if order > 0 || (order == 0 && !bound.isIncluded) { result.lower = bound }
            } else {
                result.lower = bound
            }
        }
        if let bound = other.upper {
            if let current = result.upper {
                guard Self.comparable(current.value, bound.value) else { return nil }
                let order = SortedIndex.compare(bound.value, current.value)
                if order < 0 || (order == 0 && !bound.isIncluded) { result.upper = bound }
            } else {
                result.upper = bound
            }
        }
        return result
    }

    private static func comparable(_ left: AttributeValue, _ right: AttributeValue) -> Bool {
        switch (left, right) {
        case (.int, .int), (.uint, .uint), (.double, .double), (.float, .float), (.decimal, .decimal),
            (.date, .date), (.string, .string), (.uuid, .uuid):
            true
        default: false
        }
    }
}
