import Foundation

/// Recognises, in a predicate's expression tree, a range of values of one attribute:
/// `$0.startDate >= start`, `start <= $0.startDate`, `$0.startDate == day`,
/// `(start...end).contains($0.startDate)` (or `..<`), and two of them joined by `&&`
/// (`$0.startDate >= start && $0.startDate < end`). An `#Index` led by the
/// attribute then answers the fetch (see ``SortedIndex``).
///
/// Each shape is a protocol that a `PredicateExpressions` type conforms to under conditions on
/// its operands, as in `UniqueLookup.swift`; a predicate is read with dynamic casts, which
/// cost little beside the objects a range fetch reads.
protocol KeyPathComparedWithConstant {
    /// The key path and the range of its values that satisfy the comparison.
    var keyPathAndRange: (AnyKeyPath, IndexRange) { get }
}

/// `constant < $0.property` and the like.
protocol ConstantComparedWithKeyPath {
    /// The key path and the range of its values that satisfy the comparison.
    var keyPathAndRange: (AnyKeyPath, IndexRange) { get }
}

/// `lhs && rhs`.
protocol ConjunctionOfPredicates {
    /// The two operands.
    var operands: (any StandardPredicateExpression<Bool>, any StandardPredicateExpression<Bool>) { get }
}

/// `(low...high).contains($0.property)` or `(low..<high).contains($0.property)`.
protocol KeyPathInConstantRange {
    /// The key path and the range of its values that the range expression contains.
    var keyPathAndRange: (AnyKeyPath, IndexRange) { get }
}

/// `low...high` or `low..<high` between two constants.
protocol ConstantBounds {
    /// The values between the bounds.
    var range: IndexRange { get }
}

extension PredicateExpressions.ClosedRange: ConstantBounds where LHS: ConstantValue, RHS: ConstantValue {
    var range: IndexRange {
        IndexRange(
            lower: .init(value: lower.attributeValue, isIncluded: true),
            upper: .init(value: upper.attributeValue, isIncluded: true)
        )
    }
}

extension PredicateExpressions.Range: ConstantBounds where LHS: ConstantValue, RHS: ConstantValue {
    var range: IndexRange {
        IndexRange(
            lower: .init(value: lower.attributeValue, isIncluded: true),
            upper: .init(value: upper.attributeValue, isIncluded: false)
        )
    }
}

extension PredicateExpressions.RangeExpressionContains: KeyPathInConstantRange
where RangeExpression: ConstantBounds, Element: KeyPathOnVariable {
    var keyPathAndRange: (AnyKeyPath, IndexRange) { (element.anyKeyPath, range.range) }
}

extension PredicateExpressions.Comparison: KeyPathComparedWithConstant
where LHS: KeyPathOnVariable, RHS: ConstantValue {
    var keyPathAndRange: (AnyKeyPath, IndexRange) {
        (lhs.anyKeyPath, IndexRange(op, rhs.attributeValue, constantOnLeft: false))
    }
}

extension PredicateExpressions.Comparison: ConstantComparedWithKeyPath
where LHS: ConstantValue, RHS: KeyPathOnVariable {
    var keyPathAndRange: (AnyKeyPath, IndexRange) {
        (rhs.anyKeyPath, IndexRange(op, lhs.attributeValue, constantOnLeft: true))
    }
}

extension PredicateExpressions.Conjunction: ConjunctionOfPredicates
where LHS: StandardPredicateExpression, RHS: StandardPredicateExpression {
    var operands: (any StandardPredicateExpression<Bool>, any StandardPredicateExpression<Bool>) { (lhs, rhs) }
}

extension IndexRange {
    /// The values `value op constant` holds for, or `constant op value` when `constantOnLeft`.
    init(_ op: PredicateExpressions.ComparisonOperator, _ constant: AttributeValue, constantOnLeft: Bool) {
        let bound = Bound(value: constant, isIncluded: op == .lessThanOrEqual || op == .greaterThanOrEqual)
        // `value < c` bounds values from above; `c < value` from below.
        let isUpper = (op == .lessThan || op == .lessThanOrEqual) != constantOnLeft
        self.init(lower: isUpper ? nil : bound, upper: isUpper ? bound : nil)
    }

