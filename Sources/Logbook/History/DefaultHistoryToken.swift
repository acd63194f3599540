/// A position in a store's history: the sequence number of the last event of a transaction.
///
/// Tokens order as the log does: every later transaction has a greater token. Keep one to read
/// on from where you stopped, in ``ModelContext/fetchHistory(_:)`` or
/// ``ModelContainer/changes(after:)``; it is `Codable`, so it can be stored anywhere:
///
/// ```swift
/// let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
/// let last = history.last?.token
/// let data = try JSONEncoder().encode(last)      // {"sequence":42}
/// ```
///
/// A token names a transaction of one store; a token from another store means nothing.
///
/// ## Topics
///
/// ### Reading a token
/// - ``sequence``
/// - ``init(sequence:)``
public struct DefaultHistoryToken: Comparable, Codable, Sendable, Hashable, CustomStringConvertible {
    /// The sequence number of the transaction's last event in the store's log, as
    /// `logbook dump` shows it.
    public let sequence: UInt64

    /// Creates the token of the transaction that ends at the event `sequence`: what
    /// `logbook history` prints, for example.
    ///
    /// - Parameter sequence: The sequence number of a transaction's last event.
    public init(sequence: UInt64) {
        self.sequence = sequence
    }

    public static func < (lhs: DefaultHistoryToken, rhs: DefaultHistoryToken) -> Bool {
        lhs.sequence < rhs.sequence
    }

    /// The sequence number, in decimal.
    public var description: String { String(sequence) }
}
