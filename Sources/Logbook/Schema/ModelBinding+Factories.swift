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
        _ hashModifier: String?
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
            read: { model in
                do {
                    return try codec.encode(get(model))
                } catch let error as SchemaError {
                    throw error.locating(entity: Model._$binding.entityName, property: name)
                }
            },
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

    /// The binding of a relationship: its declaration, its target type, and closures that
    /// convert between the property's shape and arrays of models.
    static func makeRelationship<Value: SendableMetatype, Target: PersistentModel>(
        _ name: String,
        _ shape: RelationshipShape<Value, Target>,
        _ keyPath: KeyPath<Model, Value> & Sendable,
        _ get: @escaping @Sendable (Model) -> Value,
        _ set: @escaping @Sendable (Model, Value) -> Void,
        _ options: [Schema.Relationship.Option],
        _ deleteRule: Schema.Relationship.DeleteRule,
        _ minimumModelCount: Int?,
        _ maximumModelCount: Int?,
        _ originalName: String?,
        _ inverse: (PartialKeyPath<Target> & Sendable)?,
        _ hashModifier: String?
    ) -> _$PropertyBinding {
        // Made once: converting an empty array for each model looked up the target's array type.
        // `nonisolated(unsafe)`: `nil` or an empty array, which references no model and never
        // changes. (A generic wrapper that was `Sendable` cost a metadata lookup per use.)
        nonisolated(unsafe) let empty = shape.value([])
        let access = RelationshipAccess<Model>(
            name: name,
            originalName: originalName,
            targetType: Target.self,
            isToMany: shape.isToMany,
            isOptional: shape.isOptional,
            deleteRule: deleteRule,
            minimumModelCount: minimumModelCount == 0 ? nil : minimumModelCount,
            maximumModelCount: maximumModelCount == 0 ? nil : maximumModelCount,
            options: options,
            hashModifier: hashModifier,
            inverseKeyPath: inverse,
            keyPath: keyPath,
            read: { model in shape.models(get(model)) },
            write: { model, models in set(model, shape.value(models)) },
            observedWrite: { model, models in
                let value = shape.value(models)
                model._$observationRegistrar.withMutation(of: model, keyPath: keyPath) { set(model, value) }
            },
            load: { model, loader in set(model, shape.loaded(loader)) },
            clear: { model in set(model, empty) },
            toOne: shape.single.map { single in
                RelationshipAccess<Model>.ToOne(
                    read: { model in single.model(get(model)) },
                    write: { model, related, observed in
                        let value = single.value(related)
                        if observed {
                            model._$observationRegistrar.withMutation(of: model, keyPath: keyPath) { set(model, value) }
                        } else {
                            set(model, value)
                        }
                    }
                )
            }
        )
        return _$PropertyBinding(name: name, kind: .relationship(access))
    }
}

/// The three shapes a relationship property can have, and how each converts to and from an
/// array of models.
struct RelationshipShape<Value, Target: PersistentModel>: Sendable {
    let isToMany: Bool
    let isOptional: Bool
    let models: @Sendable (Value) -> [any PersistentModel]
    let value: @Sendable ([any PersistentModel]) -> Value
    /// The value of the related models a loader makes, typed all the way.
    let loaded: @Sendable (any RelatedModelLoader) -> Value
    /// For a to-one relationship, its model from its value and its value from its model,
    /// without arrays; `nil` for the to-many shapes.
    var single: Single?

    struct Single: Sendable {
        let model: @Sendable (Value) -> (any PersistentModel)?
        let value: @Sendable ((any PersistentModel)?) -> Value
    }
}

extension RelationshipShape where Value == Target? {
    static var toOne: RelationshipShape {
        RelationshipShape(
            isToMany: false,
            isOptional: true,
            models: { existentials($0) },
            value: { models in
                precondition(models.count <= 1, "A to-one relationship holds at most one model")
                guard let model = models.first else { return nil }
                return cast(model, to: Target.self)
            },
            loaded: { $0.model(Target.self) },
            single: Single(
                model: { $0 },
                // `guard let`, not `Optional.map`, which looked up metadata in this unspecialised code.
                value: { model in
                    guard let model else { return nil }
                    return cast(model, to: Target.self)
                }
            )
        )
    }
}

extension RelationshipShape where Value == [Target] {
    static var toMany: RelationshipShape {
        RelationshipShape(
            isToMany: true,
            isOptional: false,
            models: { existentials($0) },
            value: { models in typed(models, as: Target.self) },
            loaded: { $0.models(Target.self) }
        )
    }
}

extension RelationshipShape where Value == [Target]? {
    static var optionalToMany: RelationshipShape {
        RelationshipShape(
            isToMany: true,
            isOptional: true,
            models: { value in
                guard let value else { return [] }
                return existentials(value)
            },
            value: { models in typed(models, as: Target.self) },
            loaded: { $0.models(Target.self) }
        )
    }
}

/// Related models as existentials, element by element: converting `[Target]` to
/// `[any PersistentModel]` as a whole is a checked cast of every element in code that is not
/// specialised.
@inline(__always)
func existentials<Target: PersistentModel>(_ models: [Target]) -> [any PersistentModel] {
    var erased: [any PersistentModel] = []
    erased.reserveCapacity(models.count)
    for model in models { erased.append(model) }
    return erased
}

/// A to-one relationship's model, if any, as an array of existentials. `guard let` rather than
/// `Optional.map`: in code that is not specialised, the generic `map` looked up the metadata of
/// `Target?` on every call.
@inline(__always)
func existentials<Target: PersistentModel>(_ model: Target?) -> [any PersistentModel] {
    guard let model else { return [] }
    return [model]
}

/// Related models as the target type, element by element: `map` here, in code that is not
/// specialised, went through the generic collection machinery for every element.
@inline(__always)
func typed<Target: PersistentModel>(_ models: [any PersistentModel], as _: Target.Type) -> [Target] {
    var result: [Target] = []
    result.reserveCapacity(models.count)
    for model in models { result.append(cast(model, to: Target.self)) }
    return result
}

/// A related model as the target type.
///
/// Model classes are final, so comparing metatypes settles it; the dynamic cast is only for a
/// class that is not.
///
/// - Precondition: The model is of the target type; the context only relates models of the
///   types the schema says.
@inline(__always)
private func cast<Target: PersistentModel>(_ model: any PersistentModel, to _: Target.Type) -> Target {
    if type(of: model) == Target.self { return unsafeDowncast(model, to: Target.self) }
    guard let typed = model as? Target else {
        preconditionFailure("A \(type(of: model)) cannot be related where \(Target.self) is expected")
    }
    return typed
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
