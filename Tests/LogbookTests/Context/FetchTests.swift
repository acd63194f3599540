import Foundation
import Logbook
import SampleTrips
import Testing

struct FetchTests {
    /// A store with trips "T0" ... "T9": even ones to Lisbon, odd ones to Kyoto, start dates
    /// in reverse order of their number.
    private func seeded(_ kind: StoreKind) throws -> TestStore {
        let store = TestStore(kind)
        let context = ModelContext(try store.container())
        for n in 0..<10 {
            context.insert(makeTrip("T\(n)", destination: n % 2 == 0 ? "Lisbon" : "Kyoto", offset: Double(10 - n)))
        }
        try context.save()
        return store
    }

    @Test(arguments: StoreKind.allCases)
    func predicateSortLimitAndOffset(kind: StoreKind) throws {
        let store = try seeded(kind)
        let context = try store.reopenedContext()
        var descriptor = FetchDescriptor<Trip>(
            predicate: #Predicate { $0.destination == "Lisbon" },
            sortBy: [SortDescriptor(\.startDate)]
        )
        #expect(try context.fetch(descriptor).map(\.name) == ["T8", "T6", "T4", "T2", "T0"])
        descriptor.fetchOffset = 1
        descriptor.fetchLimit = 2
        #expect(try context.fetch(descriptor).map(\.name) == ["T6", "T4"])
        #expect(try context.fetchCount(descriptor) == 2)
        descriptor.fetchOffset = 10
        #expect(try context.fetch(descriptor).isEmpty)
        let reverse = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name, order: .reverse)])
        #expect(try context.fetch(reverse).first?.name == "T9")
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 10)
    }

    /// A lookup by unique name, answered without the general fetch, still honours the rest of
    /// the descriptor and the other contexts' saves.
    @Test(arguments: StoreKind.allCases)
    func aLookupByUniqueNameHonoursOffsetLimitSortAndOtherContextsSaves(kind: StoreKind) throws {
        let store = try seeded(kind)
        do {
            let container = try store.container()
            let context = ModelContext(container)
            var descriptor = FetchDescriptor<Trip>(
                predicate: #Predicate { $0.name == "T3" },
                sortBy: [SortDescriptor(\.startDate, order: .reverse)]
            )
            let found = try context.fetch(descriptor)
            #expect(found.map(\.destination) == ["Kyoto"])
            #expect(try context.fetch(descriptor).first === found.first, "one object per identifier")
            descriptor.fetchLimit = 0
            #expect(try context.fetch(descriptor).isEmpty)
            descriptor.fetchLimit = 5
            descriptor.fetchOffset = 1
            #expect(try context.fetch(descriptor).isEmpty)
            descriptor.fetchOffset = 0
            #expect(try context.fetchCount(descriptor) == 1)
            #expect(try context.fetchIdentifiers(descriptor) == found.map(\.persistentModelID))
            // Another context renames the trip and saves: the next lookup sees it.
            let other = ModelContext(container)
            let trip = try #require(
                try other.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "T3" })).first
            )
            trip.name = "T3 renamed"
            try other.save()
            #expect(try context.fetch(descriptor).isEmpty)
            let renamed = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "T3 renamed" }))
            #expect(renamed.first === found.first)
        }
        // After reopening, the store answers the same.
        let reopened = try store.reopenedContext()
        #expect(try reopened.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "T3 renamed" })).count == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func anEqualityOnTheUniqueNameFindsTheTripAndPendingChangesCount(kind: StoreKind) throws {
        let store = try seeded(kind)
        let context = try store.reopenedContext()
        let name = "T7"
        let found = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name }))
        #expect(found.map(\.destination) == ["Kyoto"])
        let reversed = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { name == $0.name }))
        #expect(reversed.first === found.first)
        #expect(try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "nope" })).isEmpty)
        // Unsaved inserts match unless the descriptor excludes pending changes.
        context.insert(makeTrip("Pending"))
        var pending = FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Pending" })
        #expect(try context.fetch(pending).count == 1)
        pending.includePendingChanges = false
        #expect(try context.fetch(pending).isEmpty)
        // Deleted models are gone from fetches before the save.
        let doomed = try #require(found.first)
        context.delete(doomed)
        #expect(try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "T7" })).isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func identifiersAndDeleteWhere(kind: StoreKind) throws {
        let store = try seeded(kind)
        do {
            let context = try store.reopenedContext()
            let identifiers = try context.fetchIdentifiers(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
            #expect(identifiers.count == 10)
            #expect(Set(identifiers).count == 10)
            #expect(identifiers.allSatisfy { $0.entityName == "Trip" && !$0.isTemporary })
            try context.delete(model: Trip.self, where: #Predicate { $0.destination == "Kyoto" })
            try context.save()
        }
        let context = try store.reopenedContext()
        #expect(
            try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name) == [
                "T0", "T2", "T4", "T6", "T8",
            ]
        )
    }

    @Test(arguments: StoreKind.allCases)
    func equalityFetchesSeeUnsavedChangesOfRegisteredObjects(kind: StoreKind) throws {
        let store = try seeded(kind)
        let context = try store.reopenedContext()
        let all = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        let moved = try #require(all.first { $0.name == "T1" })
        moved.destination = "Lisbon"
        let away = try #require(all.first { $0.name == "T2" })
        away.destination = "Oslo"
        away.name = "Renamed"
        let lisbon = try context.fetch(
            FetchDescriptor<Trip>(
                predicate: #Predicate { $0.destination == "Lisbon" },
                sortBy: [SortDescriptor(\.name)]
            )
        )
        #expect(lisbon.map(\.name) == ["T0", "T1", "T4", "T6", "T8"])
        #expect(try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Renamed" })).first === away)
        #expect(try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "T2" })).isEmpty)
        var saved = FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "Lisbon" })
        saved.includePendingChanges = false
        #expect(try context.fetch(saved).count == 5, "the stored values, T2 still among them")
    }
}
