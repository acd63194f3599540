import Foundation

/// A transaction of a store's history: what one save wrote.
///
/// ``DefaultHistoryTransaction`` is the type Logbook makes; the protocol exists so that
/// ``HistoryDescriptor`` reads as SwiftData's.
public protocol HistoryTransaction: Hashable, Identifiable, Sendable {
    /// The type of the transaction's position in the history.
    associatedtype TokenType: Comparable & Sendable
    /// The transaction's position in the history.
    var token: TokenType { get }
    /// The changes the transaction made, in the order they were saved.
    var changes: [HistoryChange] { get }
}

/// What one save wrote: its position in the log, when and by whom it was made, and its changes.
///
/// Every save is one transaction, and so is every batch a migration appends. Fetch them with
/// ``ModelContext/fetchHistory(_:)``, or follow them as they are saved with
/// ``ModelContainer/changes(after:)``:
///
/// ```swift
/// let descriptor = HistoryDescriptor<DefaultHistoryTransaction>(
///     predicate: #Predicate { $0.author == "importer" })
/// for transaction in try context.fetchHistory(descriptor) {
///     print(transaction.token, transaction.timestamp, transaction.changes.count)
/// }
/// ```
///
/// ## Topics
///
/// ### Identifying the transaction
/// - ``token``
/// - ``transactionIdentifier``
/// - ``id``
/// - ``storeIdentifier``
///
/// ### When and by whom
/// - ``timestamp``
/// - ``author``
///
/// ### What changed
/// - ``changes``
public struct DefaultHistoryTransaction: HistoryTransaction {
    /// The transaction's position in the history: the sequence number of its last event.
    public let token: DefaultHistoryToken
    /// The transaction's identifier: its ``token``.
    public let transactionIdentifier: DefaultHistoryToken
    /// The ``ModelContext/author`` of the context that saved, if it had one.
    public let author: String?
    /// When the save was made, by the saving process's clock.
    ///
    /// Saves written before format version 4 (see the on-disk format article) recorded no time:
    /// their timestamp is `Date.distantPast`.
    public let timestamp: Date
    /// The store the transaction belongs to: the path of its directory.
    ///
    /// Each store numbers its own transactions, so two stores of a container of several
    /// configurations have transactions with the same token; this tells them apart (see
    /// ``ModelContainer/container(forConfigurationNamed:)``).
    public let storeIdentifier: String
    /// The changes, in the order the save wrote them: inserts, then updates, then deletes.
    public let changes: [HistoryChange]

    /// The transaction's ``token``.
    public var id: DefaultHistoryToken { token }

    /// Two transactions are equal when they are the same transaction of the same store.
    public static func == (lhs: DefaultHistoryTransaction, rhs: DefaultHistoryTransaction) -> Bool {
        lhs.token == rhs.token && lhs.storeIdentifier == rhs.storeIdentifier
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(token)
        hasher.combine(storeIdentifier)
    }
}
