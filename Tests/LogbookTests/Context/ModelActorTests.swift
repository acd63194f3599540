import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// Imports trips in the background, as SwiftData's `@ModelActor` examples do.
@ModelActor
actor TripImporter {
    /// Inserts `count` trips named `prefix 0`, `prefix 1`…, saving every `perSave`.
    func importTrips(prefix: String, count: Int, perSave: Int) throws -> [PersistentIdentifier] {
        var trips: [Trip] = []
        for index in 0..<count {
            let trip = makeTrip("\(prefix) \(index)", destination: prefix, offset: Double(index))
            trip.bucketList = [makeItem("\(prefix) item \(index)")]
            modelContext.insert(trip)
            trips.append(trip)
            if (index + 1).isMultiple(of: perSave) { try modelContext.save() }
        }
        try modelContext.save()
        return trips.map(\.persistentModelID)
    }

    /// Renames the trip with an identifier, found through the actor's subscript.
    func rename(_ id: PersistentIdentifier, to name: String) throws -> Bool {
        guard let trip = self[id, as: Trip.self] else { return false }
        trip.name = name
        try modelContext.save()
        return true
    }

    /// Whether a method of the actor runs on its model executor's queue.
    func runsOnTheModelExecutor() -> Bool {
        (modelExecutor as? DefaultSerialModelExecutor)?.isRunningJob == true
    }
}

/// A public model actor: the members `@ModelActor` adds take its access level.
@ModelActor
public actor PublicImporter {
    func count() throws -> Int { try modelContext.fetchCount(FetchDescriptor<Trip>()) }
}

@MainActor
struct ModelActorTests {
    @Test func anActorsMethodsRunOnItsModelExecutorWithItsOwnContext() async throws {
        let container = try TestStore(.memory).container()
        let importer = TripImporter(modelContainer: container)
        #expect(importer.modelContainer === container)
        #expect(importer.modelExecutor is DefaultSerialModelExecutor)
        #expect(await importer.runsOnTheModelExecutor())
        let ids = try await importer.importTrips(prefix: "A", count: 3, perSave: 10)
        #expect(ids.allSatisfy { !$0.isTemporary })
        #expect(try await PublicImporter(modelContainer: container).count() == 3)
    }

    @Test(arguments: StoreKind.allCases)
    func twoActorsSavingWhileTheMainContextReadsAreAllVisibleAfterReopening(kind: StoreKind) async throws {
        let store = TestStore(kind)
        let tripsEach = 200
        let (seen, idsA) = try await saveFromTwoActors(store, tripsEach: tripsEach)
        #expect(seen == seen.sorted(), "the main context never sees saves go away: \(seen)")
        #expect(seen.last == 2 * tripsEach)

        let reopened = try store.reopenedContext()
        let trips = try reopened.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.count == 2 * tripsEach)
        #expect(Set(trips.map(\.destination)) == ["A", "B"])
        #expect(trips.allSatisfy { $0.bucketList?.count == 1 })
        #expect(try reopened.fetchCount(FetchDescriptor<BucketListItem>()) == 2 * tripsEach)
        let first = try #require(reopened.model(for: idsA[0]) as? Trip)
        #expect(first.name == "A 0")
    }

    /// Two importers save `tripsEach` trips each, ten per save, while a context on the main actor
    /// counts trips; returns the counts it saw and the first importer's identifiers. Everything
    /// but the store is let go of on return, so that the store on disk can be reopened.
    private func saveFromTwoActors(
        _ store: TestStore,
        tripsEach: Int
    ) async throws -> (seen: [Int], ids: [PersistentIdentifier]) {
        let container = try store.container()
        let main = ModelContext(container)
        let first = TripImporter(modelContainer: container)
        let second = TripImporter(modelContainer: container)
        async let a = first.importTrips(prefix: "A", count: tripsEach, perSave: 10)
        async let b = second.importTrips(prefix: "B", count: tripsEach, perSave: 10)
        var seen: [Int] = []
        for _ in 0..<100 {
            seen.append(try main.fetchCount(FetchDescriptor<Trip>()))
            await Task.yield()
        }
        let (idsA, idsB) = try await (a, b)
        #expect(idsA.count == tripsEach && idsB.count == tripsEach)
        #expect(Set(idsA + idsB).count == 2 * tripsEach, "every trip has its own identifier")
        seen.append(try main.fetchCount(FetchDescriptor<Trip>()))
        return (seen, idsA)
    }

    @Test(arguments: StoreKind.allCases)
    func theContainersMainContextSeesWhatAnActorSaved(kind: StoreKind) async throws {
        let store = TestStore(kind)
        let container = try store.container()
        let importer = TripImporter(modelContainer: container)
        let ids = try await importer.importTrips(prefix: "A", count: 5, perSave: 2)
        let main = container.mainContext
        #expect(try main.fetchCount(FetchDescriptor<Trip>()) == 5)
        #expect(try await importer.rename(ids[0], to: "Renamed"))
        let renamed = try #require(main.model(for: ids[0]) as? Trip)
        #expect(try main.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Renamed" })).first === renamed)
        #expect(renamed.name == "Renamed")
        withExtendedLifetime(store) {}
    }

    @Test func theSubscriptFindsNothingForAnUnknownIdentifierOrAnotherType() async throws {
        let container = try TestStore(.memory).container()
        let importer = TripImporter(modelContainer: container)
        let ids = try await importer.importTrips(prefix: "A", count: 1, perSave: 1)
        #expect(try await importer.rename(ids[0], to: "Kept"))
        let context = ModelContext(container)
        let item = try #require(try context.fetch(FetchDescriptor<BucketListItem>()).first)
        #expect(try await !importer.rename(item.persistentModelID, to: "Not a trip"))
    }
}
