import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// An update that writes no attribute an index holds leaves the object where the indexes have
/// it; one that writes such an attribute moves it. Both read back the same way after reopening.
struct UpdatesOutsideIndexesTests {
    private func names(_ context: ModelContext, destination: String) throws -> [String] {
        let matching = #Predicate<Trip> { $0.destination == destination }
        let descriptor = FetchDescriptor<Trip>(predicate: matching, sortBy: [SortDescriptor(\.name)])
        return try context.fetch(descriptor).map(\.name)
    }

    @Test func equalityAndUniqueIndexesFollowUpdatesOfTheirOwnAttributesOnly() throws {
        let store = CheckpointStore()
        do {
            let container = try store.open()
            let context = ModelContext(container)
            for index in 0..<6 {
                let start = Date(timeIntervalSinceReferenceDate: Double(index))
                context.insert(
                    Trip(name: "trip \(index)", destination: index < 3 ? "a" : "b", startDate: start, endDate: start)
                )
            }
            try context.save()
            // Builds the equality index on `destination`.
            #expect(try names(context, destination: "a") == ["trip 0", "trip 1", "trip 2"])
            let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
            // Outside every index: the start date. Inside: a destination, and a unique name.
            trips[0].startDate = Date(timeIntervalSinceReferenceDate: 1_000)
            trips[1].destination = "b"
            trips[4].name = "renamed"
            try context.save()
            let fresh = ModelContext(container)
            #expect(try names(fresh, destination: "a") == ["trip 0", "trip 2"])
            #expect(try names(fresh, destination: "b") == ["renamed", "trip 1", "trip 3", "trip 5"])
            let renamed = try fresh.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "renamed" }))
            #expect(renamed.map(\.destination) == ["b"])
            let old = try fresh.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "trip 4" }))
            #expect(old.isEmpty)
            // A new trip with the name an update of another attribute left in place folds into it.
            let folded = Date(timeIntervalSinceReferenceDate: 2_000)
            fresh.insert(Trip(name: "trip 0", destination: "c", startDate: folded, endDate: folded))
            try fresh.save()
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 6)
        }
        let reopened = ModelContext(try store.open())
        #expect(try names(reopened, destination: "c") == ["trip 0"])
        #expect(try names(reopened, destination: "b") == ["renamed", "trip 1", "trip 3", "trip 5"])
        let moved = try reopened.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "trip 0" }))
        #expect(moved.map(\.startDate.timeIntervalSinceReferenceDate) == [2_000])
    }
}
