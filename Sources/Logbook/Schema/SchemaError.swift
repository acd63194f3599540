/// An error in a schema, or in a value that does not fit its schema.
///
/// Schema errors come from two places. Building a ``Schema`` from model types checks what the
/// type checker cannot: that inverses pair up, that unique attributes have a type a unique index
/// can hold, that entity names do not collide; the schema keeps what it finds, and making a
/// ``ModelContainer`` with it throws. Converting stored values back into properties
/// checks that each ``AttributeValue`` fits the Swift type it is read into.
///
/// Every error names the entity and the property concerned, when they are known. Stored values
/// themselves are never part of the message.
///
/// ```swift
/// do {
///     let container = try ModelContainer(for: Schema([Trip.self]))
/// } catch SchemaError.ambiguousInverse {
///     print("Add an explicit `inverse:` to one of the relationships.")
/// }
/// ```
///
/// The text of ``description`` is meant for people and may change between releases; match on
/// ``code`` instead.
///
/// ## Topics
///
/// ### Classifying errors
/// - ``code``
/// - ``Code``
///
/// ### Context
/// - ``message``
/// - ``entity``
/// - ``property``
/// - ``cause``
public struct SchemaError: Error, Sendable, CustomStringConvertible {
    /// A coarse classification of ``SchemaError``.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Sendable {
            case duplicateEntity
            case ambiguousInverse
            case invalidInverse
            case invalidUniqueConstraint
            case invalidIndex
            case invalidModelCount
            case duplicateOriginalName
            case duplicateProperty
            case unknownDestination
            case typeMismatch
            case valueOutOfRange
            case invalidRawValue
            case compositeCoding
            case transformerFailed
            case valueCountMismatch
            case invalidInheritance
        }

        private let value: Value

        private init(_ value: Value) {
            self.value = value
        }

        /// Two model types in one schema have the same entity name.
        public static let duplicateEntity = Code(.duplicateEntity)
        /// A relationship has more than one candidate inverse; name one with `inverse:`.
        public static let ambiguousInverse = Code(.ambiguousInverse)
        /// An explicit inverse does not exist, does not point back, or disagrees with the other
        /// side's explicit inverse.
        public static let invalidInverse = Code(.invalidInverse)
        /// A unique constraint is on a property that cannot be unique: an attribute that is not
        /// numeric, `String` or `UUID`, or a to-many relationship.
        public static let invalidUniqueConstraint = Code(.invalidUniqueConstraint)
        /// An `#Index` names something other than a persisted attribute.
        public static let invalidIndex = Code(.invalidIndex)
        /// A relationship's minimum or maximum model count is negative, inconsistent, or set on
        /// a to-one relationship.
        public static let invalidModelCount = Code(.invalidModelCount)
        /// Two properties of one entity claim the same original name.
        public static let duplicateOriginalName = Code(.duplicateOriginalName)
        /// Two properties of one entity have the same name, in a schema read from a store.
        public static let duplicateProperty = Code(.duplicateProperty)
        /// A relationship refers to an entity the schema does not have, in a schema read from a
        /// store.
        public static let unknownDestination = Code(.unknownDestination)
        /// A stored value has a different kind than the property's type.
        public static let typeMismatch = Code(.typeMismatch)
        /// A stored number does not fit the property's type.
        public static let valueOutOfRange = Code(.valueOutOfRange)
        /// A stored raw value matches no case of the property's `RawRepresentable` type.
        public static let invalidRawValue = Code(.invalidRawValue)
        /// A composite (`Codable`) value failed to encode or decode; ``SchemaError/cause`` holds
        /// the coder's error.
        public static let compositeCoding = Code(.compositeCoding)
        /// An ``AttributeTransformer`` threw; ``SchemaError/cause`` holds its error.
        public static let transformerFailed = Code(.transformerFailed)
        /// A model was materialised from a different number of values than it has properties.
        public static let valueCountMismatch = Code(.valueCountMismatch)
        /// A model hierarchy Logbook cannot store: a superentity the schema does not have, a
        /// cycle, or a subentity without an inherited attribute or relationship. The message
        /// names the entity and the property.
        public static let invalidInheritance = Code(.invalidInheritance)

        public var description: String { value.rawValue }

        /// Matches an error against a code, so that `catch SchemaError.ambiguousInverse` works.
        public static func ~= (code: Code, error: any Error) -> Bool {
            (error as? SchemaError)?.code == code
        }
    }

    /// The classification of this error.
    public var code: Code
    /// What went wrong, in words.
    public var message: String
    /// The entity concerned, when one is known.
    public var entity: String?
    /// The attribute or relationship concerned, when one is known.
    public var property: String?
    /// The underlying error, such as a `DecodingError` from a composite attribute.
    public var cause: (any Error & Sendable)?

    /// Creates an error.
    public init(
        _ code: Code,
        _ message: String,
        entity: String? = nil,
        property: String? = nil,
        cause: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.entity = entity
        self.property = property
        self.cause = cause
    }

    public var description: String {
        var text = message
        switch (entity, property) {
        case (let entity?, let property?): text += " (\(entity).\(property))"
        case (let entity?, nil): text += " (\(entity))"
        case (nil, let property?): text += " (\(property))"
        case (nil, nil): break
        }
        if let cause { text += ": \(cause)" }
        return text
    }

    /// The same error, with the entity and property filled in where they were missing.
    func locating(entity: String, property: String?) -> SchemaError {
        var copy = self
        if copy.entity == nil { copy.entity = entity }
        if copy.property == nil { copy.property = property }
        return copy
    }
}

extension SchemaError {
    /// See ``Code/duplicateEntity``.
    public static let duplicateEntity = Code.duplicateEntity
    /// See ``Code/ambiguousInverse``.
    public static let ambiguousInverse = Code.ambiguousInverse
    /// See ``Code/invalidInverse``.
    public static let invalidInverse = Code.invalidInverse
    /// See ``Code/invalidUniqueConstraint``.
    public static let invalidUniqueConstraint = Code.invalidUniqueConstraint
    /// See ``Code/invalidIndex``.
    public static let invalidIndex = Code.invalidIndex
    /// See ``Code/invalidModelCount``.
    public static let invalidModelCount = Code.invalidModelCount
    /// See ``Code/duplicateOriginalName``.
    public static let duplicateOriginalName = Code.duplicateOriginalName
    /// See ``Code/duplicateProperty``.
    public static let duplicateProperty = Code.duplicateProperty
    /// See ``Code/unknownDestination``.
    public static let unknownDestination = Code.unknownDestination
    /// See ``Code/typeMismatch``.
    public static let typeMismatch = Code.typeMismatch
    /// See ``Code/valueOutOfRange``.
    public static let valueOutOfRange = Code.valueOutOfRange
    /// See ``Code/invalidRawValue``.
    public static let invalidRawValue = Code.invalidRawValue
    /// See ``Code/compositeCoding``.
    public static let compositeCoding = Code.compositeCoding
    /// See ``Code/transformerFailed``.
    public static let transformerFailed = Code.transformerFailed
    /// See ``Code/valueCountMismatch``.
    public static let valueCountMismatch = Code.valueCountMismatch
}
