import Foundation
import Logbook
import SampleTrips
import Testing

/// `fetch(_:batchSize:)` and `enumerate(_:batchSize:allowEscapingMutations:block:)`.
struct EnumerateTests {
    /// Saves trips `Trip 00` … `Trip 24`, then reopens the store.
    private func filledStore(_ kind: StoreKind) throws -> (TestStore, ModelContext) {
        let store = TestStore(kind)
        let context = ModelContext(try store.container())
        for index in 0..<25 {
            context.insert(makeTrip(String(format: "Trip %02d", index), offset: Double(index)))
        }
        try context.save()
        return (store, try store.reopenedContext())
    }

    private let byName = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
    private var expectedNames: [String] { (0..<25).map { String(format: "Trip %02d", $0) } }

    @Test(arguments: StoreKind.allCases)
    func aBatchedFetchReturnsEveryMatchInOrderAfterReopening(kind: StoreKind) throws {
        let (store, context) = try filledStore(kind)
        let trips = try context.fetch(byName, batchSize: 4)
        #expect(trips.count == 25)
        #expect(trips.map(\.name) == expectedNames)
        #expect(trips[7] === trips[7])
        #expect(trips[7].name == "Trip 07")
        var limited = FetchDescriptor<Trip>(
            predicate: #Predicate { $0.name >= "Trip 20" },
            sortBy: [SortDescriptor(\.name)]
        )
        limited.fetchLimit = 3
        #expect(try context.fetch(limited, batchSize: 2).map(\.name) == ["Trip 20", "Trip 21", "Trip 22"])
        withExtendedLifetime(store) {}
    }

    @Test(arguments: StoreKind.allCases, [1, 4, 25, 5_000])
    func enumerationVisitsEveryMatchOnceInOrder(kind: StoreKind, batchSize: Int) throws {
        let (store, context) = try filledStore(kind)
        var names: [String] = []
        try context.enumerate(byName, batchSize: batchSize) { names.append($0.name) }
        #expect(names == expectedNames)
        withExtendedLifetime(store) {}
    }

    @Test(arguments: StoreKind.allCases)
    func changesLeftBehindStopTheEnumerationAtTheEndOfTheBatch(kind: StoreKind) throws {
        let (store, context) = try filledStore(kind)
        var visited = 0
        let error = try #require(throws: LogbookError.self) {
            try context.enumerate(self.byName, batchSize: 10) { trip in
                visited += 1
                trip.destination = "Changed"
            }
        }
        #expect(visited == 10)
        #expect(error.code == .validationFailed)
        #expect(
            error.message
                == "the block of enumerate(_:) left unsaved changes after 10 of 25 Trip models; "
                + "save them in the block, or pass allowEscapingMutations: true"
        )
        #expect(context.hasChanges)
        context.rollback()
        #expect(
            try store.reopenedContext().fetchCount(
                FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "Changed" })
            ) == 0
        )
    }

    @Test(arguments: StoreKind.allCases)
    func escapingMutationsAreAllowedWhenAskedForAndSavedAfterwards(kind: StoreKind) throws {
        let (store, context) = try filledStore(kind)
        try context.enumerate(byName, batchSize: 10, allowEscapingMutations: true) { trip in
            trip.destination = "Changed"
        }
        try context.save()
        let changed = FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "Changed" })
        #expect(try store.reopenedContext().fetchCount(changed) == 25)
    }

    @Test(arguments: StoreKind.allCases)
    func aBlockThatSavesItsChangesMayChangeModels(kind: StoreKind) throws {
        let (store, context) = try filledStore(kind)
        try context.enumerate(byName, batchSize: 10) { trip in
            if trip.name.hasSuffix("3") { context.delete(trip) }
            try context.save()
        }
        #expect(try store.reopenedContext().fetch(byName).map(\.name) == expectedNames.filter { !$0.hasSuffix("3") })
    }
}
