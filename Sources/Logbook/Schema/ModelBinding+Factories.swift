// The factories a generated `_$property_<name>()` function calls to describe one persisted
// property.
//
// `@Model` cannot tell from syntax alone whether `var stay: LivingAccommodation?` is a
// relationship or a Codable attribute, nor whether a type can be stored at all. The generated
// code therefore calls one of these overloaded factories and lets the type checker decide.
// Each family ends with an unconstrained overload marked unavailable, so that an unsupported
// type is a compile-time error, reported inside the expansion on the property, with a message
// that says what would work.
//
// The families mirror the macros: `property` for a property with no schema macro,
// `attribute`, `uniqueAttribute` and `transformableAttribute` for `@Attribute`, and
// `relationship` for `@Relationship`. The macro appends the user's own macro arguments to the
// call, so each family repeats the macro's parameter list. The families live in
// `ModelBinding+PropertyFactories.swift`, `+AttributeFactories.swift` and
// `+RelationshipFactories.swift`; this file builds the bindings they return.

// MARK: - Building bindings

extension _$PropertyBinding {
    /// The binding of an attribute: its description, and closures that convert through the
    /// codec and reach the backing field.
    static func makeAttribute<Value: SendableMetatype>(
        _ name: String,
        _ codec: AttributeCodec<Value>,
        _ keyPath: KeyPath<Model, Value> & Sendable,
        _ get: @escaping @Sendable (Model) -> Value,
        _ set: @escaping @Sendable (Model, Value) -> Void,
        _ hasDefaultValue: Bool,
        _ options: [Schema.Attribute.Option],
        _ originalName: String?,
        _ hashModifier: String?,
        read: (@Sendable (any PersistentModel) throws -> AttributeValue)? = nil,
        plainRead: AttributeReader? = nil
    ) -> _$PropertyBinding {
        let attribute = Schema.Attribute(
            name: name,
            type: codec.type,
            hasDefaultValue: hasDefaultValue,
            originalName: originalName,
            options: options,
            hashModifier: hashModifier
        )
        let access = AttributeAccess<Model>(
            attribute: attribute,
            keyPath: keyPath,
            codec: codec,
            read: read ?? { model in
                do {
                    return try codec.encode(get(downcast(model, to: Model.self)))
                } catch let error as SchemaError {
                    throw error.locating(entity: Model._$binding.entityName, property: name)
                }
            },
            plainRead: plainRead,
            write: { model, stored in
                do {
                    set(model, try codec.decode(stored))
                } catch let error as SchemaError {
                    throw error.locating(entity: Model._$binding.entityName, property: name)
                }
            },
            observedWrite: { model, stored in
                let value: Value
                do {
                    value = try codec.decode(stored)
                } catch let error as SchemaError {
                    throw error.locating(entity: Model._$binding.entityName, property: name)
                }
                model._$observationRegistrar.withMutation(of: model, keyPath: keyPath) { set(model, value) }
            }
        )
        return _$PropertyBinding(name: name, kind: .attribute(access))
    }

    /// The binding of an attribute of a scalar type, or an optional or array of one, whose value
    /// `read` converts: a closure the model's module compiles for the property's type, as
    /// ``RelationshipAccessors`` are. Through the codec, each read passed the value through the
    /// runtime's generic machinery, about 170 instructions per attribute of every model saved.
    @usableFromInline
    static func makeConvertibleAttribute<Value: AttributeValueConvertible>(
        _ name: String,
        _ keyPath: KeyPath<Model, Value> & Sendable,
        _ get: @escaping @Sendable (Model) -> Value,
        _ set: @escaping @Sendable (Model, Value) -> Void,
        _ hasDefaultValue: Bool,
        _ options: [Schema.Attribute.Option],
        _ originalName: String?,
        _ hashModifier: String?,
        read: @escaping @Sendable (any PersistentModel) -> AttributeValue
    ) -> _$PropertyBinding {
        makeAttribute(
            name,
            .convertible,
            keyPath,
            get,
            set,
            hasDefaultValue,
            options,
            originalName,
            hashModifier,
            read: read,
            plainRead: AttributeReader(read: read)
        )
    }

