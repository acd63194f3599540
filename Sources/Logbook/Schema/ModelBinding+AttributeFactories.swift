// The factories for properties with `@Attribute`. See `ModelBinding+Factories.swift` for how
// the families of factories work.

// MARK: - @Attribute

extension _$PropertyBinding {
    /// Not API: an `@Attribute` of a scalar type, or an optional or array of one.
    @inlinable
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
        makeConvertibleAttribute(name, keyPath, get, set, hasDefaultValue, options, originalName, hashModifier) {
            get(downcast($0, to: Model.self)).attributeValue
        }
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
    @inlinable
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
        makeConvertibleAttribute(name, keyPath, get, set, hasDefaultValue, options, originalName, hashModifier) {
            get(downcast($0, to: Model.self)).attributeValue
        }
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
