// The factories a generated `_$<property>()` function calls to describe one persisted property.
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
// call, so each family repeats the macro's parameter list.

// MARK: - Unannotated properties

extension _$PropertyBinding {
    /// Not API: a property of a scalar type, or an optional or array of one.
    public static func property<Value: AttributeValueConvertible>(
        _ name: String,
        keyPath: KeyPath<Model, Value> & Sendable,
        get: @escaping @Sendable (Model) -> Value,
        set: @escaping @Sendable (Model, Value) -> Void,
        hasDefaultValue: Bool
    ) -> _$PropertyBinding {
        makeAttribute(name, .convertible, keyPath, get, set, hasDefaultValue, [], nil, nil)
    }

    /// Not API: a property of a `Codable` `RawRepresentable` type, stored as its raw value.
    public static func property<Value: RawRepresentable & Codable & SendableMetatype>(
        _ name: String,
        keyPath: KeyPath<Model, Value> & Sendable,
        get: @escaping @Sendable (Model) -> Value,
        set: @escaping @Sendable (Model, Value) -> Void,
        hasDefaultValue: Bool
    ) -> _$PropertyBinding where Value.RawValue: AttributeValueConvertible {
        makeAttribute(name, .rawRepresentable, keyPath, get, set, hasDefaultValue, [], nil, nil)
    }

    /// Not API: a property of a `RawRepresentable` type, stored as its raw value.
    public static func property<Value: RawRepresentable & SendableMetatype>(
        _ name: String,
        keyPath: KeyPath<Model, Value> & Sendable,
        get: @escaping @Sendable (Model) -> Value,
        set: @escaping @Sendable (Model, Value) -> Void,
        hasDefaultValue: Bool
    ) -> _$PropertyBinding where Value.RawValue: AttributeValueConvertible {
        makeAttribute(name, .rawRepresentable, keyPath, get, set, hasDefaultValue, [], nil, nil)
    }

    /// Not API: a property of an optional of a `RawRepresentable` type, stored as raw values.
    public static func property<Value: RawRepresentable & SendableMetatype>(
        _ name: String,
        keyPath: KeyPath<Model, Value?> & Sendable,
        get: @escaping @Sendable (Model) -> Value?,
        set: @escaping @Sendable (Model, Value?) -> Void,
        hasDefaultValue: Bool
    ) -> _$PropertyBinding where Value.RawValue: AttributeValueConvertible {
        let codec = AttributeCodec<Value>.rawRepresentable.optional
        return makeAttribute(name, codec, keyPath, get, set, hasDefaultValue, [], nil, nil)
    }

    /// Not API: a property of an optional of a `Codable` `RawRepresentable` type, stored as raw values.
    public static func property<Value: RawRepresentable & Codable & SendableMetatype>(
        _ name: String,
        keyPath: KeyPath<Model, Value?> & Sendable,
        get: @escaping @Sendable (Model) -> Value?,
        set: @escaping @Sendable (Model, Value?) -> Void,
        hasDefaultValue: Bool
    ) -> _$PropertyBinding where Value.RawValue: AttributeValueConvertible {
        let codec = AttributeCodec<Value>.rawRepresentable.optional
        return makeAttribute(name, codec, keyPath, get, set, hasDefaultValue, [], nil, nil)
    }

    /// Not API: a property of an array of a `RawRepresentable` type, stored as raw values.
    public static func property<Value: RawRepresentable & SendableMetatype>(
        _ name: String,
        keyPath: KeyPath<Model, [Value]> & Sendable,
        get: @escaping @Sendable (Model) -> [Value],
        set: @escaping @Sendable (Model, [Value]) -> Void,
        hasDefaultValue: Bool
    ) -> _$PropertyBinding where Value.RawValue: AttributeValueConvertible {
        let codec = AttributeCodec<Value>.rawRepresentable.array
        return makeAttribute(name, codec, keyPath, get, set, hasDefaultValue, [], nil, nil)
    }