    /// The binding of a relationship: its declaration, its target type, and the closures that
    /// reach its backing field.
    @usableFromInline
    static func makeRelationship(
        _ name: String,
        _ accessors: RelationshipAccessors<Model>,
        _ keyPath: AnyKeyPath & Sendable,
        _ options: [Schema.Relationship.Option],
        _ deleteRule: Schema.Relationship.DeleteRule,
        _ minimumModelCount: Int?,
        _ maximumModelCount: Int?,
        _ originalName: String?,
        _ inverse: (AnyKeyPath & Sendable)?,
        _ hashModifier: String?
    ) -> _$PropertyBinding {
        let access = RelationshipAccess<Model>(
            name: name,
            originalName: originalName,
            targetType: accessors.targetType,
            isToMany: accessors.isToMany,
            isOptional: accessors.isOptional,
            deleteRule: deleteRule,
            minimumModelCount: minimumModelCount == 0 ? nil : minimumModelCount,
            maximumModelCount: maximumModelCount == 0 ? nil : maximumModelCount,
            options: options,
            hashModifier: hashModifier,
            inverseKeyPath: inverse,
            keyPath: keyPath,
            read: accessors.read,
            write: accessors.write,
            load: accessors.load,
            clear: accessors.clear,
            toOne: accessors.one
        )
        return _$PropertyBinding(name: name, kind: .relationship(access))
    }
}

/// How the context reads and writes a to-one relationship's one model, without an array. The
/// closures are fields of a struct, not optionals of their own: a closure stored in an optional
/// takes the most general calling convention, and every call went through a thunk back.
@usableFromInline
struct OneModelAccessors: Sendable {
    /// Reads the related model from the backing field, without observation or faults.
    let read: @Sendable (any PersistentModel) -> (any PersistentModel)?
    /// Writes the backing field, inside the registrar's `withMutation` when `observed`, without
    /// change tracking.
    let write: @Sendable (any PersistentModel, (any PersistentModel)?, _ observed: Bool) -> Void

    @usableFromInline
    init(
        read: @escaping @Sendable (any PersistentModel) -> (any PersistentModel)?,
        write: @escaping @Sendable (any PersistentModel, (any PersistentModel)?, _ observed: Bool) -> Void
    ) {
        self.read = read
        self.write = write
    }
}

/// How the context reads and writes the backing field of a relationship, in each of the three
/// shapes a relationship property can have.
///
/// The closures are made by inlinable code, which the model's own module compiles for the
/// property's types. Made in Logbook, generic over the property's type, every call passed the
/// value through the runtime's generic machinery (its type metadata, a buffer for it, its value
/// witnesses): 170 to 310 instructions to read or set one relationship, which every change of a
/// relationship and every save does several times per model.
@usableFromInline
struct RelationshipAccessors<Model: PersistentModel>: Sendable {
    let targetType: any PersistentModel.Type
    let isToMany: Bool
    let isOptional: Bool
    let read: @Sendable (any PersistentModel) -> [any PersistentModel]
    let write: @Sendable (any PersistentModel, [any PersistentModel], _ observed: Bool) -> Void
    let load: @Sendable (any PersistentModel, any RelatedModelLoader) -> Void
    let clear: @Sendable (any PersistentModel) -> Void
    /// For a to-one relationship, its model alone; `nil` for the to-many shapes.
    let one: OneModelAccessors?

    @usableFromInline
    init(
        targetType: any PersistentModel.Type,
        isToMany: Bool,
        isOptional: Bool,
        read: @escaping @Sendable (any PersistentModel) -> [any PersistentModel],
        write: @escaping @Sendable (any PersistentModel, [any PersistentModel], _ observed: Bool) -> Void,
        load: @escaping @Sendable (any PersistentModel, any RelatedModelLoader) -> Void,
        clear: @escaping @Sendable (any PersistentModel) -> Void,
        one: OneModelAccessors? = nil
    ) {
        self.targetType = targetType
        self.isToMany = isToMany
        self.isOptional = isOptional
        self.read = read
        self.write = write
        self.load = load
        self.clear = clear
        self.one = one
    }

    /// Sets the backing field, inside the registrar's `withMutation` when `observed`.
    @inlinable
    static func setField<Value>(
        _ model: Model,
        _ value: Value,
        _ observed: Bool,
        _ keyPath: KeyPath<Model, Value> & Sendable,
        _ set: @Sendable (Model, Value) -> Void
    ) {
        if observed {
            model._$observationRegistrar.withMutation(of: model, keyPath: keyPath) { set(model, value) }
        } else {
            set(model, value)
        }
    }

    /// An optional model: `var stay: LivingAccommodation?`.
    @inlinable
    static func toOne<Target: PersistentModel>(
        _ keyPath: KeyPath<Model, Target?> & Sendable,
        _ get: @escaping @Sendable (Model) -> Target?,
        _ set: @escaping @Sendable (Model, Target?) -> Void
    ) -> Self {
        Self(
            targetType: Target.self,
            isToMany: false,
            isOptional: true,
            read: { model in existentials(get(downcast(model, to: Model.self))) },
            write: { model, models, observed in
                setField(downcast(model, to: Model.self), single(models, as: Target.self), observed, keyPath, set)
            },
            load: { model, loader in set(downcast(model, to: Model.self), loader.model(Target.self)) },
            clear: { model in set(downcast(model, to: Model.self), nil) },
            one: OneModelAccessors(
                read: { model in get(downcast(model, to: Model.self)) },
                write: { model, related, observed in
                    let value = related.map { downcast($0, to: Target.self) }
                    setField(downcast(model, to: Model.self), value, observed, keyPath, set)
                }
            )
        )
    }

