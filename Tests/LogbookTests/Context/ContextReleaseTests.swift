import Foundation
import SampleTrips
import Testing

@_spi(Measurement) @testable import Logbook

/// What a context that goes away leaves behind: models freed whatever shapes their
/// relationships take, and models the app still holds.
struct ContextReleaseTests {
    /// Model counts on either side of ``ModelContext/modelsFreedElsewhere``: a small context
    /// frees its models where it goes away, a large one on another thread.
    static let sizes = [3, ModelContext.modelsFreedElsewhere]

    /// The number of weakly held models still alive once every model handed to another thread
    /// has been freed there.
    private func waitUntilFreed(_ remaining: () -> Int) -> Int {
        ModelContext._waitForReleasesElsewhere()
        return remaining()
    }

    @Test(arguments: sizes)
    func aTreeOfModelsThatReferToTheirOwnEntityIsFreed(nodes: Int) throws {
        let store = TestStore(.memory)
        let container = try ModelContainer(for: Node.self, configurations: store.configuration)
        let held = WeakModels<Node>()
        try {
            let context = ModelContext(container)
            let root = Node()
            root.name = "root"
            context.insert(root)
            var parents = [root]
            for number in 0..<nodes {
                let node = Node()
                node.name = "node \(number)"
                parents[number / 2].children.append(node)
                parents.append(node)
            }
            try context.save()
            #expect(parents.last?.parent?.children.contains { $0 === parents.last } == true)
            held.keep(parents)
        }()
        #expect(waitUntilFreed { held.alive } == 0, "every node is freed")
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Node>()) == nodes + 1)
    }

    @Test(arguments: sizes)
    func modelsLinkedManyToManyAreFreed(books: Int) throws {
        let store = TestStore(.memory)
        let container = try ModelContainer(for: Shelf.self, configurations: store.configuration)
        let held = WeakModels<Book>()
        let readers = WeakModels<Reader>()
        try {
            let context = ModelContext(container)
            let shelf = Shelf(label: "Fiction")
            context.insert(shelf)
            let pair = [Reader(name: "Ada"), Reader(name: "Grace")]
            for number in 0..<books {
                let book = Book(title: "Book \(number)")
                shelf.books.append(book)
                book.readers = pair
            }
            try context.save()
            #expect(pair[0].books.count == books, "each reader lists every book")
            held.keep(shelf.books)
            readers.keep(pair)
        }()
        #expect(waitUntilFreed { held.alive + readers.alive } == 0, "every book and reader is freed")
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Book>()) == books)
    }

    @Test(arguments: sizes)
    func aModelTheAppHoldsKeepsTheModelsItRefersToOneToOne(trips: Int) throws {
        let store = TestStore(.memory)
        let container = try store.container()
        let freed = WeakModels<Trip>()
        let (item, accommodation): (BucketListItem, LivingAccommodation) = try {
            let context = ModelContext(container)
            var made: [Trip] = []
            for number in 0..<trips {
                let trip = makeTrip("Trip \(number)")
                context.insert(trip)
                trip.bucketList?.append(makeItem("Tram \(number)"))
                trip.livingAccommodation = LivingAccommodation(address: "Rua \(number)", placeName: "Casa \(number)")
                made.append(trip)
            }
            try context.save()
            freed.keep(made.dropFirst())
            let first = try #require(made.first)
            return (try #require(first.bucketList?.first), try #require(first.livingAccommodation))
        }()
        #expect(waitUntilFreed { freed.alive } == 0, "the trips nothing refers to are freed")
        #expect(item.trip?.name == "Trip 0", "an item the app holds keeps its trip")
        #expect(accommodation.trip?.name == "Trip 0", "and so does an accommodation")
        #expect(item.trip?.bucketList?.isEmpty ?? true, "the trip lets go of its items")
        #expect(item.trip?.livingAccommodation == nil, "and of its accommodation")
    }

    /// Once `_waitForReleasesElsewhere()` returns, the models a large context handed to another
    /// thread are freed: a measurement can count that work without polling.
    @Test
    func waitingForReleasesElsewhereFindsTheModelsFreed() throws {
        let store = TestStore(.memory)
        let container = try store.container()
        let held = WeakModels<Trip>()
        try {
            let context = ModelContext(container)
            var made: [Trip] = []
            for number in 0..<ModelContext.modelsFreedElsewhere {
                let trip = makeTrip("Trip \(number)")
                context.insert(trip)
                trip.bucketList?.append(makeItem("Tram \(number)"))
                made.append(trip)
            }
            try context.save()
            held.keep(made)
        }()
        ModelContext._waitForReleasesElsewhere()
        #expect(held.alive == 0, "every trip is freed once the wait returns")
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == ModelContext.modelsFreedElsewhere)
    }

    /// A model that the app keeps past its large context can be changed at once, while the
    /// context's other models are freed on another thread, which reads their strings ahead of
    /// releasing them; the kept model holds what was last assigned, and the others are freed.
    @Test
    func aKeptModelChangesWhileItsContextsOthersAreFreed() throws {
        let store = TestStore(.memory)
        let container = try store.container()
        let held = WeakModels<Trip>()
        let kept: Trip = try {
            let context = ModelContext(container)
            var made: [Trip] = []
            for number in 0..<(2 * ModelContext.modelsFreedElsewhere) {
                let trip = makeTrip("A trip with a name long enough for the heap \(number)")
                context.insert(trip)
                made.append(trip)
            }
            try context.save()
            // One from the middle of the registry, whose strings the freeing reads ahead.
            let kept = made.remove(at: ModelContext.modelsFreedElsewhere)
            held.keep(made)
            return kept
        }()
        for round in 0..<1_000 {
            kept.name = "A new name, long enough for the heap too, round \(round)"
            kept.destination = "A destination as long, round \(round)"
        }
        ModelContext._waitForReleasesElsewhere()
        #expect(held.alive == 0, "every trip but the kept one is freed")
        #expect(kept.name == "A new name, long enough for the heap too, round 999")
        #expect(kept.destination == "A destination as long, round 999")
    }

    /// A container that goes away closes its log at once, whatever the size of its store: the
    /// next container on the same directory takes the writer's lock, saves, and finds
    /// everything.
    @Test(arguments: sizes)
    func aStoreReopensAtOnceAfterItsContainerGoesAway(tripsPerRound: Int) throws {
        let store = TestStore(.disk)
        for round in 0..<3 {
            let context = try store.reopenedContext()
            #expect(try context.fetchCount(FetchDescriptor<Trip>()) == round * tripsPerRound)
            for number in 0..<tripsPerRound {
                context.insert(makeTrip("Trip \(round)-\(number)", offset: Double(number)))
            }
            try context.save()
        }
        let context = try store.reopenedContext()
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 3 * tripsPerRound)
        let last = try context.fetch(
            FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Trip 2-2" })
        )
        #expect(last.map(\.startDate) == [baseDate + 2 * day])
    }

    /// A model the app still holds when its context and container go away keeps its values;
    /// the container's context is large enough to free its models on another thread.
    @Test
    func aModelOutlivesALargeStore() throws {
        let store = TestStore(.disk)
        let trip: Trip = try {
            let context = ModelContext(try store.container())
            for number in 0..<ModelContext.modelsFreedElsewhere {
                context.insert(makeTrip("Trip \(number)", offset: Double(number)))
            }
            try context.save()
            let fetched = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Trip 7" }))
            store.close()
            return try #require(fetched.first)
        }()
        #expect(trip.name == "Trip 7")
        #expect(trip.startDate == baseDate + 7 * day)
        #expect(try store.reopenedContext().fetchCount(FetchDescriptor<Trip>()) == ModelContext.modelsFreedElsewhere)
    }
}

/// Weak references to models, for checking that they are freed.
private final class WeakModels<Model: AnyObject> {
    private struct Reference {
        weak var model: Model?
    }

    private var references: [Reference] = []

    func keep(_ models: some Sequence<Model>) {
        references += models.map { Reference(model: $0) }
    }

    /// The number still alive.
    var alive: Int {
        references.count { $0.model != nil }
    }
}
