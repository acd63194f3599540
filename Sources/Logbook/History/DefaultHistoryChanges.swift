/// An object inserted, as ``ModelContext/fetchHistory(_:)`` and ``ModelContainer/changes(after:)``
/// report it.
///
/// ```swift
/// if case .insert(let insert as DefaultHistoryInsert<Trip>) = change {
///     print(insert.changedPersistentIdentifier, insert.value(for: \.name) ?? "")
/// }
/// ```
///
/// The relationships set at the insert are part of it: they do not appear as updates of the
/// same transaction.
///
/// ## Topics
///
/// ### Reading the insert
/// - ``changedPersistentIdentifier``
/// - ``changeIdentifier``
/// - ``transactionIdentifier``
/// - ``value(for:)``
public struct DefaultHistoryInsert<Model: PersistentModel>: HistoryInsert {
    public let changedPersistentIdentifier: PersistentIdentifier
    public let changeIdentifier: UInt64
    public let transactionIdentifier: DefaultHistoryToken
    /// The attribute values the insert wrote, in the names of the container's schema.
    let fields: [Event.Field]

    /// The value the insert gave an attribute: a Logbook addition; SwiftData keeps no values.
    ///
    /// - Parameter keyPath: The key path of one of the model's persisted attributes.
    /// - Returns: The value, or `nil` when `keyPath` is not a persisted attribute or the stored
    ///   value no longer converts to its type. For an optional attribute, `.some(nil)` says the
    ///   insert stored `nil`.
    public func value<Value>(for keyPath: KeyPath<Model, Value>) -> Value? {
        HistoryValues.value(for: keyPath, in: fields)
    }
}

/// An object's attributes or relationships changed, as ``ModelContext/fetchHistory(_:)`` and
/// ``ModelContainer/changes(after:)`` report it.
///
/// Beyond SwiftData, which records only which attributes changed, an update carries the values
/// it wrote: read them with ``value(for:)``, and the objects its relationships were set to, or
/// gained and lost, with ``relatedIdentifier(for:)``, `addedIdentifiers(for:)` and
/// `removedIdentifiers(for:)`.
///
/// ```swift
/// if let update = change as? DefaultHistoryUpdate<Trip>,
///     update.updatedAttributes.contains(\Trip.destination)
/// {
///     print("now going to", update.value(for: \.destination) ?? "")
/// }
/// ```
///
/// All the changes one save made to one object form one update: its attributes, its to-one
/// relationships, and the models it added to or removed from to-many relationships.
///
/// ## Topics
///
/// ### Reading the update
/// - ``changedPersistentIdentifier``
/// - ``changeIdentifier``
/// - ``transactionIdentifier``
/// - ``updatedAttributes``
/// - ``value(for:)``
/// - ``relatedIdentifier(for:)``
public struct DefaultHistoryUpdate<Model: PersistentModel>: HistoryUpdate {
    public let changedPersistentIdentifier: PersistentIdentifier
    public let changeIdentifier: UInt64
    public let transactionIdentifier: DefaultHistoryToken
    /// The attribute values the update wrote, in the names of the container's schema.
    let fields: [Event.Field]
    /// The names of every attribute and relationship the update wrote.
    let names: Set<String>
    /// What the update wrote to relationships.
    let links: RelationshipChanges

    public var updatedAttributes: Set<PartialKeyPath<Model>> {
        var keyPaths: Set<PartialKeyPath<Model>> = []
        for property in Model._$binding.properties where names.contains(property.name) {
            if let keyPath = property.keyPath as? PartialKeyPath<Model> { keyPaths.insert(keyPath) }
        }
        return keyPaths
    }

    /// The value the update wrote to an attribute: a Logbook addition; SwiftData's updates
    /// carry no values.
    ///
    /// ```swift
    /// update.value(for: \Trip.destination)      // "Lisbon", or nil if the update left it alone
    /// ```
    ///
    /// - Parameter keyPath: The key path of one of the model's persisted attributes.
    /// - Returns: The value written, or `nil` when the update did not write that attribute, when
    ///   `keyPath` is not a persisted attribute, or when the stored value no longer converts to
    ///   its type. For an optional attribute, `.some(nil)` says the update wrote `nil`.
    public func value<Value>(for keyPath: KeyPath<Model, Value>) -> Value? {
        HistoryValues.value(for: keyPath, in: fields)
    }

    /// The object the update set a to-one relationship to: a Logbook addition.
    ///
    /// ```swift
    /// switch update.relatedIdentifier(for: \BucketListItem.trip) {
    /// case .some(.some(let trip)): print("moved to", trip)
    /// case .some(.none): print("taken off its trip")
    /// case .none: print("the update left the relationship alone")
    /// }
    /// ```
    ///
    /// - Parameter keyPath: The key path of one of the model's to-one relationships.
    /// - Returns: The identifier of the object the relationship was set to; `.some(nil)` when
    ///   it was set to `nil`; `nil` when the update did not write it. The identifier names the
    ///   relationship's destination entity (``PersistentIdentifier`` compares by number, which
    ///   is unique in a store, so it equals the object's own even when the object is of a
    ///   subclass of it).
    public func relatedIdentifier<Related: PersistentModel>(
        for keyPath: KeyPath<Model, Related?>
    ) -> PersistentIdentifier?? {
        guard let name = Self.name(of: keyPath), let target = links.toOne[name] else { return nil }
        return .some(target.map { PersistentIdentifier(entityName: Related._$bindingBox.entityName, number: $0) })
    }

