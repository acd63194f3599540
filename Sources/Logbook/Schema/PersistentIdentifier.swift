/// The identity of a model object in a store: its entity name and a number.
///
/// A model gets its identifier when a context inserts it. Until then it has a *temporary*
/// identifier, unique within the process, so that unsaved models can still be told apart and
/// used as `Identifiable` values. A saved model's identifier never changes and is never reused.
///
/// ```swift
/// let id = trip.persistentModelID
/// print(id.entityName)      // "Trip"
/// ```
///
/// Identifiers order by entity name, then temporary identifiers before permanent ones, then by
/// number.
///
/// ## Topics
///
/// ### Inspecting an identifier
/// - ``entityName``
/// - ``number``
/// - ``isTemporary``
///
/// ### Creating identifiers
/// - ``init(entityName:number:)``
public struct PersistentIdentifier: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The name of the model's entity.
    public let entityName: String
    /// The number of the object within its store, or within the process for a temporary one.
    public let number: UInt64
    /// Whether this is a temporary identifier, held by a model that no context has inserted.
    public let isTemporary: Bool

    /// Creates the permanent identifier of an object in a store.
    ///
    /// - Parameters:
    ///   - entityName: The name of the model's entity.
    ///   - number: The object's number in the store.
    public init(entityName: String, number: UInt64) {
        self.entityName = entityName
        self.number = number
        self.isTemporary = false
    }

    /// An identifier as a model's storage keeps it, temporary or not.
    init(entityName: String, number: UInt64, isTemporary: Bool) {
        self.entityName = entityName
        self.number = number
        self.isTemporary = isTemporary
    }

    /// A number for a new temporary identifier, distinct from every other one in this process.
    static func nextTemporaryNumber() -> UInt64 {
        TemporaryNumbers.shared.next()
    }

    /// Hashes the number and whether it is temporary, not the entity name: numbers are unique
    /// across the entities of a store, and hashing the name would cost a string hash on every
    /// lookup of a context's registry.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(number)
        hasher.combine(isTemporary)
    }

    public static func < (lhs: PersistentIdentifier, rhs: PersistentIdentifier) -> Bool {
        (lhs.entityName, lhs.isTemporary ? 0 : 1, lhs.number) < (rhs.entityName, rhs.isTemporary ? 0 : 1, rhs.number)
    }

    /// `Trip#42`, or `Trip#t7` for a temporary identifier.
    public var description: String {
        "\(entityName)#\(isTemporary ? "t" : "")\(number)"
    }
}

/// The counter behind temporary identifiers.
private final class TemporaryNumbers: @unchecked Sendable {
    static let shared = TemporaryNumbers()

    // Guarded by `lock`. `NSLock` rather than `Mutex` because `Mutex` needs macOS 15 and the
    // package supports macOS 14.
    private let lock = NSLock()
    private var last: UInt64 = 0

    func next() -> UInt64 {
        lock.withLock {
            last += 1
            return last
        }
    }
}
