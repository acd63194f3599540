/// Not API: how Logbook reads and writes the persisted properties of one model type. `@Model`
/// generates it as the static `_$binding`; only generated code and the Logbook module use it.
///
/// The binding joins the pure description of each property (``Schema/Attribute``, and what
/// becomes a ``Schema/Relationship`` once the schema pairs up inverses) with closures that
/// reach the property's backing field. The description is what a ``Schema`` is made of; the
/// closures are what a context uses to move values between model objects and the log.
///
/// Building a binding touches no other model type: a relationship holds its target's metatype
/// and nothing else, so bindings of types that refer to each other never wait on each other's
/// static initialisation. ``Schema`` looks targets up later, when it resolves inverses.
///
/// The context layer calls:
/// - ``properties``, in index order, and ``index(of:)``;
/// - for an attribute (``_$PropertyBinding/Kind/attribute(_:)``): `read` (raw, for saving),
///   `write` (raw, no observation, no change tracking) and `observedWrite` (notifies observers,
///   records no change: for rollback and merges);
/// - for a relationship (``_$PropertyBinding/Kind/relationship(_:)``): the same three, with
///   arrays of models (zero or one element for a to-one), and `targetType`.
public struct _$ModelBinding<Model: PersistentModel>: Sendable {
    /// The entity name: the unqualified class name.
    let entityName: String
    /// The persisted properties, in declaration order; a property's position is its index.
    let properties: [_$PropertyBinding<Model>]
    /// The property names of each `#Unique` constraint the class declares, as written.
    let uniquenessConstraints: [[String]]
    /// The property names of each `#Index` the class declares, as written.
    let indexes: [[String]]
    /// The model class's superclass, when that is a model class too.
    let supertype: (any PersistentModel.Type)?
    let indexByName: [String: Int]

    /// Not API: called by the code `@Model` generates.
    public init(
        entityName: String,
        properties: [_$PropertyBinding<Model>],
        uniquenessConstraints: [[String]] = [],
        indexes: [[String]] = []
    ) {
        self.entityName = entityName
        self.properties = properties
        self.uniquenessConstraints = uniquenessConstraints
        self.indexes = indexes
        self.supertype = nil
        self.indexByName = Dictionary(
            properties.enumerated().map { ($0.element.name, $0.offset) },
            uniquingKeysWith: { first, _ in first }
        )
    }

    /// The index of the persisted property with this name.
    func index(of name: String) -> Int? {
        indexByName[name]
    }

    /// The entity as the model type declares it: attributes, and relationships with their
    /// explicit inverses only.
    ///
    /// A `#Unique` constraint over one property becomes that property's `unique` option, so
    /// that it is in every way the constraint `@Attribute(.unique)` declares; a constraint over
    /// several properties stays a constraint of the entity.
    ///
    /// Reads the entity names of relationship targets, so it must not run during the static
    /// initialisation of another binding.
    ///
    /// - Throws: ``SchemaError/Code/invalidUniqueConstraint`` for a constraint or an index that
    ///   names no persisted property.
    func declaredEntity() throws(SchemaError) -> DeclaredEntity {
        var attributes: [Schema.Attribute] = []
        var relationships: [DeclaredRelationship] = []
        for property in properties {
            switch property.kind {
            case .attribute(let access):
                attributes.append(access.attribute)
            case .relationship(let access):
                relationships.append(try access.declaration(entityName: entityName))
            }
        }
        var composite: [[String]] = []
        for constraint in uniquenessConstraints {
            let names = constraint.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            guard names.count == 1 else {
                composite.append(names)
                continue
            }
            if let attribute = attributes.firstIndex(where: { $0.name == names[0] }) {
                if !attributes[attribute].isUnique { attributes[attribute].options.append(.unique) }
            } else if let relationship = relationships.firstIndex(where: { $0.relationship.name == names[0] }) {
                if !relationships[relationship].relationship.isUnique {
                    relationships[relationship].relationship.options.append(.unique)
                }
            } else {
                composite.append(names)
            }
        }
        return DeclaredEntity(
            name: entityName,
            attributes: attributes,
            relationships: relationships,
            uniquenessConstraints: composite,
            indexes: indexes,
            superentityName: supertype.map { targetBindingInfo($0).entityName }
        )
    }
}

/// Not API: the binding of one persisted property. Generated code creates it with the
/// factories in `ModelBinding+Factories.swift`.
public struct _$PropertyBinding<Model: PersistentModel>: Sendable {
    /// The property's name.
    let name: String
    /// Whether the property is an attribute or a relationship, and how to reach it.
    let kind: Kind

    enum Kind: Sendable {
        case attribute(AttributeAccess<Model>)
        case relationship(RelationshipAccess<Model>)
    }

    init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }

    /// The key path of the model's public property.
    var keyPath: AnyKeyPath & Sendable {
        switch kind {
        case .attribute(let access): access.keyPath
        case .relationship(let access): access.keyPath
        }
    }
}

/// How to reach a persisted attribute.
struct AttributeAccess<Model: PersistentModel>: Sendable {
    /// The attribute's description.
    let attribute: Schema.Attribute
    /// The key path of the model's public property.
    let keyPath: AnyKeyPath & Sendable
    /// The property's `AttributeCodec`, for `_$ModelStorage._$decodeWithBinding`.
    let codec: any Sendable
    /// Reads the backing field, without observation or fault handling. The model, taken as an
    /// existential (as the context holds it), must be a `Model`: the closure casts it itself.
    let read: @Sendable (any PersistentModel) throws -> AttributeValue
    /// ``read`` for an attribute whose value converts without a codec that can fail (a scalar,
    /// or an optional or array of one), as the model's module compiled it; `nil` for the
    /// others. Called directly, it skips the conversions to a throwing closure that made each
    /// read of ``read`` pass through three reabstraction thunks, about 70 instructions.
    let plainRead: AttributeReader?
    /// Writes the backing field, without observation or change tracking.
    let write: @Sendable (Model, AttributeValue) throws -> Void
    /// Writes the backing field inside the observation registrar's `withMutation`, without
    /// change tracking.
    let observedWrite: @Sendable (Model, AttributeValue) throws -> Void
}