    /// Not API: a property of an array of a `Codable` `RawRepresentable` type, stored as raw values.
    public static func property<Value: RawRepresentable & Codable & SendableMetatype>(
        _ name: String,
        keyPath: KeyPath<Model, [Value]> & Sendable,
        get: @escaping @Sendable (Model) -> [Value],
        set: @escaping @Sendable (Model, [Value]) -> Void,
        hasDefaultValue: Bool
    ) -> _$PropertyBinding where Value.RawValue: AttributeValueConvertible {
        let codec = AttributeCodec<Value>.rawRepresentable.array
        return makeAttribute(name, codec, keyPath, get, set, hasDefaultValue, [], nil, nil)
    }

    /// Not API: a property of any other `Codable` type: an optional or array of enums or
    /// composites, or a composite.
    public static func property<Value: Codable & SendableMetatype>(
        _ name: String,
        keyPath: KeyPath<Model, Value> & Sendable,
        get: @escaping @Sendable (Model) -> Value,
        set: @escaping @Sendable (Model, Value) -> Void,
        hasDefaultValue: Bool
    ) -> _$PropertyBinding {
        makeAttribute(name, .codable, keyPath, get, set, hasDefaultValue, [], nil, nil)
    }

    /// Not API: a to-one relationship with the default options.
    public static func property<Target: PersistentModel>(
        _ name: String,
        keyPath: KeyPath<Model, Target?> & Sendable,
        get: @escaping @Sendable (Model) -> Target?,
        set: @escaping @Sendable (Model, Target?) -> Void,
        hasDefaultValue: Bool
    ) -> _$PropertyBinding {
        makeRelationship(name, .toOne, keyPath, get, set, [], .nullify, 0, 0, nil, nil, nil)
    }

    /// Not API: a to-many relationship with the default options.
    public static func property<Target: PersistentModel>(
        _ name: String,
        keyPath: KeyPath<Model, [Target]> & Sendable,
        get: @escaping @Sendable (Model) -> [Target],
        set: @escaping @Sendable (Model, [Target]) -> Void,
        hasDefaultValue: Bool
    ) -> _$PropertyBinding {
        makeRelationship(name, .toMany, keyPath, get, set, [], .nullify, 0, 0, nil, nil, nil)
    }

    /// Not API: an optional to-many relationship with the default options.
    public static func property<Target: PersistentModel>(
        _ name: String,
        keyPath: KeyPath<Model, [Target]?> & Sendable,
        get: @escaping @Sendable (Model) -> [Target]?,
        set: @escaping @Sendable (Model, [Target]?) -> Void,
        hasDefaultValue: Bool
    ) -> _$PropertyBinding {
        makeRelationship(name, .optionalToMany, keyPath, get, set, [], .nullify, 0, 0, nil, nil, nil)
    }

    /// Not API: a non-optional to-one relationship, which Logbook does not support.
    @available(
        *,
        unavailable,
        message: "a to-one relationship must be optional: a fetched model starts without its related model"
    )
    public static func property<Target: PersistentModel>(
        _ name: String,
        keyPath: KeyPath<Model, Target> & Sendable,
        get: @escaping @Sendable (Model) -> Target,
        set: @escaping @Sendable (Model, Target) -> Void,
        hasDefaultValue: Bool
    ) -> _$PropertyBinding {
        preconditionFailure("unavailable")
    }

    /// Not API: a property of a type Logbook cannot store.
    @available(
        *,
        unavailable,
        message: """
            Logbook cannot persist a property of this type; use Bool, an integer, Double, Float, Decimal, \
            String, Date, UUID, URL, Data, a RawRepresentable enum or a Codable type (or an optional or array \
            of these), a @Model class, or mark the property @Transient
            """
    )
    public static func property<Value>(
        _ name: String,
        keyPath: KeyPath<Model, Value> & Sendable,
        get: @escaping @Sendable (Model) -> Value,
        set: @escaping @Sendable (Model, Value) -> Void,
        hasDefaultValue: Bool
    ) -> _$PropertyBinding {
        preconditionFailure("unavailable")
    }
}

// MARK: - @Attribute

