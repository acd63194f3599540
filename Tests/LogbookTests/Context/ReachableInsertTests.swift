import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// A crate whose parcels are given to its initializer: a non-optional relationship, which the
/// initializer assigns without going through the property's setter.
@Model
final class Crate {
    var label: String
    var parcels: [Parcel]

    init(label: String, parcels: [Parcel]) {
        self.label = label
        self.parcels = parcels
    }
}

@Model
final class Parcel {
    var code: String
    var crate: Crate?

    init(code: String) {
        self.code = code
    }
}

/// Inserting a model inserts the models its relationships reach and sets their inverses, however
/// the relationships were set before the insert: by the initializer, through a setter, or in
/// another context or before a rollback.
struct ReachableInsertTests {
    @Test(arguments: StoreKind.allCases)
    func relationshipsTheInitializerSetsInsertWhatTheyReach(kind: StoreKind) throws {
        let store = TestStore(kind, models: [Crate.self])
        do {
            let context = ModelContext(try store.container())
            let parcels = [Parcel(code: "P-1"), Parcel(code: "P-2")]
            let crate = Crate(label: "Lisbon", parcels: parcels)
            context.insert(crate)
            #expect(parcels.allSatisfy { $0.crate === crate }, "the inverse is set at the insert")
            #expect(context.insertedModelsArray.count == 3)
            try context.save()
        }
        let context = try store.reopenedContext()
        let crate = try #require(try context.fetch(FetchDescriptor<Crate>()).first)
        #expect(crate.parcels.map(\.code).sorted() == ["P-1", "P-2"])
        #expect(crate.parcels.allSatisfy { $0.crate === crate })
        #expect(try context.fetchCount(FetchDescriptor<Parcel>()) == 2)
    }

    @Test(arguments: StoreKind.allCases)
    func relationshipsSetBeforeTheInsertInsertWhatTheyReach(kind: StoreKind) throws {
        let store = TestStore(kind)
        do {
            let context = ModelContext(try store.container())
            let trip = makeTrip("Porto")
            let item = makeItem("Ribeira")
            let accommodation = LivingAccommodation(address: "Rua das Flores 1", placeName: "Flores")
            trip.bucketList = [item]
            trip.livingAccommodation = accommodation
            context.insert(trip)
            #expect(item.trip === trip)
            #expect(accommodation.trip === trip)
            #expect(context.insertedModelsArray.count == 3)
            try context.save()
        }
        try expectOneTrip("Porto", items: ["Ribeira"], accommodation: "Flores", in: store.reopenedContext())
    }

    @Test(arguments: StoreKind.allCases)
    func aModelInsertedAgainAfterARollbackBringsWhatItReaches(kind: StoreKind) throws {
        let store = TestStore(kind)
        do {
            let context = ModelContext(try store.container())
            let trip = makeTrip("Braga")
            context.insert(trip)
            trip.bucketList?.append(makeItem("Bom Jesus"))
            context.rollback()
            #expect(!context.hasChanges)
            context.insert(trip)
            #expect(context.insertedModelsArray.count == 2)
            try context.save()
        }
        try expectOneTrip("Braga", items: ["Bom Jesus"], accommodation: nil, in: store.reopenedContext())
    }

    @Test(arguments: StoreKind.allCases)
    func aModelInsertedIntoASecondContextBringsWhatItReaches(kind: StoreKind) throws {
        let store = TestStore(kind)
        do {
            let container = try store.container()
            let first = ModelContext(container)
            let second = ModelContext(container)
            let trip = makeTrip("Faro")
            first.insert(trip)
            trip.bucketList?.append(makeItem("Ria Formosa"))
            second.insert(trip)
            #expect(second.insertedModelsArray.count == 2)
            try second.save()
        }
        try expectOneTrip("Faro", items: ["Ria Formosa"], accommodation: nil, in: store.reopenedContext())
    }

    private func expectOneTrip(
        _ name: String,
        items: [String],
        accommodation: String?,
        in context: ModelContext
    ) throws {
        let trips = try context.fetch(FetchDescriptor<Trip>())
        #expect(trips.map(\.name) == [name])
        let trip = try #require(trips.first)
        #expect(trip.bucketList?.map(\.title).sorted() == items)
        #expect(trip.bucketList?.allSatisfy { $0.trip === trip } == true)
        #expect(trip.livingAccommodation?.placeName == accommodation)
        #expect(try context.fetchCount(FetchDescriptor<BucketListItem>()) == items.count)
    }
}
