/// The models a batched fetch returns, as a random-access collection.
///
/// ```swift
/// let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]), batchSize: 100)
/// for trip in trips { print(trip.name) }
/// trips.count   // every match
/// ```
///
/// Difference from SwiftData: SwiftData's collection makes the models of a batch when one of
/// them is first read. A context of Logbook keeps every model it registers until it goes
/// away, so making them later would save no memory: the collection holds the matches the
/// fetch made, in the descriptor's order.
///
/// ## Topics
///
/// ### Reading models
/// - ``subscript(_:)``
/// - ``startIndex``
/// - ``endIndex``
public struct FetchResultsCollection<Element: PersistentModel>: RandomAccessCollection {
    private let models: [Element]

    init(_ models: [Element]) {
        self.models = models
    }

    /// The position of the first model, 0.
    public var startIndex: Int { models.startIndex }

    /// The position after the last model: the number of matches.
    public var endIndex: Int { models.endIndex }

    /// The model at a position.
    ///
    /// - Precondition: `position` is in `startIndex..<endIndex`.
    public subscript(position: Int) -> Element {
        models[position]
    }
}