extension _$PropertyBinding {
    /// Not API: an `@Attribute` of a scalar type, or an optional or array of one.
    public static func attribute<Value: AttributeValueConvertible>(
        _ name: String,
        keyPath: KeyPath<Model, Value> & Sendable,
        get: @escaping @Sendable (Model) -> Value,
        set: @escaping @Sendable (Model, Value) -> Void,
        hasDefaultValue: Bool,
        _ options: Schema.Attribute.Option...,
        originalName: String? = nil,
        hashModifier: String? = nil
    ) -> _$PropertyBinding {
        makeAttribute(name, .convertible, keyPath, get, set, hasDefaultValue, options, originalName, hashModifier)
    }

    /// Not API: an `@Attribute` of a `Codable` `RawRepresentable` type.
    public static func attribute<Value: RawRepresentable & Codable & SendableMetatype>(
        _ name: String,
        keyPath: KeyPath<Model, Value> & Sendable,
        get: @escaping @Sendable (Model) -> Value,
        set: @escaping @Sendable (Model, Value) -> Void,
        hasDefaultValue: Bool,
        _ options: Schema.Attribute.Option...,
        originalName: String? = nil,
        hashModifier: String? = nil
    ) -> _$PropertyBinding where Value.RawValue: AttributeValueConvertible {
        makeAttribute(name, .rawRepresentable, keyPath, get, set, hasDefaultValue, options, originalName, hashModifier)
    }

    /// Not API: an `@Attribute` of a `RawRepresentable` type.
    public static func attribute<Value: RawRepresentable & SendableMetatype>(
        _ name: String,
        keyPath: KeyPath<Model, Value> & Sendable,
        get: @escaping @Sendable (Model) -> Value,
        set: @escaping @Sendable (Model, Value) -> Void,
        hasDefaultValue: Bool,
        _ options: Schema.Attribute.Option...,
        originalName: String? = nil,
        hashModifier: String? = nil
    ) -> _$PropertyBinding where Value.RawValue: AttributeValueConvertible {
        makeAttribute(name, .rawRepresentable, keyPath, get, set, hasDefaultValue, options, originalName, hashModifier)
    }

    /// Not API: an `@Attribute` of an optional of a `RawRepresentable` type, stored as raw values.
    public static func attribute<Value: RawRepresentable & SendableMetatype>(
        _ name: String,
        keyPath: KeyPath<Model, Value?> & Sendable,
        get: @escaping @Sendable (Model) -> Value?,
        set: @escaping @Sendable (Model, Value?) -> Void,
        hasDefaultValue: Bool,
        _ options: Schema.Attribute.Option...,
        originalName: String? = nil,
        hashModifier: String? = nil
    ) -> _$PropertyBinding where Value.RawValue: AttributeValueConvertible {
        let codec = AttributeCodec<Value>.rawRepresentable.optional
        return makeAttribute(name, codec, keyPath, get, set, hasDefaultValue, options, originalName, hashModifier)
    }

    /// Not API: an `@Attribute` of an optional of a `Codable` `RawRepresentable` type, stored as raw values.
    public static func attribute<Value: RawRepresentable & Codable & SendableMetatype>(
        _ name: String,
        keyPath: KeyPath<Model, Value?> & Sendable,
        get: @escaping @Sendable (Model) -> Value?,
        set: @escaping @Sendable (Model, Value?) -> Void,
        hasDefaultValue: Bool,
        _ options: Schema.Attribute.Option...,
        originalName: String? = nil,
        hashModifier: String? = nil
    ) -> _$PropertyBinding where Value.RawValue: AttributeValueConvertible {
        let codec = AttributeCodec<Value>.rawRepresentable.optional
        return makeAttribute(name, codec, keyPath, get, set, hasDefaultValue, options, originalName, hashModifier)
    }

    /// Not API: an `@Attribute` of an array of a `RawRepresentable` type, stored as raw values.
    public static func attribute<Value: RawRepresentable & SendableMetatype>(
        _ name: String,
        keyPath: KeyPath<Model, [Value]> & Sendable,
        get: @escaping @Sendable (Model) -> [Value],
        set: @escaping @Sendable (Model, [Value]) -> Void,
        hasDefaultValue: Bool,
        _ options: Schema.Attribute.Option...,
        originalName: String? = nil,
        hashModifier: String? = nil
    ) -> _$PropertyBinding where Value.RawValue: AttributeValueConvertible {
        let codec = AttributeCodec<Value>.rawRepresentable.array
        return makeAttribute(name, codec, keyPath, get, set, hasDefaultValue, options, originalName, hashModifier)
    }