    /// The single value `constant`.
    init(equalTo constant: AttributeValue) {
        let bound = Bound(value: constant, isIncluded: true)
        self.init(lower: bound, upper: bound)
    }
}

extension ModelContext {
    /// The stored objects a predicate matches, in ascending order of identifiers, when an index
    /// can find them: an equality (see ``equalityMatches(_:mapping:)``), or a range of an
    /// attribute that leads an `#Index`. `nil` when every object must be looked at.
    func indexedMatches<T: PersistentModel>(_ predicate: Predicate<T>, mapping: EntityMapping) -> [UInt64]? {
        if let matches = equalityMatches(predicate, mapping: mapping) { return matches }
        guard !fillsMissingValues, let (attribute, range) = indexedRange(predicate.expression, mapping: mapping, T.self)
        else { return nil }
        return store.sortedIndexMatches(table: mapping.table, attribute: attribute, range: range)
    }

    /// The objects among which a fetch with a limit, sorted by `key` first, finds its first
    /// `count`, from the `#Index` that `key`'s attribute leads: see
    /// ``Projection/indexedLeading(_:attribute:count:ascending:in:)``. `nil` when no index can
    /// tell, or the predicate is anything but a range of that attribute.
    func indexedLeading<T: PersistentModel>(
        _ predicate: Predicate<T>?,
        key: StoredSortKey,
        count: Int,
        mapping: EntityMapping
    ) -> [UInt64]? {
        // A localized comparator orders strings otherwise than the index.
        guard key.stringComparator == nil, !fillsMissingValues else { return nil }
        var range: IndexRange?
        if let predicate {
            guard let (attribute, found) = indexedRange(predicate.expression, mapping: mapping, T.self),
                attribute == key.attribute
            else { return nil }
            range = found
        }
        return store.sortedIndexLeading(
            table: mapping.table,
            attribute: key.attribute,
            count: count,
            ascending: key.ascending,
            range: range
        )
    }

    /// The attribute and range of `expression`, when it is a range of one attribute of `T`
    /// whose stored values order as the property's values.
    private func indexedRange<Expression: StandardPredicateExpression<Bool>, T: PersistentModel>(
        _ expression: Expression,
        mapping: EntityMapping,
        _: T.Type
    ) -> (attribute: Int, range: IndexRange)? {
        guard let (keyPath, range) = Self.range(of: expression),
            StoredSortKey.storesOrderedValue(type(of: keyPath).valueType),
            let property = mapping.propertyIndex(of: keyPath, in: T.self),
            case .attribute(let attribute) = mapping.slots[property]
        else { return nil }
        return (attribute, range)
    }

    /// The key path and range of a comparison, an equality, or a conjunction of two of them
    /// on one key path.
    private static func range(of expression: any StandardPredicateExpression<Bool>) -> (AnyKeyPath, IndexRange)? {
        if let comparison = expression as? any KeyPathComparedWithConstant { return comparison.keyPathAndRange }
        if let comparison = expression as? any ConstantComparedWithKeyPath { return comparison.keyPathAndRange }
        if let contains = expression as? any KeyPathInConstantRange { return contains.keyPathAndRange }
        if let equality = expression as? any KeyPathEqualsConstant {
            let (keyPath, value) = equality.keyPathAndValue
            return (keyPath, IndexRange(equalTo: value))
        }
        if let equality = expression as? any ConstantEqualsKeyPath {
            let (keyPath, value) = equality.keyPathAndValue
            return (keyPath, IndexRange(equalTo: value))
        }
        if let conjunction = expression as? any ConjunctionOfPredicates {
            let (left, right) = conjunction.operands
            guard let (keyPath, first) = range(of: left), let (other, second) = range(of: right), keyPath == other,
                let both = first.intersection(second)
            else { return nil }
            return (keyPath, both)
        }
        return nil
    }
}
