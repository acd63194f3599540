import Foundation
import Logbook
import SampleTrips
import Testing

@testable import Logbook

struct SaveSemanticsTests {
    @Test(arguments: StoreKind.allCases)
    func insertingADuplicateUniqueNameUpdatesTheStoredTripAndUnitesBucketLists(kind: StoreKind) throws {
        let store = TestStore(kind)
        do {
            let context = ModelContext(try store.container())
            let first = makeTrip("Summer", destination: "Lisbon")
            context.insert(first)
            first.bucketList?.append(makeItem("Tram"))
            try context.save()
            let second = makeTrip("Summer", destination: "Porto", offset: 30)
            context.insert(second)
            second.bucketList?.append(makeItem("Port wine"))
            try context.save()
            #expect(
                second.persistentModelID == first.persistentModelID,
                "the inserted object takes the stored identifier"
            )
            #expect(first.destination == "Porto", "the registered object is brought up to date")
        }
        let context = try store.reopenedContext()
        let trips = try context.fetch(FetchDescriptor<Trip>())
        #expect(trips.count == 1)
        let trip = try #require(trips.first)
        #expect(trip.destination == "Porto", "the later insert wins attributes")
        #expect(trip.startDate == baseDate + 30 * day)
        #expect(Set(trip.bucketList?.map(\.title) ?? []) == ["Tram", "Port wine"], "to-many relationships are united")
        #expect(try context.fetchCount(FetchDescriptor<BucketListItem>()) == 2)
    }

    @Test(arguments: StoreKind.allCases)
    func deletingATripCascadesToItsItemsAndAccommodationAsExplicitEvents(kind: StoreKind) throws {
        let store = TestStore(kind)
        do {
            let context = ModelContext(try store.container())
            let trip = makeTrip("Doomed")
            context.insert(trip)
            trip.bucketList = [makeItem("a"), makeItem("b")]
            trip.livingAccommodation = LivingAccommodation(address: "x", placeName: "y")
            context.insert(makeTrip("Kept"))
            try context.save()
            context.delete(trip)
            try context.save()
        }
        let context = try store.reopenedContext()
        #expect(try context.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Kept"])
        #expect(try context.fetchCount(FetchDescriptor<BucketListItem>()) == 0)
        #expect(try context.fetchCount(FetchDescriptor<LivingAccommodation>()) == 0)
        if kind == .disk {
            let deletes = try loggedEvents(store.url).compactMap { event -> String? in
                if case .delete(let entity, _, _) = event { return entity }
                return nil
            }
            #expect(deletes.sorted() == ["BucketListItem", "BucketListItem", "LivingAccommodation", "Trip"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func nullifyClearsTheReferencesOfTheModelsThatRemain(kind: StoreKind) throws {
        let store = TestStore(kind)
        let url = store.url
        let configuration = store.configuration
        do {
            let context = ModelContext(try ModelContainer(for: Book.self, configurations: configuration))
            let book = Book(title: "Dune")
            let reader = Reader(name: "Ana")
            context.insert(book)
            book.readers = [reader]
            try context.save()
            #expect(reader.books.first === book)
            context.delete(book)
            try context.save()
            #expect(reader.books.isEmpty)
        }
        guard kind == .disk else { return }
        let context = ModelContext(try ModelContainer(for: Book.self, configurations: ModelConfiguration(url: url)))
        let readers = try context.fetch(FetchDescriptor<Reader>())
        #expect(readers.map(\.name) == ["Ana"])
        #expect(readers.first?.books.isEmpty == true)
    }

    @Test(arguments: StoreKind.allCases)
    func denyRefusesTheSaveNamingTheObjectAndRelationshipAndChangesNothing(kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = ModelContext(try ModelContainer(for: Shelf.self, configurations: store.configuration))
        let shelf = Shelf(label: "Fiction")
        context.insert(shelf)
        shelf.books = [Book(title: "Dune")]
        try context.save()
        let before = kind == .disk ? try storeBytes(store.url) : [:]
        context.delete(shelf)
        let error = #expect(throws: LogbookError.self) { try context.save() }
        #expect(error?.code == .validationFailed)
        #expect(error?.description.contains("Shelf.books") == true)
        #expect(error?.description.contains("deny") == true)
        #expect(error?.description.contains("1 related model(s) remain") == true)
        #expect(context.hasChanges, "the delete stays pending")
        if kind == .disk { #expect(try storeBytes(store.url) == before, "nothing written") }
        // Once the books are gone, the shelf can go.
        for book in shelf.books { context.delete(book) }
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Shelf>()) == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func aMaximumModelCountIsCheckedAtSaveNamingEntityRelationshipAndCount(kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = ModelContext(try ModelContainer(for: Book.self, configurations: store.configuration))
        let book = Book(title: "Popular")
        context.insert(book)
        book.readers = [Reader(name: "a"), Reader(name: "b"), Reader(name: "c")]
        let error = #expect(throws: LogbookError.self) { try context.save() }
        #expect(error?.code == .validationFailed)
        #expect(error?.description.contains("Book.readers") == true)
        #expect(error?.description.contains("has 3 model(s), more than its maximumModelCount of 2") == true)
        #expect(context.hasChanges)
        book.readers.removeLast()
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Reader>()) == 3, "the removed reader was still inserted")
    }

    @Test(arguments: StoreKind.allCases)
    func rollbackRestoresSavedValuesAndForgetsInserts(kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = ModelContext(try store.container())
        let trip = makeTrip("Stable", destination: "Before")
        context.insert(trip)
        try context.save()
        trip.destination = "Changed"
        context.insert(makeTrip("Unsaved"))
        context.rollback()
        #expect(trip.destination == "Before")
        #expect(!context.hasChanges)
        #expect(try context.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Stable"])
    }

    /// A model forgotten by a rollback or a save keeps its old position among the inserts; the
    /// models inserted after it take those positions again, and must not be confused with it.
    @Test(arguments: StoreKind.allCases)
    func aModelForgottenByARollbackOrASaveIsNotMistakenForALaterInsert(kind: StoreKind) throws {
        let store = TestStore(kind)
        do {
            let context = ModelContext(try store.container())
            let forgotten = makeTrip("Forgotten")
            context.insert(forgotten)
            context.rollback()
            let later = makeTrip("Later")
            context.insert(later)
            // Deleting the forgotten model must not remove the model now in its old position.
            context.delete(forgotten)
            #expect(context.insertedModelsArray.map(\.persistentModelID) == [later.persistentModelID])
            try context.save()

            let saved = makeTrip("Saved first")
            context.insert(saved)
            try context.save()
            let next = makeTrip("Inserted after a save")
            context.insert(next)
            // A saved model is not inserted, whatever position it once had.
            context.insert(saved)
            #expect(context.insertedModelsArray.count == 1)
            // The forgotten model can be inserted again, and is saved.
            context.insert(forgotten)
            #expect(context.insertedModelsArray.count == 2)
            try context.save()
        }
        let names = try store.reopenedContext().fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(
            \.name
        )
        #expect(names == ["Forgotten", "Inserted after a save", "Later", "Saved first"])
    }

    @Test(arguments: StoreKind.allCases)
    func aTransactionThatThrowsRollsBackAndSavesNothing(kind: StoreKind) throws {
        struct Abort: Error {}
        let store = TestStore(kind)
        do {
            let context = ModelContext(try store.container())
            #expect(throws: Abort.self) {
                try context.transaction {
                    context.insert(makeTrip("Never"))
                    throw Abort()
                }
            }
            #expect(!context.hasChanges)
            try context.transaction { context.insert(makeTrip("Saved")) }
        }
        let reopened = try store.reopenedContext()
        #expect(try reopened.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Saved"])
    }

    @Test func aContainerThatDoesNotAllowSavingRefusesToSave() throws {
        let context = ModelContext(
            try ModelContainer(
                for: Trip.self,
                configurations: ModelConfiguration(isStoredInMemoryOnly: true, allowsSave: false)
            )
        )
        context.insert(makeTrip("x"))
        let error = #expect(throws: LogbookError.self) { try context.save() }
        #expect(error?.code == .saveNotAllowed)
    }

    /// A save records into the emptied arrays of the save before it: a large save, then a small
    /// one, then a failed one and its retry (both large enough to be appended on another
    /// thread) each write exactly their own inserts.
    @Test func savesOfEverySizeAfterEachOtherWriteOnlyTheirOwnInserts() throws {
        let store = TestStore(.disk)
        let syscalls = FaultySyscalls()
        do {
            let context = try contextWritingThrough(syscalls, store)
            for number in 0..<100 {
                let trip = makeTrip("Large \(number)", destination: "Lisbon \(number) with a long name")
                context.insert(trip)
                trip.bucketList?.append(makeItem("Item \(number)"))
            }
            try context.save()
            context.insert(makeTrip("Small", destination: "Porto"))
            try context.save()
            for number in 0..<70 {
                let trip = makeTrip("Retried \(number)", destination: "Faro")
                context.insert(trip)
                trip.bucketList?.append(makeItem("Retried item \(number)"))
            }
            syscalls.inject(.fail(.noSpace), on: .pwrite)
            #expect(throws: LogbookError.self) { try context.save() }
            try context.save()
        }
        let context = try store.reopenedContext()
        let trips = try context.fetch(FetchDescriptor<Trip>())
        #expect(trips.count == 171)
        let byName = Dictionary(uniqueKeysWithValues: trips.map { ($0.name, $0) })
        #expect(byName["Large 42"]?.destination == "Lisbon 42 with a long name")
        #expect(byName["Large 42"]?.bucketList?.map(\.title) == ["Item 42"])
        #expect(byName["Small"]?.destination == "Porto")
        #expect(byName["Small"]?.bucketList?.isEmpty == true)
        #expect(byName["Retried 69"]?.bucketList?.map(\.title) == ["Retried item 69"])
        #expect(try context.fetchCount(FetchDescriptor<BucketListItem>()) == 170)
        #expect(
            trips.allSatisfy { trip in trip.bucketList?.allSatisfy { $0.trip === trip } ?? true },
            "every item belongs to its own trip"
        )
    }

    /// The arrays a save keeps for the next one are those of a batch of moderate size: after a
    /// save of more inserts than that, the store and the context keep nothing of it.
    @Test func onlyTheArraysOfAModerateSaveAreKeptForTheNext() throws {
        let context = ModelContext(
            try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        )
        for number in 0..<10 { context.insert(makeTrip("Moderate \(number)")) }
        try context.save()
        #expect(context.store.read { $0.spareInserts != nil })
        #expect(context.scratchInserts.isEmpty && context.scratchInserts.capacity >= 10)
        for number in 0...Store.spareInsertsLimit { context.insert(makeTrip("Large \(number)")) }
        try context.save()
        #expect(context.store.read { $0.spareInserts == nil })
        #expect(context.scratchInserts.capacity < Store.spareInsertsLimit)
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == Store.spareInsertsLimit + 11)
    }

    @Test func aFailedWriteLeavesTheStoreAsItWasAndTheChangesPending() throws {
        let store = TestStore(.disk)
        let syscalls = FaultySyscalls()
        do {
            let context = try contextWritingThrough(syscalls, store)
            context.insert(makeTrip("First"))
            try context.save()
            let before = try storeBytes(store.url)
            let second = makeTrip("Second")
            let temporary = second.persistentModelID
            context.insert(second)
            let third = makeTrip("Third")
            context.insert(third)
            syscalls.inject(.fail(.noSpace), on: .pwrite)
            let error = #expect(throws: LogbookError.self) { try context.save() }
            #expect(error?.code == .io)
            #expect(try storeBytes(store.url) == before)
            #expect(context.hasChanges)
            #expect(second.persistentModelID == temporary, "the temporary identifier read before the save is kept")
            #expect(third.persistentModelID.isTemporary, "no permanent identifier from a failed save")
            #expect(context.model(for: temporary) === second)
            #expect(
                try context.fetch(FetchDescriptor<Trip>()).map(\.name).sorted() == ["First", "Second", "Third"],
                "pending insert still fetched"
            )
            try context.save()
            #expect(!second.persistentModelID.isTemporary)
        }
        let reopened = try store.reopenedContext()
        #expect(
            try reopened.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name) == [
                "First", "Second", "Third",
            ]
        )
    }

    @Test func aStoreWrittenWithOtherModelsIsMigratedWithoutAPlanWhenTheChangesAreLightweight() throws {
        let store = TestStore(.disk)
        do {
            let context = ModelContext(
                try ModelContainer(for: SampleTripsSchemaV1.Trip.self, configurations: store.configuration)
            )
            context.insert(
                SampleTripsSchemaV1.Trip(name: "Old", destination: "x", start_date: baseDate, end_date: baseDate)
            )
            try context.save()
        }
        // Version 1 to 3 is a unique constraint and two renames through originalName: no plan
        // is needed. Refused changes are tested in AutomaticMigrationTests.
        let trips = try ModelContext(try store.container()).fetch(FetchDescriptor<Trip>())
        #expect(trips.map(\.name) == ["Old"])
        #expect(trips.map(\.startDate) == [baseDate])
    }
}

/// Every segment's bytes, by file name.
func storeBytes(_ url: URL) throws -> [String: [UInt8]] {
    var result: [String: [UInt8]] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: url.path) where name.hasSuffix(".log") {
        result[name] = [UInt8](try Data(contentsOf: url.appendingPathComponent(name)))
    }
    return result
}

/// Every event in a store, decoded.
func loggedEvents(_ url: URL) throws -> [Event] {
    var cursor = LogReader(directory: url.path).batches()
    var events: [Event] = []
    while let batch = try cursor.next() {
        for index in 0..<batch.count { events.append(try EventCodec.decode(batch.event(at: index)).event) }
    }
    return events
}

/// A context of a container of SampleTrips V3 on `store` whose writes go through `syscalls`.
private func contextWritingThrough(_ syscalls: FaultySyscalls, _ store: TestStore) throws -> ModelContext {
    var configuration = ModelConfiguration(url: store.url)
    configuration.syscalls = syscalls
    return ModelContext(try ModelContainer(for: Trip.self, configurations: configuration))
}
