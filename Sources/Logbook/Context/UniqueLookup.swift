import Foundation

/// Recognises `#Predicate { $0.property == value }` (either way round) in a predicate's
/// expression tree, so that a fetch on a unique attribute can use the unique index.
protocol EqualityToConstant {
    /// The key path compared and the constant it is compared with.
    var keyPathAndValue: (AnyKeyPath, Any)? { get }
}

extension PredicateExpressions.Equal: EqualityToConstant {
    var keyPathAndValue: (AnyKeyPath, Any)? {
        if let keyPath = lhs as? any KeyPathOnVariable, let value = rhs as? any ConstantValue {
            return (keyPath.anyKeyPath, value.anyValue)
        }
        if let keyPath = rhs as? any KeyPathOnVariable, let value = lhs as? any ConstantValue {
            return (keyPath.anyKeyPath, value.anyValue)
        }
        return nil
    }
}

protocol KeyPathOnVariable {
    var anyKeyPath: AnyKeyPath { get }
}

extension PredicateExpressions.KeyPath: KeyPathOnVariable where Root: VariableExpression {
    var anyKeyPath: AnyKeyPath { keyPath }
}

/// Marks the variable expression, so that only `$0.property` (not `$0.a.b`) qualifies.
protocol VariableExpression {}
extension PredicateExpressions.Variable: VariableExpression {}

protocol ConstantValue {
    var anyValue: Any { get }
}

extension PredicateExpressions.Value: ConstantValue {
    var anyValue: Any { value }
}

extension ModelContext {
    /// The stored objects a predicate can match, when it is an equality between an attribute and
    /// a constant (`$0.destination == "Lisbon"`): from the unique index when the attribute is
    /// unique, otherwise by comparing stored values, without making an object of every row.
    ///
    /// - Returns: the identifiers in ascending order, or `nil` when the predicate is not such an
    ///   equality and every object must be looked at.
    func equalityMatches<T: PersistentModel>(_ predicate: Predicate<T>, mapping: EntityMapping) -> [UInt64]? {
        guard let equality = predicate.expression as? any EqualityToConstant,
            let (keyPath, constant) = equality.keyPathAndValue,
            let property = mapping.propertyIndex(of: keyPath, in: T.self),
            case .attribute(let attribute) = mapping.slots[property],
            let convertible = constant as? any AttributeValueConvertible
        else { return nil }
        let value = convertible.attributeValue
        return store.read { state -> [UInt64] in
            if state.projection.tables[mapping.table].isUnique(attribute) {
                return state.projection.tables[mapping.table].lookup(unique: attribute, value).map { [$0] } ?? []
            }
            var matches: [UInt64] = []
            for (id, row) in state.projection.tables[mapping.table].rows where row.values[attribute] == value {
                matches.append(id)
            }
            return matches.sorted()
        }
    }
}
