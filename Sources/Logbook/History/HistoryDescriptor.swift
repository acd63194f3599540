import Foundation

/// Which history transactions ``ModelContext/fetchHistory(_:)`` returns, in which order, and how
/// many.
///
/// ```swift
/// var descriptor = HistoryDescriptor<DefaultHistoryTransaction>(
///     predicate: #Predicate { $0.token > lastSeen && $0.author != "sync" })
/// descriptor.fetchLimit = 100
/// let transactions = try context.fetchHistory(descriptor)
/// ```
///
/// The predicate may read a transaction's `token`, `transactionIdentifier`, `timestamp`,
/// `author` and `storeIdentifier`, not its `changes`: it is evaluated before a transaction's
/// changes are decoded, so that only the transactions it keeps cost their decoding.
///
/// ## Topics
///
/// ### Creating a descriptor
/// - ``init(predicate:sortBy:)``
///
/// ### Criteria
/// - ``predicate``
/// - ``sortBy``
/// - ``fetchLimit``
public struct HistoryDescriptor<TransactionType: HistoryTransaction> {
    /// Which transactions to return; `nil` for all of them.
    public var predicate: Predicate<TransactionType>?
    /// The order of the transactions; empty for the log's order, oldest first.
    public var sortBy: [SortDescriptor<TransactionType>]
    /// The most transactions to return; `nil` for no limit. Without ``sortBy``, the first ones
    /// in the log's order.
    public var fetchLimit: Int?

    /// Creates a descriptor.
    ///
    /// - Parameters:
    ///   - predicate: Which transactions to return; `nil` for all of them.
    ///   - sortBy: The order of the transactions; empty for the log's order.
    public init(predicate: Predicate<TransactionType>? = nil, sortBy: [SortDescriptor<TransactionType>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}