    /// Not API: an `@Attribute` of an array of a `Codable` `RawRepresentable` type, stored as raw values.
    public static func attribute<Value: RawRepresentable & Codable & SendableMetatype>(
        _ name: String,
        keyPath: KeyPath<Model, [Value]> & Sendable,
        get: @escaping @Sendable (Model) -> [Value],
        set: @escaping @Sendable (Model, [Value]) -> Void,
        hasDefaultValue: Bool,
        _ options: Schema.Attribute.Option...,
        originalName: String? = nil,
        hashModifier: String? = nil
    ) -> _$PropertyBinding where Value.RawValue: AttributeValueConvertible {
        let codec = AttributeCodec<Value>.rawRepresentable.array
        return makeAttribute(name, codec, keyPath, get, set, hasDefaultValue, options, originalName, hashModifier)
    }

    /// Not API: an `@Attribute` of any other `Codable` type.
    public static func attribute<Value: Codable & SendableMetatype>(
        _ name: String,
        keyPath: KeyPath<Model, Value> & Sendable,
        get: @escaping @Sendable (Model) -> Value,
        set: @escaping @Sendable (Model, Value) -> Void,
        hasDefaultValue: Bool,
        _ options: Schema.Attribute.Option...,
        originalName: String? = nil,
        hashModifier: String? = nil
    ) -> _$PropertyBinding {
        makeAttribute(name, .codable, keyPath, get, set, hasDefaultValue, options, originalName, hashModifier)
    }

    /// Not API: an `@Attribute` of a type Logbook cannot store.
    @available(
        *,
        unavailable,
        message: """
            '@Attribute' cannot persist a property of this type; use a scalar, a RawRepresentable enum or a \
            Codable type (or an optional or array of these), or '.transformable(by:)'; a relationship to a \
            @Model class takes '@Relationship'
            """
    )
    public static func attribute<Value>(
        _ name: String,
        keyPath: KeyPath<Model, Value> & Sendable,
        get: @escaping @Sendable (Model) -> Value,
        set: @escaping @Sendable (Model, Value) -> Void,
        hasDefaultValue: Bool,
        _ options: Schema.Attribute.Option...,
        originalName: String? = nil,
        hashModifier: String? = nil
    ) -> _$PropertyBinding {
        preconditionFailure("unavailable")
    }

    /// Not API: an `@Attribute(.unique)` of a type a unique constraint can hold.
    public static func uniqueAttribute<Value: _$UniqueAttributeValue>(
        _ name: String,
        keyPath: KeyPath<Model, Value> & Sendable,
        get: @escaping @Sendable (Model) -> Value,
        set: @escaping @Sendable (Model, Value) -> Void,
        hasDefaultValue: Bool,
        _ options: Schema.Attribute.Option...,
        originalName: String? = nil,
        hashModifier: String? = nil
    ) -> _$PropertyBinding {
        makeAttribute(name, .convertible, keyPath, get, set, hasDefaultValue, options, originalName, hashModifier)
    }

    /// Not API: an `@Attribute(.unique)` of a type a unique constraint cannot hold.
    @available(
        *,
        unavailable,
        message: "'.unique' requires an attribute of a numeric type, String or UUID, or an optional of one"
    )
    public static func uniqueAttribute<Value>(
        _ name: String,
        keyPath: KeyPath<Model, Value> & Sendable,
        get: @escaping @Sendable (Model) -> Value,
        set: @escaping @Sendable (Model, Value) -> Void,
        hasDefaultValue: Bool,
        _ options: Schema.Attribute.Option...,
        originalName: String? = nil,
        hashModifier: String? = nil
    ) -> _$PropertyBinding {
        preconditionFailure("unavailable")
    }

