// The factories for persisted properties without `@Attribute` or `@Relationship`. See
// `ModelBinding+Factories.swift` for how the families of factories work.

// MARK: - Unannotated properties

extension _$PropertyBinding {
    /// Not API: a property of a scalar type, or an optional or array of one.
    @inlinable
    public static func property<Value: AttributeValueConvertible>(
        _ name: String,
        keyPath: KeyPath<Model, Value> & Sendable,
        get: @escaping @Sendable (Model) -> Value,
        set: @escaping @Sendable (Model, Value) -> Void,
        hasDefaultValue: Bool
    ) -> _$PropertyBinding {
        makeConvertibleAttribute(name, keyPath, get, set, hasDefaultValue, [], nil, nil) {
            get(downcast($0, to: Model.self)).attributeValue
        }
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
    @inlinable
    public static func property<Target: PersistentModel>(
        _ name: String,
        keyPath: KeyPath<Model, Target?> & Sendable,
        get: @escaping @Sendable (Model) -> Target?,
        set: @escaping @Sendable (Model, Target?) -> Void,
        hasDefaultValue: Bool
    ) -> _$PropertyBinding {
        makeRelationship(name, .toOne(keyPath, get, set), keyPath, [], .nullify, 0, 0, nil, nil, nil)
    }

    /// Not API: a to-many relationship with the default options.
    @inlinable
    public static func property<Target: PersistentModel>(
        _ name: String,
        keyPath: KeyPath<Model, [Target]> & Sendable,
        get: @escaping @Sendable (Model) -> [Target],
        set: @escaping @Sendable (Model, [Target]) -> Void,
        hasDefaultValue: Bool
    ) -> _$PropertyBinding {
        makeRelationship(name, .toMany(keyPath, get, set), keyPath, [], .nullify, 0, 0, nil, nil, nil)
    }

    /// Not API: an optional to-many relationship with the default options.
    @inlinable
    public static func property<Target: PersistentModel>(
        _ name: String,
        keyPath: KeyPath<Model, [Target]?> & Sendable,
        get: @escaping @Sendable (Model) -> [Target]?,
        set: @escaping @Sendable (Model, [Target]?) -> Void,
        hasDefaultValue: Bool
    ) -> _$PropertyBinding {
        makeRelationship(name, .optionalToMany(keyPath, get, set), keyPath, [], .nullify, 0, 0, nil, nil, nil)
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
