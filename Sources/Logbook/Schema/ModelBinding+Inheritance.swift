extension _$ModelBinding {
    /// Not API: the binding of a subclass of the model class `Super`: its superclass's
    /// properties first, at the indexes they have there, then its own.
    ///
    /// - Parameters:
    ///   - entityName: The subclass's entity name.
    ///   - supertype: The superclass, a model class.
    ///   - upcast: The subclass's objects as superclass objects: `{ $0 }`, which the compiler
    ///     checks.
    ///   - properties: The subclass's own persisted properties, in declaration order.
    ///   - uniquenessConstraints: The `#Unique` constraints the subclass declares.
    ///   - indexes: The `#Index` declarations of the subclass; the superclass's apply too.
    public init<Super: PersistentModel>(
        entityName: String,
        inheriting supertype: Super.Type,
        upcast: @escaping @Sendable (Model) -> Super,
        properties: [_$PropertyBinding<Model>],
        uniquenessConstraints: [[String]] = [],
        indexes: [[String]] = []
    ) {
        let inherited = Super._$binding
        self.entityName = entityName
        self.properties = inherited.properties.map { $0.rebased(upcast) } + properties
        self.uniquenessConstraints = inherited.uniquenessConstraints + uniquenessConstraints
        self.indexes = inherited.indexes + indexes
        self.supertype = supertype
        self.indexByName = Dictionary(
            self.properties.enumerated().map { ($0.element.name, $0.offset) },
            uniquingKeysWith: { first, _ in first }
        )
    }
}

extension _$PropertyBinding {
    /// The same property, as a property of a subclass of `Model`. The key path stays the one
    /// of `Model`, where the property is declared.
    func rebased<Subclass: PersistentModel>(
        _ upcast: @escaping @Sendable (Subclass) -> Model
    ) -> _$PropertyBinding<Subclass> {
        switch kind {
        case .attribute(let access):
            let write = access.write
            let observedWrite = access.observedWrite
            return _$PropertyBinding<Subclass>(
                name: name,
                kind: .attribute(
                    AttributeAccess<Subclass>(
                        attribute: access.attribute,
                        keyPath: access.keyPath,
                        codec: access.codec,
                        read: access.read,
                        plainRead: access.plainRead,
                        write: { model, value in try write(upcast(model), value) },
                        observedWrite: { model, value in try observedWrite(upcast(model), value) }
                    )
                )
            )
        case .relationship(let access):
            return _$PropertyBinding<Subclass>(
                name: name,
                kind: .relationship(
                    RelationshipAccess<Subclass>(
                        name: access.name,
                        originalName: access.originalName,
                        targetType: access.targetType,
                        isToMany: access.isToMany,
                        isOptional: access.isOptional,
                        deleteRule: access.deleteRule,
                        minimumModelCount: access.minimumModelCount,
                        maximumModelCount: access.maximumModelCount,
                        options: access.options,
                        hashModifier: access.hashModifier,
                        inverseKeyPath: access.inverseKeyPath,
                        keyPath: access.keyPath,
                        read: access.read,
                        write: access.write,
                        load: access.load,
                        clear: access.clear,
                        toOne: access.toOne
                    )
                )
            )
        }
    }
}

/// Not API: a model class's binding, in a class that each model class overrides with its own
/// (see ``PersistentModel/_$bindingBox``). Holds what Logbook reads about a model class without
/// knowing its type; ``_$ModelBindingBox`` adds the typed binding.
///
/// Not `final`, so not checked for `Sendable` by the compiler: it and its one subclass hold
/// constants only.
public class _$AnyModelBinding: @unchecked Sendable {
    /// The entity name.
    let entityName: String
    /// Not API: the number of persisted properties, inherited ones included: the index of a
    /// subclass's first own property.
    public let propertyCount: Int

    fileprivate init(entityName: String, propertyCount: Int) {
        self.entityName = entityName
        self.propertyCount = propertyCount
    }
}

/// Not API: the binding of the model class `Model`, which `@Model` generates.
public final class _$ModelBindingBox<Model: PersistentModel>: _$AnyModelBinding, @unchecked Sendable {
    /// The typed binding.
    let binding: _$ModelBinding<Model>

    /// Not API: called by the code `@Model` generates.
    public init(_ binding: _$ModelBinding<Model>) {
        self.binding = binding
        super.init(entityName: binding.entityName, propertyCount: binding.properties.count)
    }
}
