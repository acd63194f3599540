import Foundation

/// What to fetch: a predicate, a sort order, and a window of the results.
///
/// ```swift
/// var descriptor = FetchDescriptor<Trip>(
///     predicate: #Predicate { $0.destination == "Lisbon" },
///     sortBy: [SortDescriptor(\.startDate)])
/// descriptor.fetchLimit = 10
/// let trips = try context.fetch(descriptor)
/// ```
///
/// An equality predicate on a unique attribute (`#Predicate<Trip> { $0.name == name }`) is
/// answered from the unique index, without looking at other objects. Written as
/// `$0.property == constant` with a `String`, `Int` or `UUID` constant, the lookup reads the
/// predicate in code compiled for your model type, its fastest form; other types, and
/// `constant == $0.property`, take a generic path that costs a few hundred instructions more.
///
/// A predicate that is a range of the leading attribute of an `#Index`
/// (`$0.startDate >= start && $0.startDate < end`) reads only the objects in the range, and a
/// descriptor with a ``fetchLimit`` whose first sort descriptor is on that attribute reads only
/// the first objects in its order; see `Index(_:)`.
///
/// ## Topics
///
/// ### Creating a descriptor
/// - ``init(predicate:sortBy:)``
///
/// ### Options
/// - ``predicate``
/// - ``sortBy``
/// - ``fetchLimit``
/// - ``fetchOffset``
/// - ``includePendingChanges``
/// - ``propertiesToFetch``
/// - ``relationshipKeyPathsForPrefetching``
public struct FetchDescriptor<T: PersistentModel> {
    /// Which models to fetch; `nil` fetches every model of the type.
    // Spelled out so that it gets no implicit `nil`: with one, the initializer's assignment
    // first destroyed that `nil` through the variadic generic type's metadata, about 100
    // instructions of every lookup by unique name.
    // swift-format-ignore: UseShorthandTypeNames
    public var predicate: Optional<Predicate<T>> {
        didSet { _expression = predicate?.expression }
    }
    /// The order of the results; models that compare equal keep their identifier order.
    public var sortBy: [SortDescriptor<T>]
    /// The most models to return, after ``fetchOffset``; `nil` for no limit.
    public var fetchLimit: Int?
    /// How many models to skip from the start of the sorted results.
    public var fetchOffset: Int?
    /// Whether unsaved inserts, changes and deletes of the context count. Defaults to `true`.
    ///
    /// With `false`, unsaved inserts are left out and deleted models are returned. An equality
    /// predicate (`$0.attribute == value`) is then judged on the stored values; other predicates
    /// are evaluated on the objects, unsaved values included.
    public var includePendingChanges = true
    /// The properties to load, as a hint; empty, the default, for all of them.
    ///
    /// Accepted so that SwiftData code compiles, and ignored: a context makes a model from its
    /// stored values in memory, all of them at once, so loading fewer would save nothing.
    /// Properties left out still read their stored values.
    public var propertiesToFetch: [PartialKeyPath<T>] = []
    /// The relationships whose destination models to load with the results, as a hint.
    ///
    /// Accepted so that SwiftData code compiles, and ignored: a relationship's models are made
    /// from memory when it is first read, with no round trip to save.
    public var relationshipKeyPathsForPrefetching: [PartialKeyPath<T>] = []

    /// ``predicate``'s expression, kept apart so that a fetch reads it without copying the
    /// `Predicate<T>`, whose copy asks the runtime for its variadic generic metadata.
    @usableFromInline
    var _expression: (any StandardPredicateExpression<Bool>)?

    /// Creates a descriptor.
    ///
    /// - Parameters:
    ///   - predicate: Which models to fetch; `nil` fetches every model of the type.
    ///   - sortBy: The order of the results.
    @inlinable
    public init(predicate: consuming Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) {
        switch consume predicate {
        case .some(let predicate):
            _expression = predicate.expression
            self.predicate = predicate
        case .none:
            _expression = nil
            self.predicate = nil
        }
        self.sortBy = sortBy
    }
}