    /// The objects the update added to a to-many relationship, in the order they were added: a
    /// Logbook addition.
    ///
    /// ```swift
    /// let added = update.addedIdentifiers(for: \Trip.bucketList)
    /// ```
    ///
    /// - Parameter keyPath: The key path of one of the model's to-many relationships.
    /// - Returns: Their identifiers; empty when the update added none.
    public func addedIdentifiers<Related: PersistentModel>(
        for keyPath: KeyPath<Model, [Related]?>
    ) -> [PersistentIdentifier] {
        identifiers(Related.self, in: Self.name(of: keyPath).flatMap { links.added[$0] })
    }

    /// The objects the update added to a to-many relationship that is not optional.
    public func addedIdentifiers<Related: PersistentModel>(
        for keyPath: KeyPath<Model, [Related]>
    ) -> [PersistentIdentifier] {
        identifiers(Related.self, in: Self.name(of: keyPath).flatMap { links.added[$0] })
    }

    /// The objects the update removed from a to-many relationship, in the order they were
    /// removed: a Logbook addition.
    ///
    /// ```swift
    /// let removed = update.removedIdentifiers(for: \Trip.bucketList)
    /// ```
    ///
    /// - Parameter keyPath: The key path of one of the model's to-many relationships.
    /// - Returns: Their identifiers; empty when the update removed none.
    public func removedIdentifiers<Related: PersistentModel>(
        for keyPath: KeyPath<Model, [Related]?>
    ) -> [PersistentIdentifier] {
        identifiers(Related.self, in: Self.name(of: keyPath).flatMap { links.removed[$0] })
    }

    /// The objects the update removed from a to-many relationship that is not optional.
    public func removedIdentifiers<Related: PersistentModel>(
        for keyPath: KeyPath<Model, [Related]>
    ) -> [PersistentIdentifier] {
        identifiers(Related.self, in: Self.name(of: keyPath).flatMap { links.removed[$0] })
    }

    /// The persisted name of the property at `keyPath`.
    private static func name(of keyPath: AnyKeyPath) -> String? {
        Model._$binding.properties.first { $0.keyPath == keyPath }?.name
    }

    private func identifiers<Related: PersistentModel>(_: Related.Type, in numbers: [UInt64]?) -> [PersistentIdentifier]
    {
        let entity = Related._$bindingBox.entityName
        return (numbers ?? []).map { PersistentIdentifier(entityName: entity, number: $0) }
    }
}

/// An object deleted, as ``ModelContext/fetchHistory(_:)`` and ``ModelContainer/changes(after:)``
/// report it, with the values of its attributes marked `.preserveValueOnDeletion`.
///
/// ```swift
/// if let delete = change as? DefaultHistoryDelete<Trip> {
///     print("deleted", delete.tombstone[\.name] ?? "a trip")
/// }
/// ```
///
/// ## Topics
///
/// ### Reading the delete
/// - ``changedPersistentIdentifier``
/// - ``changeIdentifier``
/// - ``transactionIdentifier``
/// - ``tombstone``
public struct DefaultHistoryDelete<Model: PersistentModel>: HistoryDelete {
    public let changedPersistentIdentifier: PersistentIdentifier
    public let changeIdentifier: UInt64
    public let transactionIdentifier: DefaultHistoryToken
    public let tombstone: HistoryTombstone<Model>
}

/// The values a deleted object's `.preserveValueOnDeletion` attributes had when it was deleted.
///
/// ```swift
/// @Model final class Trip {
///     @Attribute(.preserveValueOnDeletion) var name: String
///     …
/// }
///
/// let name = delete.tombstone[\.name]      // String?
/// ```
///
/// Deletes saved before format version 4 (see the on-disk format article) carry no values:
/// their tombstones are empty.
///
/// ## Topics
///
/// ### Reading values
/// - ``subscript(_:)``
/// - ``isEmpty``
public struct HistoryTombstone<Model: PersistentModel>: Sendable {
    /// The preserved values, in the names of the container's schema.
    let fields: [Event.Field]

    /// The preserved value of an attribute.
    ///
    /// - Parameter keyPath: The key path of a persisted attribute marked
    ///   `.preserveValueOnDeletion`.
    /// - Returns: The value, or `nil` when the attribute was not preserved (or its stored value
    ///   no longer converts to its type).
    public subscript<Value>(_ keyPath: KeyPath<Model, Value>) -> Value? {
        HistoryValues.value(for: keyPath, in: fields)
    }

    /// Whether the tombstone holds no value.
    public var isEmpty: Bool { fields.isEmpty }
}

/// Reads attribute values out of the fields of a history change.
enum HistoryValues {
    static func value<Model: PersistentModel, Value>(
        for keyPath: KeyPath<Model, Value>,
        in fields: [Event.Field]
    ) -> Value? {
        let target: AnyKeyPath = keyPath
        for property in Model._$binding.properties where property.keyPath as AnyKeyPath == target {
            guard case .attribute(let access) = property.kind,
                let field = fields.first(where: { $0.name == access.attribute.name }),
                let codec = access.codec as? AttributeCodec<Value>
            else { return nil }
            return try? codec.decode(field.value)
        }
        return nil
    }
}