/// A closure that reads an attribute's value, in a struct of its own: a closure stored in an
/// optional or an array directly is converted to the most general calling convention, and
/// every call then goes through a thunk that converts it back.
struct AttributeReader: Sendable {
    let read: @Sendable (any PersistentModel) -> AttributeValue
}

/// Makes the models a relationship of one stored object leads to, as the relationship's
/// target type: what ``RelationshipAccess/load`` asks for when it resolves a fault.
@usableFromInline
protocol RelatedModelLoader {
    /// Every related model, in the relationship's order.
    func models<Target: PersistentModel>(_: Target.Type) -> [Target]
    /// The related model of a to-one relationship, if any.
    func model<Target: PersistentModel>(_: Target.Type) -> Target?
}

/// How to reach a persisted relationship.
struct RelationshipAccess<Model: PersistentModel>: Sendable {
    let name: String
    let originalName: String?
    let targetType: any PersistentModel.Type
    let isToMany: Bool
    let isOptional: Bool
    let deleteRule: Schema.Relationship.DeleteRule
    let minimumModelCount: Int?
    let maximumModelCount: Int?
    let options: [Schema.Relationship.Option]
    let hashModifier: String?
    /// The explicit inverse, a key path of the target type's public property.
    let inverseKeyPath: (AnyKeyPath & Sendable)?
    /// The key path of the model's public property.
    let keyPath: AnyKeyPath & Sendable

    // The closures take the model as `any PersistentModel`, which must be a `Model`: the
    // context holds models that way, and each closure, compiled for the property's types (see
    // `RelationshipAccessors`), converts it with `downcast(_:to:)` itself. A closure taking
    // `Model`, wrapped by the context in one taking `any PersistentModel`, cost a call and a
    // conversion of the calling convention on every access.

    /// Reads the related models from the backing field, without observation or faults.
    let read: @Sendable (any PersistentModel) -> [any PersistentModel]
    /// Writes the backing field, inside the observation registrar's `withMutation` when
    /// `observed`, without change tracking.
    ///
    /// - Precondition: Every model is of the target type; at most one for a to-one.
    let write: @Sendable (any PersistentModel, [any PersistentModel], _ observed: Bool) -> Void
    /// Writes the backing field with the related models a loader makes of the target type,
    /// without observation or change tracking: how a fault is resolved, with no array of
    /// existentials on the way.
    let load: @Sendable (any PersistentModel, any RelatedModelLoader) -> Void
    /// Empties the backing field (`nil` for a to-one, an empty array for a to-many), without
    /// observation or change tracking: how a context that goes away lets go of related models.
    let clear: @Sendable (any PersistentModel) -> Void
    /// For a to-one relationship, reading and writing its one model without an array.
    let toOne: OneModelAccessors?

    /// The relationship as declared, with the target's entity name and the explicit inverse's
    /// property name.
    func declaration(entityName: String) throws(SchemaError) -> DeclaredRelationship {
        let target = targetBindingInfo(targetType)
        var inverseName: String?
        if let inverseKeyPath {
            guard let name = target.propertyName(inverseKeyPath) else {
                throw SchemaError(
                    .invalidInverse,
                    "The inverse given for this relationship is not a persisted property of \(target.entityName)",
                    entity: entityName,
                    property: name
                )
            }
            inverseName = name
        }
        let relationship = Schema.Relationship(
            name: name,
            destination: target.entityName,
            isToMany: isToMany,
            isOptional: isOptional,
            deleteRule: deleteRule,
            minimumModelCount: minimumModelCount,
            maximumModelCount: maximumModelCount,
            inverseName: nil,
            originalName: originalName,
            options: options,
            hashModifier: hashModifier
        )
        return DeclaredRelationship(relationship: relationship, explicitInverse: inverseName)
    }
}

/// What a schema needs from another model type's binding, read through an opened existential.
struct TargetBindingInfo {
    let entityName: String
    let propertyName: (AnyKeyPath) -> String?
}

func targetBindingInfo(_ type: any PersistentModel.Type) -> TargetBindingInfo {
    func open<Target: PersistentModel>(_ type: Target.Type) -> TargetBindingInfo {
        let binding = Target._$binding
        return TargetBindingInfo(entityName: binding.entityName) { keyPath in
            binding.properties.first { $0.keyPath == keyPath }?.name
        }
    }
    return open(type)
}

/// An entity as one model type declares it, before a schema pairs up inverses.
struct DeclaredEntity: Sendable {
    let name: String
    let attributes: [Schema.Attribute]
    let relationships: [DeclaredRelationship]
    /// `#Unique` constraints over several properties (or naming no property, which validation
    /// reports).
    var uniquenessConstraints: [[String]] = []
    /// `#Index` declarations.
    var indexes: [[String]] = []
    /// The entity of the model's superclass, when it is a subclass of a model class.
    var superentityName: String?
}

/// A relationship as declared: its explicit inverse, if any, is not resolved yet.
struct DeclaredRelationship: Sendable {
    var relationship: Schema.Relationship
    let explicitInverse: String?
}
