import Foundation
import Logbook
import SampleTrips
import Testing

/// After an upsert, a context holds one object per identifier: the one it held before, which
/// the inserted object stands in for.
struct UpsertIdentityTests {
    /// Saves `Paris` (to Paris), then inserts it again (to Lyon) and saves: an upsert.
    private func upsert(in context: ModelContext) throws -> (kept: Trip, inserted: Trip) {
        let paris = makeTrip("Paris", destination: "Paris")
        context.insert(paris)
        try context.save()
        let paris2 = makeTrip("Paris", destination: "Lyon", offset: 10)
        context.insert(paris2)
        try context.save()
        return (paris, paris2)
    }

    /// The one trip a fresh context over the store fetches.
    private func onlyTrip(_ context: ModelContext) throws -> Trip {
        let trips = try context.fetch(FetchDescriptor<Trip>())
        #expect(trips.count == 1)
        return try #require(trips.first)
    }

    @Test(arguments: StoreKind.allCases)
    func theContextKeepsTheObjectItHeldAndBothReferencesReadTheMergedValues(kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = ModelContext(try store.container())
        let (paris, paris2) = try upsert(in: context)
        #expect(paris2.persistentModelID == paris.persistentModelID)
        #expect(paris.destination == "Lyon", "the later insert wins")
        #expect(paris2.destination == "Lyon")
        #expect(paris2.startDate == baseDate + 10 * day)
        #expect(try onlyTrip(context) === paris, "a fetch returns the object the context held")
        #expect(context.model(for: paris2.persistentModelID) === paris)
        #expect(!context.hasChanges)
    }

    @Test(arguments: StoreKind.allCases)
    func editsThroughTheInsertedReferenceReachTheKeptObjectAndTheStore(kind: StoreKind) throws {
        let store = TestStore(kind)
        do {
            let context = ModelContext(try store.container())
            let (paris, paris2) = try upsert(in: context)
            paris2.destination = "Nice"
            #expect(paris.destination == "Nice", "the kept object shows the edit before the save")
            #expect(context.hasChanges)
            try context.save()
            let fetched = try onlyTrip(context)
            #expect(fetched === paris)
            #expect(fetched.destination == "Nice")
            let otherContext = ModelContext(try store.container())
            #expect(try onlyTrip(otherContext).destination == "Nice")
        }
        #expect(try onlyTrip(try store.reopenedContext()).destination == "Nice")
    }

    @Test(arguments: StoreKind.allCases)
    func editsThroughTheKeptReferenceAreReadThroughTheInsertedOne(kind: StoreKind) throws {
        let store = TestStore(kind)
        do {
            let context = ModelContext(try store.container())
            let (paris, paris2) = try upsert(in: context)
            paris.destination = "Rome"
            #expect(paris2.destination == "Rome")
            try context.save()
            // Alternating edits through both references: the last one wins, whichever it is.
            paris2.endDate = baseDate + 40 * day
            paris.destination = "Turin"
            paris2.destination = "Milan"
            #expect(paris.destination == "Milan")
            #expect(paris.endDate == baseDate + 40 * day)
            try context.save()
            let fetched = try onlyTrip(context)
            #expect(fetched === paris)
            #expect(fetched.destination == "Milan")
            let otherContext = ModelContext(try store.container())
            let other = try onlyTrip(otherContext)
            #expect(other.destination == "Milan")
            #expect(other.endDate == baseDate + 40 * day)
        }
        let reopened = try onlyTrip(try store.reopenedContext())
        #expect(reopened.destination == "Milan")
        #expect(reopened.endDate == baseDate + 40 * day)
    }

