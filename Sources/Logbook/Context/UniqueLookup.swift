import Foundation

/// Recognises `#Predicate { $0.property == value }` in a predicate's expression tree, so that a
/// fetch can use a unique index, or compare stored values, instead of making every object.
///
/// Each shape is one protocol that `PredicateExpressions.Equal` conforms to under conditions on
/// its operands. Whether an expression type has a shape is found once per type, with a cast of
/// its metatype, and remembered with a reader of that type's values (see
/// ``EntityMapping/keyPathAndValue(of:)``): a dynamic cast of every predicate cost more than the
/// rest of a fetch by a unique name.
protocol KeyPathEqualsConstant {
    /// The key path compared and the constant it is compared with.
    var keyPathAndValue: (AnyKeyPath, AttributeValue) { get }
}

/// `value == $0.property`.
protocol ConstantEqualsKeyPath {
    /// The key path compared and the constant it is compared with.
    var keyPathAndValue: (AnyKeyPath, AttributeValue) { get }
}

extension PredicateExpressions.Equal: KeyPathEqualsConstant where LHS: KeyPathOnVariable, RHS: ConstantValue {
    var keyPathAndValue: (AnyKeyPath, AttributeValue) { (lhs.anyKeyPath, rhs.attributeValue) }
}

extension PredicateExpressions.Equal: ConstantEqualsKeyPath where LHS: ConstantValue, RHS: KeyPathOnVariable {
    var keyPathAndValue: (AnyKeyPath, AttributeValue) { (rhs.anyKeyPath, lhs.attributeValue) }
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

/// A constant of a type that attributes can hold.
protocol ConstantValue {
    var attributeValue: AttributeValue { get }
}

extension PredicateExpressions.Value: ConstantValue where Output: AttributeValueConvertible {
    var attributeValue: AttributeValue { value.attributeValue }
}

/// Reads the key path and the constant of an equality expression, given a pointer to a value of
/// the one expression type it was made for.
typealias EqualityReader = (UnsafeRawPointer) -> (AnyKeyPath, AttributeValue)

extension EntityMapping {
    /// The key path and constant of `$0.property == value` or `value == $0.property`, or `nil`
    /// for any other expression.
    func keyPathAndValue<Expression: StandardPredicateExpression<Bool>>(
        of expression: Expression
    ) -> (AnyKeyPath, AttributeValue)? {
        let key = ObjectIdentifier(Expression.self)
        let reader: EqualityReader?
        if let last = lastEqualityReader, last.type == key {
            // A loop of lookups meets one expression type over and over: no hashing for it.
            reader = last.reader
        } else if let known = equalityReaders[key] {
            reader = known
            lastEqualityReader = (key, known)
        } else {
            reader = Self.equalityReader(for: Expression.self)
            equalityReaders[key] = reader
            lastEqualityReader = (key, reader)
        }
        guard let reader else { return nil }
        return withUnsafePointer(to: expression) { reader(UnsafeRawPointer($0)) }
    }

    private static func equalityReader<Expression>(for _: Expression.Type) -> EqualityReader? {
        if let shape = Expression.self as? any KeyPathEqualsConstant.Type { return reader(shape) }
        if let shape = Expression.self as? any ConstantEqualsKeyPath.Type { return reader(shape) }
        return nil
    }

    private static func reader<Shape: KeyPathEqualsConstant>(_: Shape.Type) -> EqualityReader {
        { $0.assumingMemoryBound(to: Shape.self).pointee.keyPathAndValue }
    }

    private static func reader<Shape: ConstantEqualsKeyPath>(_: Shape.Type) -> EqualityReader {
        { $0.assumingMemoryBound(to: Shape.self).pointee.keyPathAndValue }
    }
}

extension ModelContext {
    /// The stored objects a predicate can match, when it is an equality between an attribute and
    /// a constant (`$0.destination == "Lisbon"`): from the unique index when the attribute is
    /// unique, otherwise from an equality index of the attribute, which the first such fetch
    /// builds and every later change keeps up to date.
    ///
    /// - Returns: the identifiers in ascending order, or `nil` when the predicate is not such an
    ///   equality and every object must be looked at.
    func equalityMatches<T: PersistentModel>(_ predicate: Predicate<T>, mapping: EntityMapping) -> [UInt64]? {
        guard let (attribute, value) = equality(predicate.expression, mapping: mapping, in: T.self) else { return nil }
        if let unique = store.read({ $0.projection.uniqueHolder(mapping.table, attribute: attribute, value) }) {
            return unique.map { [$0] } ?? []
        }
        return store.indexMatches(table: mapping.table, attribute: attribute, value: value)
    }

    /// The attribute index and the constant of `$0.attribute == constant` (either way round) on
    /// an attribute of `T`, or `nil` for any other expression.
    func equality<Expression: StandardPredicateExpression<Bool>, T: PersistentModel>(
        _ expression: Expression,
        mapping: EntityMapping,
        in _: T.Type
    ) -> (attribute: Int, value: AttributeValue)? {
        guard let (keyPath, value) = mapping.keyPathAndValue(of: expression),
            let property = mapping.propertyIndex(of: keyPath, in: T.self),
            case .attribute(let attribute) = mapping.slots[property]
        else { return nil }
        // A stored value of an `.externalStorage` attribute may be a placeholder for its file's
        // bytes: such an equality is evaluated on models, whose values are the bytes.
        if !mapping.externalProperties.isEmpty, mapping.externalProperties.contains(where: { $0.position == property })
        {
            return nil
        }
        return (attribute, value)
    }
}

/// The type of `#Predicate { $0.property == constant }` on a model `T`, for a constant of type
/// `Value`.
@usableFromInline
typealias _KeyPathEquals<T, Value: Equatable> = PredicateExpressions.Equal<
    PredicateExpressions.KeyPath<PredicateExpressions.Variable<T>, Value>,
    PredicateExpressions.Value<Value>
>