    /// An array of models: `var bucketList: [BucketListItem]`.
    @inlinable
    static func toMany<Target: PersistentModel>(
        _ keyPath: KeyPath<Model, [Target]> & Sendable,
        _ get: @escaping @Sendable (Model) -> [Target],
        _ set: @escaping @Sendable (Model, [Target]) -> Void
    ) -> Self {
        Self(
            targetType: Target.self,
            isToMany: true,
            isOptional: false,
            read: { model in existentials(get(downcast(model, to: Model.self))) },
            write: { model, models, observed in
                setField(downcast(model, to: Model.self), typed(models, as: Target.self), observed, keyPath, set)
            },
            load: { model, loader in set(downcast(model, to: Model.self), loader.models(Target.self)) },
            clear: { model in set(downcast(model, to: Model.self), []) }
        )
    }

    /// An optional array of models: `var bucketList: [BucketListItem]? = []`. Logbook writes an
    /// empty array, never `nil`.
    @inlinable
    static func optionalToMany<Target: PersistentModel>(
        _ keyPath: KeyPath<Model, [Target]?> & Sendable,
        _ get: @escaping @Sendable (Model) -> [Target]?,
        _ set: @escaping @Sendable (Model, [Target]?) -> Void
    ) -> Self {
        Self(
            targetType: Target.self,
            isToMany: true,
            isOptional: true,
            read: { model in
                guard let value = get(downcast(model, to: Model.self)) else { return [] }
                return existentials(value)
            },
            write: { model, models, observed in
                setField(downcast(model, to: Model.self), typed(models, as: Target.self), observed, keyPath, set)
            },
            load: { model, loader in set(downcast(model, to: Model.self), loader.models(Target.self)) },
            clear: { model in set(downcast(model, to: Model.self), []) }
        )
    }
}

/// Related models as existentials, element by element: converting `[Target]` to
/// `[any PersistentModel]` as a whole is a checked cast of every element in code that is not
/// specialised.
@inlinable
func existentials<Target: PersistentModel>(_ models: [Target]) -> [any PersistentModel] {
    var erased: [any PersistentModel] = []
    erased.reserveCapacity(models.count)
    for model in models { erased.append(model) }
    return erased
}

/// A to-one relationship's model, if any, as an array of existentials. `guard let` rather than
/// `Optional.map`: in code that is not specialised, the generic `map` looked up the metadata of
/// `Target?` on every call.
@inlinable
func existentials<Target: PersistentModel>(_ model: Target?) -> [any PersistentModel] {
    guard let model else { return [] }
    return [model]
}

/// Related models as the target type, element by element: `map` here, in code that is not
/// specialised, went through the generic collection machinery for every element.
@inlinable
func typed<Target: PersistentModel>(_ models: [any PersistentModel], as _: Target.Type) -> [Target] {
    var result: [Target] = []
    result.reserveCapacity(models.count)
    for model in models { result.append(downcast(model, to: Target.self)) }
    return result
}

/// The one model of a to-one relationship, given as an array, as the target type.
///
/// - Precondition: At most one model, of the target type.
@inlinable
func single<Target: PersistentModel>(_ models: [any PersistentModel], as _: Target.Type) -> Target? {
    precondition(models.count <= 1, "A to-one relationship holds at most one model")
    guard let model = models.first else { return nil }
    return downcast(model, to: Target.self)
}

// MARK: - Unique attribute values

/// Not API: a type a unique constraint can hold: the numeric types, `String`, `UUID`, and
/// optionals of them.
public protocol _$UniqueAttributeValue: AttributeValueConvertible {}

extension Int: _$UniqueAttributeValue {}
extension Int8: _$UniqueAttributeValue {}
extension Int16: _$UniqueAttributeValue {}
extension Int32: _$UniqueAttributeValue {}
extension Int64: _$UniqueAttributeValue {}
extension UInt: _$UniqueAttributeValue {}
extension UInt8: _$UniqueAttributeValue {}
extension UInt16: _$UniqueAttributeValue {}
extension UInt32: _$UniqueAttributeValue {}
extension UInt64: _$UniqueAttributeValue {}
extension Double: _$UniqueAttributeValue {}
extension Float: _$UniqueAttributeValue {}
extension Decimal: _$UniqueAttributeValue {}
extension String: _$UniqueAttributeValue {}
extension UUID: _$UniqueAttributeValue {}
extension Optional: _$UniqueAttributeValue where Wrapped: _$UniqueAttributeValue {}
