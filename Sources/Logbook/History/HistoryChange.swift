/// One change of a history transaction: an object inserted, updated or deleted.
///
/// Cast the payload to the concrete type of the model to read it:
///
/// ```swift
/// for change in transaction.changes {
///     switch change {
///     case .insert(let insert as DefaultHistoryInsert<Trip>):
///         print("new trip", insert.changedPersistentIdentifier)
///     case .update(let update as DefaultHistoryUpdate<Trip>):
///         print("renamed to", update.value(for: \.name) ?? "(unchanged)")
///     case .delete(let delete as DefaultHistoryDelete<Trip>):
///         print("deleted", delete.tombstone[\.name] ?? "?")
///     default:
///         break
///     }
/// }
/// ```
///
/// ## Topics
///
/// ### Changes
/// - ``insert(_:)``
/// - ``update(_:)``
/// - ``delete(_:)``
/// - ``changedPersistentIdentifier``
public enum HistoryChange: Sendable {
    /// An object inserted.
    case insert(any HistoryInsert)
    /// An object whose attributes or relationships changed.
    case update(any HistoryUpdate)
    /// An object deleted.
    case delete(any HistoryDelete)

    /// The identifier of the object the change concerns.
    public var changedPersistentIdentifier: PersistentIdentifier {
        switch self {
        case .insert(let insert): insert.changedPersistentIdentifier
        case .update(let update): update.changedPersistentIdentifier
        case .delete(let delete): delete.changedPersistentIdentifier
        }
    }
}

/// An insert in a history transaction. ``DefaultHistoryInsert`` is the type Logbook makes.
public protocol HistoryInsert<Model>: Sendable {
    /// The model type of the inserted object.
    associatedtype Model: PersistentModel
    /// The identifier of the inserted object.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The sequence number of the insert's event in the log.
    var changeIdentifier: UInt64 { get }
    /// The token of the transaction the insert belongs to.
    var transactionIdentifier: DefaultHistoryToken { get }
}

/// An update in a history transaction. ``DefaultHistoryUpdate`` is the type Logbook makes.
public protocol HistoryUpdate<Model>: Sendable {
    /// The model type of the updated object.
    associatedtype Model: PersistentModel
    /// The identifier of the updated object.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The sequence number of the update's first event in the log.
    var changeIdentifier: UInt64 { get }
    /// The token of the transaction the update belongs to.
    var transactionIdentifier: DefaultHistoryToken { get }
    /// The key paths of the attributes and relationships the update wrote.
    var updatedAttributes: Set<PartialKeyPath<Model>> { get }
}

/// A delete in a history transaction. ``DefaultHistoryDelete`` is the type Logbook makes.
public protocol HistoryDelete<Model>: Sendable {
    /// The model type of the deleted object.
    associatedtype Model: PersistentModel
    /// The identifier of the deleted object.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The sequence number of the delete's event in the log.
    var changeIdentifier: UInt64 { get }
    /// The token of the transaction the delete belongs to.
    var transactionIdentifier: DefaultHistoryToken { get }
    /// The values the deleted object's `.preserveValueOnDeletion` attributes had.
    var tombstone: HistoryTombstone<Model> { get }
}
