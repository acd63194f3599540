import Foundation
import Logbook
import SampleTrips
import Testing

/// `PersistentModel.modelContext` and `isDeleted`: which context manages a model, and whether
/// it is deleted there.
struct ModelMembershipTests {
    @Test func aNewModelHasNoContextAndIsNotDeleted() {
        let trip = makeTrip("Lisbon")
        #expect(trip.modelContext == nil)
        #expect(!trip.isDeleted)
    }

    @Test(arguments: StoreKind.allCases)
    func anInsertedModelReportsItsContextBeforeAndAfterTheSave(kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = ModelContext(try store.container())
        let trip = makeTrip("Lisbon")
        context.insert(trip)
        #expect(trip.modelContext === context)
        try context.save()
        #expect(trip.modelContext === context)
        #expect(!trip.isDeleted)
        // A model reached through a relationship is inserted with it.
        let item = makeItem("Tram 28")
        trip.bucketList?.append(item)
        #expect(item.modelContext === context)
    }

    @Test(arguments: StoreKind.allCases)
    func aFetchedModelReportsTheContextThatFetchedItAfterReopening(kind: StoreKind) throws {
        let store = TestStore(kind)
        let writer = ModelContext(try store.container())
        writer.insert(makeTrip("Lisbon"))
        try writer.save()
        let reader = try store.reopenedContext()
        let trip = try #require(try reader.fetch(FetchDescriptor<Trip>()).first)
        #expect(trip.modelContext === reader)
        #expect(!trip.isDeleted)
    }

    @Test(arguments: StoreKind.allCases)
    func aModelMarkedForDeletionIsDeletedAndStillManagedUntilTheSave(kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = ModelContext(try store.container())
        let trip = makeTrip("Lisbon")
        trip.bucketList = [makeItem("Tram 28")]
        context.insert(trip)
        try context.save()
        let item = try #require(trip.bucketList?.first)

        context.delete(trip)
        #expect(trip.isDeleted)
        #expect(trip.modelContext === context)
        #expect(!item.isDeleted, "the cascade is applied by the save")

        try context.save()
        #expect(trip.isDeleted)
        #expect(trip.modelContext == nil)
        #expect(item.isDeleted, "deleted by the cascade the save applied")
        #expect(item.modelContext == nil)

        let reopened = try store.reopenedContext()
        #expect(try reopened.fetchCount(FetchDescriptor<Trip>()) == 0)
        #expect(try reopened.fetchCount(FetchDescriptor<BucketListItem>()) == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func aRollbackCancelsTheDeletion(kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = ModelContext(try store.container())
        let trip = makeTrip("Lisbon")
        context.insert(trip)
        try context.save()
        context.delete(trip)
        #expect(trip.isDeleted)
        context.rollback()
        #expect(!trip.isDeleted)
        #expect(trip.modelContext === context)
        let reopened = try store.reopenedContext()
        #expect(try reopened.fetchCount(FetchDescriptor<Trip>()) == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func deletingOrRollingBackAnUnsavedInsertForgetsTheModel(kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = ModelContext(try store.container())
        let deleted = makeTrip("Lisbon")
        context.insert(deleted)
        context.delete(deleted)
        #expect(!deleted.isDeleted, "an insert deleted before a save is forgotten, not deleted")
        #expect(deleted.modelContext == nil)

        let rolledBack = makeTrip("Porto")
        context.insert(rolledBack)
        context.rollback()
        #expect(rolledBack.modelContext == nil)
        #expect(!rolledBack.isDeleted)
    }

    @Test(arguments: StoreKind.allCases)
    func aModelMergedAwayByAnUpsertReportsTheContextAndDeletionOfTheKeptOne(kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = ModelContext(try store.container())
        let paris = makeTrip("Paris", destination: "Paris")
        context.insert(paris)
        try context.save()
        let paris2 = makeTrip("Paris", destination: "Lyon")
        context.insert(paris2)
        try context.save()
        #expect(paris2.modelContext === context)
        context.delete(paris2)
        #expect(paris.isDeleted)
        #expect(paris2.isDeleted)
        try context.save()
        #expect(paris.isDeleted)
        #expect(paris2.isDeleted)
        #expect(paris.modelContext == nil)
        #expect(paris2.modelContext == nil)
    }

    @Test func aModelOutlivingItsContextHasNoContext() throws {
        let store = TestStore(.memory)
        var context: ModelContext? = ModelContext(try store.container())
        let trip = makeTrip("Lisbon")
        context?.insert(trip)
        try context?.save()
        context = nil
        #expect(trip.modelContext == nil)
        #expect(!trip.isDeleted)
    }
}
