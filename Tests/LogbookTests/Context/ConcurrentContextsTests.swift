import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// Contexts of one container, each in its own isolation domain, saving in turn and at once: the
/// container serialises the saves, every save lands whole, and the store reopens with all of
/// them.
struct ConcurrentContextsTests {
    @Test(arguments: StoreKind.allCases)
    func contextsOnManyThreadsSaveAtOnceAndEverySaveLands(kind: StoreKind) async throws {
        let store = TestStore(kind)
        let workers = 4
        let savesPerWorker = 25
        try await withThrowingTaskGroup(of: Void.self) { [container = try store.container()] group in
            for worker in 0..<workers {
                group.addTask {
                    let context = ModelContext(container)
                    for save in 0..<savesPerWorker {
                        let trip = makeTrip("Worker \(worker) save \(save)", destination: "W\(worker)")
                        context.insert(trip)
                        trip.bucketList = [makeItem("item \(worker).\(save)")]
                        try context.save()
                    }
                }
            }
            try await group.waitForAll()
        }
        let reopened = try store.reopenedContext()
        let trips = try reopened.fetch(FetchDescriptor<Trip>())
        #expect(trips.count == workers * savesPerWorker)
        for worker in 0..<workers {
            let mine = trips.filter { $0.destination == "W\(worker)" }
            #expect(mine.count == savesPerWorker, "worker \(worker)")
            #expect(mine.allSatisfy { $0.bucketList?.count == 1 })
        }
        #expect(try reopened.fetchCount(FetchDescriptor<BucketListItem>()) == workers * savesPerWorker)
    }

    @Test(arguments: StoreKind.allCases)
    func twoContextsEditingOneTripInTurnEachSeeTheOthersSave(kind: StoreKind) throws {
        let store = TestStore(kind)
        try editInTurn(ModelContext(try store.container()), ModelContext(try store.container()))
        let reopened = try store.reopenedContext()
        let trip = try #require(try reopened.fetch(FetchDescriptor<Trip>()).first)
        #expect(trip.destination == "Round 9")
        #expect(trip.bucketList?.map(\.title).sorted() == (0..<10).map { "Round \($0)" }.sorted())
    }

    private func editInTurn(_ first: ModelContext, _ second: ModelContext) throws {
        first.insert(makeTrip("Shared", destination: "Start"))
        try first.save()
        for round in 0..<10 {
            let (editor, other) = round % 2 == 0 ? (first, second) : (second, first)
            let trip = try #require(try editor.fetch(FetchDescriptor<Trip>()).first)
            trip.destination = "Round \(round)"
            trip.bucketList?.append(makeItem("Round \(round)"))
            try editor.save()
            let seen = try #require(try other.fetch(FetchDescriptor<Trip>()).first)
            #expect(seen.destination == "Round \(round)")
            #expect(seen.bucketList?.count == round + 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func twoContextsInsertingOneUniqueNameAtOnceEndWithOneMergedTrip(kind: StoreKind) async throws {
        let store = TestStore(kind)
        try await withThrowingTaskGroup(of: Void.self) { [container = try store.container()] group in
            for worker in 0..<2 {
                group.addTask {
                    let context = ModelContext(container)
                    let trip = makeTrip("Same name", destination: "From \(worker)")
                    context.insert(trip)
                    trip.bucketList = [makeItem("from \(worker)")]
                    try context.save()
                }
            }
            try await group.waitForAll()
        }
        let reopened = try store.reopenedContext()
        let trips = try reopened.fetch(FetchDescriptor<Trip>())
        #expect(trips.count == 1, "the unique name folds the two inserts into one trip")
        #expect(["From 0", "From 1"].contains(trips.first?.destination ?? ""))
        #expect(
            trips.first?.bucketList?.map(\.title).sorted() == ["from 0", "from 1"],
            "to-many relationships are united"
        )
    }
}