    /// Not API: an `@Attribute(.transformable(by:))` of the transformer's value type.
    public static func transformableAttribute<Transformer: AttributeTransformer>(
        _ name: String,
        keyPath: KeyPath<Model, Transformer.Value> & Sendable,
        get: @escaping @Sendable (Model) -> Transformer.Value,
        set: @escaping @Sendable (Model, Transformer.Value) -> Void,
        hasDefaultValue: Bool,
        transformer: Transformer.Type,
        _ options: Schema.Attribute.Option...,
        originalName: String? = nil,
        hashModifier: String? = nil
    ) -> _$PropertyBinding {
        let codec = AttributeCodec<Transformer.Value>.transformed(by: transformer)
        return makeAttribute(name, codec, keyPath, get, set, hasDefaultValue, options, originalName, hashModifier)
    }

    /// Not API: an `@Attribute(.transformable(by:))` of an optional of the transformer's value
    /// type.
    public static func transformableAttribute<Transformer: AttributeTransformer>(
        _ name: String,
        keyPath: KeyPath<Model, Transformer.Value?> & Sendable,
        get: @escaping @Sendable (Model) -> Transformer.Value?,
        set: @escaping @Sendable (Model, Transformer.Value?) -> Void,
        hasDefaultValue: Bool,
        transformer: Transformer.Type,
        _ options: Schema.Attribute.Option...,
        originalName: String? = nil,
        hashModifier: String? = nil
    ) -> _$PropertyBinding {
        let codec = AttributeCodec<Transformer.Value?>.optionalTransformed(by: transformer)
        return makeAttribute(name, codec, keyPath, get, set, hasDefaultValue, options, originalName, hashModifier)
    }

    /// Not API: an `@Attribute(.transformable(by:))` whose type does not match the transformer.
    @available(
        *,
        unavailable,
        message:
            "'.transformable(by:)' requires the property's type to be the transformer's Value, or an optional of it"
    )
    public static func transformableAttribute<Value, Transformer>(
        _ name: String,
        keyPath: KeyPath<Model, Value> & Sendable,
        get: @escaping @Sendable (Model) -> Value,
        set: @escaping @Sendable (Model, Value) -> Void,
        hasDefaultValue: Bool,
        transformer: Transformer.Type,
        _ options: Schema.Attribute.Option...,
        originalName: String? = nil,
        hashModifier: String? = nil
    ) -> _$PropertyBinding {
        preconditionFailure("unavailable")
    }
}

// MARK: - @Relationship(_ options…, deleteRule: …)

extension _$PropertyBinding {
    /// Not API: a to-one `@Relationship`.
    public static func relationship<Target: PersistentModel>(
        _ name: String,
        keyPath: KeyPath<Model, Target?> & Sendable,
        get: @escaping @Sendable (Model) -> Target?,
        set: @escaping @Sendable (Model, Target?) -> Void,
        hasDefaultValue: Bool,
        _ options: Schema.Relationship.Option...,
        deleteRule: Schema.Relationship.DeleteRule = .nullify,
        minimumModelCount: Int? = 0,
        maximumModelCount: Int? = 0,
        originalName: String? = nil,
        inverse: (PartialKeyPath<Target> & Sendable)? = nil,
        hashModifier: String? = nil
    ) -> _$PropertyBinding {
        makeRelationship(
            name,
            .toOne,
            keyPath,
            get,
            set,
            options,
            deleteRule,
            minimumModelCount,
            maximumModelCount,
            originalName,
            inverse,
            hashModifier
        )
    }

    /// Not API: a to-many `@Relationship`.
    public static func relationship<Target: PersistentModel>(
        _ name: String,
        keyPath: KeyPath<Model, [Target]> & Sendable,
        get: @escaping @Sendable (Model) -> [Target],
        set: @escaping @Sendable (Model, [Target]) -> Void,
        hasDefaultValue: Bool,
        _ options: Schema.Relationship.Option...,
        deleteRule: Schema.Relationship.DeleteRule = .nullify,
        minimumModelCount: Int? = 0,
        maximumModelCount: Int? = 0,
        originalName: String? = nil,
        inverse: (PartialKeyPath<Target> & Sendable)? = nil,
        hashModifier: String? = nil
    ) -> _$PropertyBinding {
        makeRelationship(
            name,
            .toMany,
            keyPath,
            get,
            set,
            options,
            deleteRule,
            minimumModelCount,
            maximumModelCount,
            originalName,
            inverse,
            hashModifier
        )
    }

