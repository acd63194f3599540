// The factories for properties with `@Relationship`, in both spellings. See
// `ModelBinding+Factories.swift` for how the families of factories work.

// MARK: - @Relationship(_ options…, deleteRule: …)

extension _$PropertyBinding {
    /// Not API: a to-one `@Relationship`.
    @inlinable
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
            .toOne(keyPath, get, set),
            keyPath,
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
    @inlinable
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
            .toMany(keyPath, get, set),
            keyPath,
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
    @inlinable
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
            .optionalToMany(keyPath, get, set),
            keyPath,
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
    @inlinable
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
            .toOne(keyPath, get, set),
            keyPath,
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
    @inlinable
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
            .toMany(keyPath, get, set),
            keyPath,
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
    @inlinable
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
            .optionalToMany(keyPath, get, set),
            keyPath,
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
