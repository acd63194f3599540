import Foundation
import SampleTrips
import Testing

@_spi(Measurement) @testable import Logbook

struct ContextTests {
    @Test(arguments: StoreKind.allCases)
    func insertedModelsReadBackWithTheirValuesAndRelationships(kind: StoreKind) throws {
        let store = TestStore(kind)
        do {
            let context = ModelContext(try store.container())
            let trip = makeTrip("Spring in Lisbon")
            context.insert(trip)
            trip.bucketList?.append(makeItem("Tram 28"))
            trip.bucketList?.append(makeItem("Pastéis de nata"))
            trip.livingAccommodation = LivingAccommodation(address: "Rua Augusta 1", placeName: "Casa")
            #expect(context.hasChanges)
            try context.save()
            #expect(!context.hasChanges)
        }
        let context = try store.reopenedContext()
        let trips = try context.fetch(FetchDescriptor<Trip>())
        #expect(trips.count == 1)
        let trip = try #require(trips.first)
        #expect(trip.name == "Spring in Lisbon")
        #expect(trip.destination == "Lisbon")
        #expect(trip.startDate == baseDate)
        #expect(trip.endDate == baseDate + 7 * day)
        #expect(Set(trip.bucketList?.map(\.title) ?? []) == ["Tram 28", "Pastéis de nata"])
        #expect(trip.bucketList?.allSatisfy { $0.trip === trip } == true, "the inverse is the same object")
        #expect(trip.livingAccommodation?.placeName == "Casa")
        #expect(trip.livingAccommodation?.trip === trip)
        #expect(try context.fetchCount(FetchDescriptor<BucketListItem>()) == 2)
    }