    @Test(arguments: StoreKind.allCases)
    func relationshipsSetThroughEitherReferenceBelongToTheKeptObject(kind: StoreKind) throws {
        let store = TestStore(kind)
        do {
            let context = ModelContext(try store.container())
            let paris = makeTrip("Paris", destination: "Paris")
            context.insert(paris)
            paris.bucketList?.append(makeItem("Louvre"))
            try context.save()
            let paris2 = makeTrip("Paris", destination: "Lyon")
            context.insert(paris2)
            let croissant = makeItem("Croissant")
            paris2.bucketList?.append(croissant)
            try context.save()
            #expect(croissant.trip === paris, "references to the merged-away object move to the kept one")
            #expect(Set(paris.bucketList?.map(\.title) ?? []) == ["Louvre", "Croissant"])
            #expect(Set(paris2.bucketList?.map(\.title) ?? []) == ["Louvre", "Croissant"])

            let tower = makeItem("Tower")
            paris2.bucketList?.append(tower)
            #expect(tower.trip === paris)
            #expect(paris.bucketList?.count == 3)
            let boat = makeItem("Boat")
            context.insert(boat)
            boat.trip = paris2
            #expect(paris.bucketList?.contains { $0 === boat } == true)
            paris2.livingAccommodation = LivingAccommodation(address: "Rue 1", placeName: "Hotel")
            #expect(paris.livingAccommodation?.placeName == "Hotel")
            try context.save()
            let titles = Set(try onlyTrip(context).bucketList?.map(\.title) ?? [])
            #expect(titles == ["Louvre", "Croissant", "Tower", "Boat"])
            let otherContext = ModelContext(try store.container())
            let other = try onlyTrip(otherContext)
            #expect(other.bucketList?.count == 4)
            #expect(other.livingAccommodation?.placeName == "Hotel")
        }
        let reopened = try store.reopenedContext()
        let trip = try onlyTrip(reopened)
        #expect(Set(trip.bucketList?.map(\.title) ?? []) == ["Louvre", "Croissant", "Tower", "Boat"])
        #expect(trip.livingAccommodation?.placeName == "Hotel")
        #expect(try reopened.fetchCount(FetchDescriptor<BucketListItem>()) == 4)
    }

    @Test(arguments: StoreKind.allCases)
    func deletingTheInsertedReferenceDeletesTheModel(kind: StoreKind) throws {
        let store = TestStore(kind)
        do {
            let context = ModelContext(try store.container())
            let (_, paris2) = try upsert(in: context)
            context.delete(paris2)
            try context.save()
            #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 0)
            #expect(try ModelContext(try store.container()).fetchCount(FetchDescriptor<Trip>()) == 0)
        }
        #expect(try store.reopenedContext().fetchCount(FetchDescriptor<Trip>()) == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func anInsertMergedIntoAModelTheContextDidNotHoldShowsTheMergedModel(kind: StoreKind) throws {
        let store = TestStore(kind)
        let writer = ModelContext(try store.container())
        let paris = makeTrip("Paris", destination: "Paris")
        writer.insert(paris)
        paris.bucketList?.append(makeItem("Louvre"))
        try writer.save()

        let context = ModelContext(try store.container())
        let paris2 = makeTrip("Paris", destination: "Lyon")
        context.insert(paris2)
        paris2.bucketList?.append(makeItem("Croissant"))
        try context.save()
        #expect(try onlyTrip(context) === paris2, "the inserted object is the context's object of the model")
        #expect(Set(paris2.bucketList?.map(\.title) ?? []) == ["Louvre", "Croissant"], "to-many relationships united")
        paris2.destination = "Nice"
        try context.save()
        #expect(try onlyTrip(writer).destination == "Nice")
    }

    @Test(arguments: StoreKind.allCases)
    func twoInsertsOfOneNameInOneSaveLeaveOneObject(kind: StoreKind) throws {
        let store = TestStore(kind)
        do {
            let context = ModelContext(try store.container())
            let first = makeTrip("Paris", destination: "Paris")
            let second = makeTrip("Paris", destination: "Lyon")
            context.insert(first)
            context.insert(second)
            try context.save()
            let fetched = try onlyTrip(context)
            #expect(fetched === first)
            #expect(first.destination == "Lyon", "the later insert wins")
            second.destination = "Nice"
            #expect(first.destination == "Nice")
            try context.save()
        }
        #expect(try onlyTrip(try store.reopenedContext()).destination == "Nice")
    }
}
