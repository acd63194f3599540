import Foundation
import Logbook
import SampleTrips
import Testing

@testable import Logbook

/// Setting a relationship that was never read, and deleting a model inserted since the last save,
/// keep the other side in step in memory, as the delete rules then see it.
struct UnloadedRelationshipTests {
    typealias Item = SampleTripsSchemaV1.BucketListItem

    private func storeWithTwoTripsAndAnItem(_ url: URL) throws {
        let context = ModelContext(try ModelContainer(for: TripV1.self, configurations: ModelConfiguration(url: url)))
        let a = TripV1(name: "A", destination: "Lisbon", start_date: baseDate, end_date: baseDate + day)
        let b = TripV1(name: "B", destination: "Porto", start_date: baseDate, end_date: baseDate + day)
        context.insert(a)
        context.insert(b)
        let item = Item(title: "Tram 28", details: "", hasReservation: false, isInPlan: true)
        context.insert(item)
        item.trip = a
        try context.save()
    }

    @Test func movingAnItemWhoseTripWasNeverReadTakesItOffTheOldTripsList() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("trips.store"))
        try storeWithTwoTripsAndAnItem(url)
        do {
            let context = ModelContext(
                try ModelContainer(for: TripV1.self, configurations: ModelConfiguration(url: url))
            )
            let trips = try context.fetch(FetchDescriptor<TripV1>(sortBy: [SortDescriptor(\.name)]))
            let (a, b) = (trips[0], trips[1])
            #expect(a.bucketList?.map(\.title) == ["Tram 28"])
            let item = try #require(try context.fetch(FetchDescriptor<Item>()).first)
            item.trip = b
            #expect(a.bucketList?.isEmpty == true)
            #expect(b.bucketList?.map(\.title) == ["Tram 28"])
            // A's delete rule (nullify) no longer reaches the item.
            context.delete(a)
            try context.save()
        }
        let context = ModelContext(try ModelContainer(for: TripV1.self, configurations: ModelConfiguration(url: url)))
        let item = try #require(try context.fetch(FetchDescriptor<Item>()).first)
        #expect(item.trip?.name == "B")
    }

    @Test func deletingATripInsertedSinceTheLastSaveLetsItsItemsGo() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("trips.store"))
        do {
            let context = ModelContext(
                try ModelContainer(for: TripV1.self, configurations: ModelConfiguration(url: url))
            )
            let trip = TripV1(name: "A", destination: "Lisbon", start_date: baseDate, end_date: baseDate + day)
            context.insert(trip)
            let item = Item(title: "Tram 28", details: "", hasReservation: false, isInPlan: true)
            context.insert(item)
            item.trip = trip
            try context.save()
            let unsaved = TripV1(name: "B", destination: "Porto", start_date: baseDate, end_date: baseDate + day)
            context.insert(unsaved)
            item.trip = unsaved
            context.delete(unsaved)
            #expect(item.trip == nil)
            try context.save()
        }
        let context = ModelContext(try ModelContainer(for: TripV1.self, configurations: ModelConfiguration(url: url)))
        #expect(try context.fetch(FetchDescriptor<TripV1>()).map(\.name) == ["A"])
        let item = try #require(try context.fetch(FetchDescriptor<Item>()).first)
        #expect(item.trip == nil)
    }

    @Test func deletingAnUnsavedTripCascadesToItsUnsavedItems() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("trips.store"))
        do {
            let context = ModelContext(try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url)))
            let trip = makeTrip("Rome")
            context.insert(trip)
            trip.bucketList = [BucketListItem(title: "Forum", details: "", hasReservation: false, isInPlan: true)]
            context.delete(trip)
            #expect(!context.hasChanges)
            try context.save()
        }
        let context = ModelContext(try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url)))
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 0)
        #expect(try context.fetchCount(FetchDescriptor<BucketListItem>()) == 0)
    }
}