    @Test(arguments: StoreKind.allCases)
    func appendingToAListInsertsOnlyTheAppendedModel(kind: StoreKind) throws {
        let store = TestStore(kind)
        do {
            let context = ModelContext(try store.container())
            let trip = makeTrip("Braga")
            context.insert(trip)
            let kept = makeItem("Bom Jesus")
            let forgotten = makeItem("Sé")
            trip.bucketList?.append(kept)
            trip.bucketList?.append(forgotten)
            #expect(kept.trip === trip && forgotten.trip === trip, "each appended item's inverse is set")
            // Deleting a model inserted since the last save forgets it; a later append to the list
            // that still holds it inserts the appended model only, and does not bring it back.
            context.delete(forgotten)
            let added = makeItem("Jardim")
            trip.bucketList?.append(added)
            #expect(added.trip === trip)
            #expect(
                Set(context.insertedModelsArray.compactMap { ($0 as? BucketListItem)?.title }) == [
                    "Bom Jesus", "Jardim",
                ]
            )
            try context.save()
        }
        let reopened = try store.reopenedContext()
        let titles = try reopened.fetch(FetchDescriptor<BucketListItem>()).map(\.title)
        #expect(Set(titles) == ["Bom Jesus", "Jardim"])
    }

    @Test(arguments: StoreKind.allCases)
    func aRelationshipLoadedAfterSomeOfItsModelsKeepsThoseObjectsAndMakesTheRest(kind: StoreKind) throws {
        let store = TestStore(kind)
        do {
            let context = ModelContext(try store.container())
            let trip = makeTrip("Porto")
            context.insert(trip)
            for title in ["Ribeira", "Livraria Lello", "Serralves", "Foz", "Bolhão"] {
                trip.bucketList?.append(makeItem(title))
            }
            try context.save()
        }
        let context = try store.reopenedContext()
        // Equalities, answered from an index: only the matches are made into objects.
        let fetched =
            try context.fetch(FetchDescriptor<BucketListItem>(predicate: #Predicate { $0.title == "Serralves" }))
            + context.fetch(FetchDescriptor<BucketListItem>(predicate: #Predicate { $0.title == "Foz" }))
        #expect(fetched.count == 2)
        let trip = try #require(try context.fetch(FetchDescriptor<Trip>()).first)
        let items = try #require(trip.bucketList)
        #expect(items.map(\.title).sorted() == ["Bolhão", "Foz", "Livraria Lello", "Ribeira", "Serralves"])
        for model in fetched {
            #expect(items.filter { $0 === model }.count == 1, "\(model.title) is the object fetched before")
        }
        #expect(Set(items.map(ObjectIdentifier.init)).count == 5)
        #expect(items.allSatisfy { $0.trip === trip })
        #expect(items.allSatisfy { $0.details == "details of \($0.title)" && $0.isInPlan })
    }

    @Test(arguments: StoreKind.allCases)
    func settingOneSideSetsTheInverseBeforeAnySave(kind: StoreKind) throws {
        let store = TestStore(kind)
        do {
            let context = ModelContext(try store.container())
            let trip = makeTrip("Kyoto")
            let item = makeItem("Fushimi Inari")
            context.insert(trip)
            item.trip = trip
            context.insert(item)
            #expect(trip.bucketList?.contains { $0 === item } == true)
            let other = makeTrip("Osaka")
            context.insert(other)
            other.bucketList = [item]
            #expect(item.trip === other)
            #expect(trip.bucketList?.contains { $0 === item } == false)
            try context.save()
        }
        let reopened = try store.reopenedContext()
        let osaka = try #require(
            try reopened.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Osaka" })).first
        )
        #expect(osaka.bucketList?.map(\.title) == ["Fushimi Inari"])
        let kyoto = try #require(
            try reopened.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Kyoto" })).first
        )
        #expect(kyoto.bucketList?.isEmpty == true)
    }

    @Test(arguments: StoreKind.allCases)
    func oneObjectPerIdentifierWithinAContext(kind: StoreKind) throws {
        let store = TestStore(kind)
        do {
            let context = ModelContext(try store.container())
            context.insert(makeTrip("A"))
            try context.save()
        }
        let reopened = try store.reopenedContext()
        let first = try reopened.fetch(FetchDescriptor<Trip>())
        let second = try reopened.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "A" }))
        #expect(first.count == 1)
        #expect(first.first === second.first)
        let identifier = try #require(first.first?.persistentModelID)
        #expect(reopened.model(for: identifier) === first.first)
        #expect((reopened.registeredModel(for: identifier) as Trip?) === first.first)
        #expect(!identifier.isTemporary)
        // The same number under another entity names nothing, registered or stored.
        let elsewhere = PersistentIdentifier(entityName: "BucketListItem", number: identifier.number)
        #expect(reopened.model(for: elsewhere) == nil)
        #expect((reopened.registeredModel(for: elsewhere) as BucketListItem?) == nil)
        #expect((reopened.registeredModel(for: elsewhere) as Trip?) == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func updatesAreSavedAndReadBack(kind: StoreKind) throws {
        let store = TestStore(kind)
        do {
            let context = ModelContext(try store.container())
            let trip = makeTrip("Reykjavik", destination: "Iceland")
            context.insert(trip)
            try context.save()
            trip.destination = "Reykjavík"
            #expect(context.hasChanges)
            try context.save()
        }
        let reopened = try store.reopenedContext()
        #expect(try reopened.fetch(FetchDescriptor<Trip>()).map(\.destination) == ["Reykjavík"])
    }

    @Test(arguments: StoreKind.allCases)
    func transientPropertiesAreAtTheirDefaultsAfterAFetch(kind: StoreKind) throws {
        let store = TestStore(kind)
        do {
            let context = ModelContext(try store.container())
            let trip = makeTrip("Views")
            trip.tripViews = 12
            context.insert(trip)
            try context.save()
        }
        let reopened = try store.reopenedContext()
        #expect(try reopened.fetch(FetchDescriptor<Trip>()).first?.tripViews == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func twoContextsSeeEachOthersSavedChangesAtTheirNextFetch(kind: StoreKind) throws {
        let store = TestStore(kind)
        let container = try store.container()
        let writer = ModelContext(container)
        let reader = ModelContext(container)
        let trip = makeTrip("Shared", destination: "Before")
        writer.insert(trip)
        try writer.save()
        let seen = try #require(try reader.fetch(FetchDescriptor<Trip>()).first)
        #expect(seen.destination == "Before")
        #expect(seen !== trip, "each context has its own objects")
        trip.destination = "After"
        writer.insert(makeTrip("Second"))
        try writer.save()
        let again = try reader.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(again.map(\.name) == ["Second", "Shared"])
        #expect(again.last === seen)
        #expect(seen.destination == "After")
    }

    @Test(arguments: StoreKind.allCases)
    func deletingAnInsertedModelForgetsItAndInsertingItAgainPutsItLast(kind: StoreKind) throws {
        let store = TestStore(kind)
        do {
            let context = ModelContext(try store.container())
            let (a, b, c) = (makeTrip("A"), makeTrip("B"), makeTrip("C"))
            for trip in [a, b, c] { context.insert(trip) }
            context.delete(b)
            #expect(context.insertedModelsArray.map { ($0 as? Trip)?.name } == ["A", "C"])
            context.insert(b)
            context.insert(a)
            #expect(context.insertedModelsArray.map { ($0 as? Trip)?.name } == ["A", "C", "B"])
            let other = ModelContext(context.container)
            #expect(other.insertedModelsArray.isEmpty, "another context holds none of them")
            try context.save()
            #expect(context.insertedModelsArray.isEmpty)
            #expect(a.persistentModelID.number < c.persistentModelID.number)
            #expect(c.persistentModelID.number < b.persistentModelID.number, "identifiers in insertion order")
        }
        let reopened = try store.reopenedContext()
        #expect(try reopened.fetch(FetchDescriptor<Trip>()).map(\.name) == ["A", "C", "B"])
    }

    @Test(arguments: StoreKind.allCases)
    func releasingTheContainerAndContextFreesEveryModelTheyHeld(kind: StoreKind) throws {
        let store = TestStore(kind)
        weak var context: ModelContext?
        weak var trip: Trip?
        weak var item: BucketListItem?
        weak var fetched: Trip?
        try {
            let container = try ModelContainer(for: Trip.self, configurations: store.configuration)
            let saving = ModelContext(container)
            let inserted = makeTrip("Saved")
            saving.insert(inserted)
            inserted.bucketList?.append(makeItem("Tram"))
            try saving.save()
            let reading = ModelContext(container)
            fetched = try reading.fetch(FetchDescriptor<Trip>()).first
            _ = fetched?.bucketList?.first?.trip
            (context, trip, item) = (saving, inserted, inserted.bucketList?.first)
        }()
        #expect(context == nil, "the context is freed")
        #expect(trip == nil && item == nil, "the saved models are freed")
        #expect(fetched == nil, "the fetched models are freed")
    }

    @Test(arguments: StoreKind.allCases)
    func aLargeContextHasItsModelsFreedElsewhereButLeavesTheOnesTheAppHolds(kind: StoreKind) throws {
        let store = TestStore(kind)
        let container = try ModelContainer(for: Trip.self, configurations: store.configuration)
        let trips = ModelContext.modelsFreedElsewhere
        weak var first: Trip?
        weak var item: BucketListItem?
        let kept: Trip = try {
            let context = ModelContext(container)
            for number in 0..<trips {
                let trip = makeTrip("Trip \(number)")
                context.insert(trip)
                trip.bucketList?.append(makeItem("Item \(number)"))
            }
            try context.save()
            let all = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
            (first, item) = (all.first, all.first?.bucketList?.first)
            return try #require(all.last)
        }()
        // The other thread frees them.
        ModelContext._waitForReleasesElsewhere()
        #expect(first == nil && item == nil, "the models nothing else held are freed")
        #expect(kept.name == (0..<trips).map { "Trip \($0)" }.max(), "the model the app holds keeps its attributes")
        #expect(kept.bucketList?.isEmpty ?? true, "and lets go of its relationships, as a smaller context's do")
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<BucketListItem>()) == trips)
    }

    @Test(arguments: StoreKind.allCases)
    func aSavedDeleteFreesTheDeletedModelsThatHeldEachOther(kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = ModelContext(try store.container())
        weak var trip: Trip?
        weak var item: BucketListItem?
        try {
            let saved = makeTrip("Gone")
            context.insert(saved)
            saved.bucketList?.append(makeItem("Tram"))
            try context.save()
            (trip, item) = (saved, saved.bucketList?.first)
            #expect(item != nil)
            context.delete(saved)
            try context.save()
            #expect(saved.bucketList?.isEmpty ?? true, "a deleted model lets go of its relationships")
        }()
        #expect(trip == nil && item == nil, "the trip and its cascaded item are freed")
        #expect(try context.fetchCount(FetchDescriptor<BucketListItem>()) == 0)
    }

    @Test func aModelThatOutlivesItsContextChangesWithoutReachingIt() throws {
        let store = TestStore(.memory)
        let container = try store.container()
        let trip = makeTrip("Outlived")
        weak var gone: ModelContext?
        do {
            let context = ModelContext(container)
            gone = context
            context.insert(trip)
            try context.save()
        }
        #expect(gone == nil, "the context is freed")
        // Each of these told the context before; with the context gone, they only change the
        // model. A link that still pointed at the freed context would crash here.
        trip.name = "Outlived, renamed"
        trip.bucketList?.append(makeItem("Ferry"))
        #expect(trip.name == "Outlived, renamed")
        #expect(trip.bucketList?.map(\.title) == ["Ferry"])
        #expect(trip.bucketList?.first?.trip == nil, "no context keeps the inverse in step")
        let reading = ModelContext(container)
        let saved = try reading.fetch(FetchDescriptor<Trip>())
        #expect(saved.map(\.name) == ["Outlived"], "nothing reached the store")
    }

    @Test func unsavedInsertsKeepTheirRelationshipsWhenTheirContextIsReleased() throws {
        let store = TestStore(.memory)
        let container = try store.container()
        let trip = makeTrip("Unsaved")
        do {
            let context = ModelContext(container)
            context.insert(trip)
            trip.bucketList?.append(makeItem("Tram"))
        }
        #expect(trip.bucketList?.map(\.title) == ["Tram"], "the app's only copy is left whole")
        #expect(trip.bucketList?.first?.trip === trip)
        let context = ModelContext(container)
        context.insert(trip)
        try context.save()
        let reading = ModelContext(container)
        let saved = try reading.fetch(FetchDescriptor<Trip>())
        #expect(saved.first?.bucketList?.map(\.title) == ["Tram"])
    }
}