    /// Not API: an optional to-many `@Relationship`.
    public static func relationship<Target: PersistentModel>(
        _ name: String,
        keyPath: KeyPath<Model, [Target]?> & Sendable,
        get: @escaping @Sendable (Model) -> [Target]?,
        set: @escaping @Sendable (Model, [Target]?) -> Void,
        hasDefaultValue: Bool,
        _ options: Schema.Relationship.Option...,
        deleteRule: Schema.Relationship.DeleteRule = .nullify,
        minimumModelCount: Int? = 0,
        maximumModelCount: Int? = 0,
        originalName: String? = nil,
        inverse: (PartialKeyPath<Target> & Sendable)? = nil,
        hashModifier: String? = nil
    ) -> _$PropertyBinding {
        makeRelationship(
            name,
            .optionalToMany,
            keyPath,
            get,
            set,
            options,
            deleteRule,
            minimumModelCount,
            maximumModelCount,
            originalName,
            inverse,
            hashModifier
        )
    }

    /// Not API: a `@Relationship` on a property that does not refer to models.
    @available(
        *,
        unavailable,
        message: """
            '@Relationship' requires an optional @Model class, an array of @Model classes, or an optional \
            array of them; a to-one relationship must be optional
            """
    )
    public static func relationship<Value>(
        _ name: String,
        keyPath: KeyPath<Model, Value> & Sendable,
        get: @escaping @Sendable (Model) -> Value,
        set: @escaping @Sendable (Model, Value) -> Void,
        hasDefaultValue: Bool,
        _ options: Schema.Relationship.Option...,
        deleteRule: Schema.Relationship.DeleteRule = .nullify,
        minimumModelCount: Int? = 0,
        maximumModelCount: Int? = 0,
        originalName: String? = nil,
        inverse: AnyKeyPath? = nil,
        hashModifier: String? = nil
    ) -> _$PropertyBinding {
        preconditionFailure("unavailable")
    }
}

// MARK: - @Relationship(_ deleteRule:, _ options…), the spelling of the WWDC23 talk

extension _$PropertyBinding {
    /// Not API: a to-one `@Relationship(.cascade)`.
    public static func relationship<Target: PersistentModel>(
        _ name: String,
        keyPath: KeyPath<Model, Target?> & Sendable,
        get: @escaping @Sendable (Model) -> Target?,
        set: @escaping @Sendable (Model, Target?) -> Void,
        hasDefaultValue: Bool,
        _ deleteRule: Schema.Relationship.DeleteRule,
        _ options: Schema.Relationship.Option...,
        minimumModelCount: Int? = 0,
        maximumModelCount: Int? = 0,
        originalName: String? = nil,
        inverse: (PartialKeyPath<Target> & Sendable)? = nil,
        hashModifier: String? = nil
    ) -> _$PropertyBinding {
        makeRelationship(
            name,
            .toOne,
            keyPath,
            get,
            set,
            options,
            deleteRule,
            minimumModelCount,
            maximumModelCount,
            originalName,
            inverse,
            hashModifier
        )
    }

    /// Not API: a to-many `@Relationship(.cascade)`.
    public static func relationship<Target: PersistentModel>(
        _ name: String,
        keyPath: KeyPath<Model, [Target]> & Sendable,
        get: @escaping @Sendable (Model) -> [Target],
        set: @escaping @Sendable (Model, [Target]) -> Void,
        hasDefaultValue: Bool,
        _ deleteRule: Schema.Relationship.DeleteRule,
        _ options: Schema.Relationship.Option...,
        minimumModelCount: Int? = 0,
        maximumModelCount: Int? = 0,
        originalName: String? = nil,
        inverse: (PartialKeyPath<Target> & Sendable)? = nil,
        hashModifier: String? = nil
    ) -> _$PropertyBinding {
        makeRelationship(
            name,
            .toMany,
            keyPath,
            get,
            set,
            options,
            deleteRule,
            minimumModelCount,
            maximumModelCount,
            originalName,
            inverse,
            hashModifier
        )
    }

