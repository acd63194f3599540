import Foundation
import Logbook
import SampleTrips
import Testing

/// `ModelContainer.deleteAllData()` and `erase()`: every object of every entity goes, durably,
/// and the store keeps its schema and accepts saves.
struct DeleteAllDataTests {
    /// Saves two trips, each with an item and an accommodation.
    private func fill(_ context: ModelContext) throws {
        for name in ["Lisbon", "Porto"] {
            let trip = makeTrip(name)
            trip.bucketList = [makeItem("Walk in \(name)")]
            trip.livingAccommodation = LivingAccommodation(address: "Rua 1", placeName: "Hotel \(name)")
            context.insert(trip)
        }
        try context.save()
    }

    private func counts(_ context: ModelContext) throws -> [Int] {
        [
            try context.fetchCount(FetchDescriptor<Trip>()),
            try context.fetchCount(FetchDescriptor<BucketListItem>()),
            try context.fetchCount(FetchDescriptor<LivingAccommodation>()),
        ]
    }

    @Test(arguments: StoreKind.allCases, [false, true])
    func everyObjectOfEveryEntityIsDeletedAndStaysDeletedAfterReopening(kind: StoreKind, erase: Bool) throws {
        let store = TestStore(kind)
        let container = try store.container()
        let context = ModelContext(container)
        try fill(context)
        #expect(try counts(context) == [2, 2, 2])

        if erase { try container.erase() } else { try container.deleteAllData() }
        #expect(try counts(context) == [0, 0, 0], "the context sees the store empty at its next fetch")
        #expect(try counts(ModelContext(container)) == [0, 0, 0])

        let reopened = try store.reopenedContext()
        #expect(try counts(reopened) == [0, 0, 0])
        #expect(reopened.container.schema == Schema([Trip.self]), "the schema is kept")
        reopened.insert(makeTrip("Braga"))
        try reopened.save()
        #expect(try store.reopenedContext().fetch(FetchDescriptor<Trip>()).map(\.name) == ["Braga"])
    }

    @Test(arguments: StoreKind.allCases)
    func theStoreAcceptsSavesAfterwardsAndKeepsThemAfterReopening(kind: StoreKind) throws {
        let store = TestStore(kind)
        let container = try store.container()
        try fill(ModelContext(container))
        try container.deleteAllData()

        let context = ModelContext(container)
        let lisbon = makeTrip("Lisbon", destination: "Lisbon again")
        lisbon.bucketList = [makeItem("Tram 28")]
        context.insert(lisbon)
        try context.save()

        let reopened = try store.reopenedContext()
        #expect(try counts(reopened) == [1, 1, 0])
        let trip = try #require(try reopened.fetch(FetchDescriptor<Trip>()).first)
        #expect(trip.name == "Lisbon")
        #expect(trip.destination == "Lisbon again", "a new object, not the deleted one's values")
        #expect(trip.bucketList?.map(\.title) == ["Tram 28"])
    }

    @Test(arguments: StoreKind.allCases)
    func deletingTheDataOfAnEmptyStoreDoesNothing(kind: StoreKind) throws {
        let store = TestStore(kind)
        try store.container().deleteAllData()
        #expect(try counts(try store.reopenedContext()) == [0, 0, 0])
    }

    @Test(arguments: StoreKind.allCases)
    func aContainerThatMayNotSaveRefusesNamingTheStore(kind: StoreKind) throws {
        let store = TestStore(kind)
        try fill(ModelContext(try store.container()))
        let readOnly: ModelContainer
        if kind == .disk {
            store.close()
            readOnly = try ModelContainer(
                for: Trip.self,
                configurations: ModelConfiguration(url: store.url, allowsSave: false)
            )
        } else {
            readOnly = try ModelContainer(
                for: Trip.self,
                configurations: ModelConfiguration(isStoredInMemoryOnly: true, allowsSave: false)
            )
        }
        let error = try #require(throws: LogbookError.self) { try readOnly.deleteAllData() }
        #expect(error.code == .saveNotAllowed)
        #expect(error.message == "this container's configuration does not allow saving, so its data cannot be deleted")
        if kind == .disk {
            #expect(error.path == store.url.path)
            #expect(try counts(ModelContext(readOnly)) == [2, 2, 2], "nothing was deleted")
        }
    }
}
