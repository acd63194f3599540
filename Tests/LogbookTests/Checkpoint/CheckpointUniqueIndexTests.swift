import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// A table loaded from a checkpoint builds its unique indexes the first time something needs
/// them: a fetch builds none; the first lookup by a unique value or save builds them once, for
/// every thread.
struct CheckpointUniqueIndexTests {
    private func tripsWithACheckpoint(_ count: Int) throws -> CheckpointStore {
        let store = CheckpointStore()
        let container = try store.open()
        try CheckpointStore.insertTrips(count, itemsEach: 0, into: container)
        try container.checkpoint()
        return store
    }

    /// Whether the trips' unique indexes are still to be built, or `nil` when they are the
    /// table's own.
    private func pendingBuilt(_ container: ModelContainer) -> Bool? {
        container.store.read { state in
            state.projection.tables.first { $0.entity.name == "Trip" }?.pendingUnique?.isBuilt
        }
    }

    @Test func aSortedFetchBuildsNoUniqueIndexAndALookupBuildsItOnce() throws {
        let store = try tripsWithACheckpoint(300)
        let container = try store.open()
        #expect(store.openedFromCheckpoint)
        #expect(pendingBuilt(container) == false)
        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate, order: .reverse)])
        descriptor.fetchLimit = 3
        let screen = try ModelContext(container).fetch(descriptor).map(\.name)
        #expect(screen == ["trip 299", "trip 298", "trip 297"])
        #expect(pendingBuilt(container) == false)

        let name = "trip 17"
        let found = try ModelContext(container).fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name }))
        #expect(found.map(\.destination) == ["place 17"])
        #expect(pendingBuilt(container) == true)
    }

    @Test func lookupsOnSeveralThreadsRightAfterTheOpenEachFindTheirTrip() throws {
        let store = try tripsWithACheckpoint(2_000)
        let container = try store.open()
        #expect(store.openedFromCheckpoint)
        let found = Locked<[Int: [String]]>([:])
        let threads = (0..<4).map { thread in
            Thread {
                let name = "trip \(thread * 500 + 7)"
                let trips =
                    (try? ModelContext(container).fetch(
                        FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name })
                    ))
                    ?? []
                found.withLock { $0[thread] = trips.map(\.destination) }
            }
        }
        for thread in threads { thread.start() }
        let deadline = Date.now.addingTimeInterval(10)
        while found.withLock({ $0.count }) < 4 && Date.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
        for thread in 0..<4 {
            #expect(found.withLock { $0[thread] } == ["place \(thread * 500 + 7)"])
        }
    }

    @Test func theFirstSaveBuildsTheIndexesAndAnInsertOfATakenNameFoldsAfterAReopen() throws {
        let store = try tripsWithACheckpoint(400)
        do {
            let container = try store.open()
            #expect(pendingBuilt(container) == false)
            let context = ModelContext(container)
            context.insert(Trip(name: "trip 3", destination: "folded", startDate: .now, endDate: .now))
            try context.save()
            // The save took the indexes as the table's own.
            #expect(pendingBuilt(container) == nil)
        }
        let reopened = try store.open()
        let name = "trip 3"
        let trips = try ModelContext(reopened).fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name }))
        #expect(trips.map(\.destination) == ["folded"])
        #expect(try ModelContext(reopened).fetchCount(FetchDescriptor<Trip>()) == 400)
    }
}