    /// Not API: an optional to-many `@Relationship(.cascade)`.
    public static func relationship<Target: PersistentModel>(
        _ name: String,
        keyPath: KeyPath<Model, [Target]?> & Sendable,
        get: @escaping @Sendable (Model) -> [Target]?,
        set: @escaping @Sendable (Model, [Target]?) -> Void,
        hasDefaultValue: Bool,
        _ deleteRule: Schema.Relationship.DeleteRule,
        _ options: Schema.Relationship.Option...,
        minimumModelCount: Int? = 0,
        maximumModelCount: Int? = 0,
        originalName: String? = nil,
        inverse: (PartialKeyPath<Target> & Sendable)? = nil,
        hashModifier: String? = nil
    ) -> _$PropertyBinding {
        makeRelationship(
            name,
            .optionalToMany,
            keyPath,
            get,
            set,
            options,
            deleteRule,
            minimumModelCount,
            maximumModelCount,
            originalName,
            inverse,
            hashModifier
        )
    }

    /// Not API: a `@Relationship(.cascade)` on a property that does not refer to models.
    @available(
        *,
        unavailable,
        message: """
            '@Relationship' requires an optional @Model class, an array of @Model classes, or an optional \
            array of them; a to-one relationship must be optional
            """
    )
    public static func relationship<Value>(
        _ name: String,
        keyPath: KeyPath<Model, Value> & Sendable,
        get: @escaping @Sendable (Model) -> Value,
        set: @escaping @Sendable (Model, Value) -> Void,
        hasDefaultValue: Bool,
        _ deleteRule: Schema.Relationship.DeleteRule,
        _ options: Schema.Relationship.Option...,
        minimumModelCount: Int? = 0,
        maximumModelCount: Int? = 0,
        originalName: String? = nil,
        inverse: AnyKeyPath? = nil,
        hashModifier: String? = nil
    ) -> _$PropertyBinding {
        preconditionFailure("unavailable")
    }
}

// MARK: - Building bindings

extension _$PropertyBinding {
    private static func makeAttribute<Value: SendableMetatype>(
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

    private static func makeRelationship<Value: SendableMetatype, Target: PersistentModel>(
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
            }
        )
        return _$PropertyBinding(name: name, kind: .relationship(access))
    }
}

/// The three shapes a relationship property can have, and how each converts to and from an
/// array of models.
private struct RelationshipShape<Value, Target: PersistentModel>: Sendable {
    let isToMany: Bool
    let isOptional: Bool
    let models: @Sendable (Value) -> [any PersistentModel]
    let value: @Sendable ([any PersistentModel]) -> Value
}

extension RelationshipShape where Value == Target? {
    static var toOne: RelationshipShape {
        RelationshipShape(
            isToMany: false,
            isOptional: true,
            models: { value in value.map { [$0] } ?? [] },
            value: { models in
                precondition(models.count <= 1, "A to-one relationship holds at most one model")
                return models.first.map(cast(to: Target.self))
            }
        )
    }
}

extension RelationshipShape where Value == [Target] {
    static var toMany: RelationshipShape {
        RelationshipShape(
            isToMany: true,
            isOptional: false,
            models: { $0 },
            value: { models in models.map(cast(to: Target.self)) }
        )
    }
}

extension RelationshipShape where Value == [Target]? {
    static var optionalToMany: RelationshipShape {
        RelationshipShape(
            isToMany: true,
            isOptional: true,
            models: { $0 ?? [] },
            value: { models in models.map(cast(to: Target.self)) }
        )
    }
}

/// A function that casts a related model to the target type.
///
/// - Precondition: The model is of the target type; the context only relates models of the
///   types the schema says.
private func cast<Target: PersistentModel>(to target: Target.Type) -> @Sendable (any PersistentModel) -> Target {
    { model in
        guard let typed = model as? Target else {
            preconditionFailure("A \(type(of: model)) cannot be related where \(Target.self) is expected")
        }
        return typed
    }
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
