import Foundation
import Logbook
import Testing

/// Relationships on and to the classes of a model hierarchy: inherited and own ones, read back
/// after reopening (by replay and from a checkpoint), their inverses kept in step, delete rules
/// applied across the hierarchy, and relationship key paths in base fetches.
struct HierarchyRelationshipTests {
    private func sampleStore(_ kind: StoreKind) throws -> TestStore {
        let store = TestStore(kind, models: Agency.models)
        let context = ModelContext(try store.container())
        Agency.insertSample(into: context)
        try context.save()
        return store
    }

    private func trip(_ name: String, _ context: ModelContext) throws -> Agency.Trip {
        try #require(try context.fetch(FetchDescriptor<Agency.Trip>(predicate: #Predicate { $0.name == name })).first)
    }

    private func traveller(_ name: String, _ context: ModelContext) throws -> Agency.Traveller {
        try #require(
            try context.fetch(FetchDescriptor<Agency.Traveller>(predicate: #Predicate { $0.name == name })).first
        )
    }

    /// What the sample holds, read through every kind of relationship.
    private func expectSample(_ context: ModelContext) throws {
        let ada = try traveller("Ada", context)
        let trips = ada.trips.sorted { $0.name < $1.name }
        #expect(trips.map(\.name) == ["b", "c", "p", "t"])
        #expect(
            trips.map { String(describing: type(of: $0)) } == [
                "BusinessTrip", "ConferenceTrip", "PersonalTrip", "Trip",
            ]
        )
        #expect(try traveller("Bob", context).trips.isEmpty)

        let conference = try #require(try trip("c", context) as? Agency.ConferenceTrip)
        #expect(conference.stops.map(\.place).sorted() == ["Cupertino", "Denver"])
        #expect(conference.stops.allSatisfy { $0.trip === conference })
        #expect(conference.traveller === ada)
        #expect(conference.expenses.map(\.amount) == [800])
        #expect(conference.expenses.first?.trip === conference)

        let business = try #require(try trip("b", context) as? Agency.BusinessTrip)
        #expect(business.stops.map(\.place) == ["Berlin"])
        #expect(business.expenses.map(\.amount) == [300])
        #expect((try trip("p", context)).stops.map(\.place) == ["Evora"])
        #expect((try trip("t", context)).stops.isEmpty)

        let stops = try context.fetch(FetchDescriptor<Agency.Stop>(sortBy: [SortDescriptor(\.place)]))
        #expect(stops.map { $0.trip?.name } == ["b", "c", "c", "p"])
        #expect(stops.first?.trip is Agency.BusinessTrip)
        let expenses = try context.fetch(FetchDescriptor<Agency.Expense>(sortBy: [SortDescriptor(\.amount)]))
        #expect(expenses.map { $0.trip?.name } == ["b", "c"])
        #expect(expenses.last?.trip is Agency.ConferenceTrip)
    }

    @Test(arguments: StoreKind.allCases)
    func inheritedAndOwnRelationshipsReadBackAfterReopening(_ kind: StoreKind) throws {
        let store = try sampleStore(kind)
        try expectSample(try store.reopenedContext())
    }

    @Test func relationshipsReadBackFromACheckpoint() throws {
        let store = try sampleStore(.disk)
        let container = try store.container()
        try container.checkpoint()
        let checkpoints = try FileManager.default.contentsOfDirectory(atPath: store.url.path + "/checkpoints")
            .filter { $0.hasSuffix(".checkpoint") }
        #expect(!checkpoints.isEmpty)
        try expectSample(try store.reopenedContext())
        // Changes after the checkpoint replay on top of it.
        let context = try store.reopenedContext()
        let bob = try traveller("Bob", context)
        try trip("c", context).traveller = bob
        try context.save()
        try store.container().checkpoint()
        let reopened = try store.reopenedContext()
        #expect(try traveller("Bob", reopened).trips.map(\.name) == ["c"])
        #expect(try traveller("Ada", reopened).trips.map(\.name).sorted() == ["b", "p", "t"])
    }

    @Test(arguments: StoreKind.allCases)
    func movingARelatedObjectBetweenSubclassesKeepsTheInverses(_ kind: StoreKind) throws {
        let store = try sampleStore(kind)
        let context = try store.reopenedContext()
        let berlin = try #require(try trip("b", context).stops.first)
        berlin.trip = try trip("p", context)
        let ticket = try #require((try trip("c", context) as? Agency.BusinessTrip)?.expenses.first)
        ticket.trip = try trip("b", context) as? Agency.BusinessTrip
        try context.save()

        let reopened = try store.reopenedContext()
        #expect(try trip("b", reopened).stops.isEmpty)
        #expect(try trip("p", reopened).stops.map(\.place).sorted() == ["Berlin", "Evora"])
        #expect((try trip("c", reopened) as? Agency.BusinessTrip)?.expenses.isEmpty == true)
        #expect((try trip("b", reopened) as? Agency.BusinessTrip)?.expenses.map(\.amount).sorted() == [300, 800])
    }

    @Test(arguments: StoreKind.allCases)
    func denyOnASubclassRefusesTheDeleteNamingTheObjectAndRelationship(_ kind: StoreKind) throws {
        let store = try sampleStore(kind)
        let context = try store.reopenedContext()
        let conference = try trip("c", context)
        let id = conference.persistentModelID
        context.delete(conference)
        #expect {
            try context.save()
        } throws: { error in
            (error as? LogbookError)?.message
                == "cannot delete \(id): its relationship 'ConferenceTrip.expenses' has the .deny delete rule and 1 related model(s) remain"
        }
        // Nothing was written.
        try expectSample(try store.reopenedContext())
    }

    @Test(arguments: StoreKind.allCases)
    func deletingASubclassObjectCascadesAndNullifiesItsInheritedRelationships(_ kind: StoreKind) throws {
        let store = try sampleStore(kind)
        let context = try store.reopenedContext()
        let conference = try #require(try trip("c", context) as? Agency.ConferenceTrip)
        for expense in conference.expenses { context.delete(expense) }
        context.delete(conference)
        try context.save()

        let reopened = try store.reopenedContext()
        #expect(try traveller("Ada", reopened).trips.map(\.name).sorted() == ["b", "p", "t"])
        let places = try reopened.fetch(FetchDescriptor<Agency.Stop>(sortBy: [SortDescriptor(\.place)])).map(\.place)
        #expect(places == ["Berlin", "Evora"])
        #expect(try reopened.fetchCount(FetchDescriptor<Agency.Expense>()) == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func deletingTheDestinationNullifiesTheBaseClassRelationshipOfSubclassObjects(_ kind: StoreKind) throws {
        let store = try sampleStore(kind)
        let context = try store.reopenedContext()
        context.delete(try traveller("Ada", context))
        try context.save()

        let reopened = try store.reopenedContext()
        let trips = try reopened.fetch(FetchDescriptor<Agency.Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.name) == ["b", "c", "p", "t"])
        #expect(trips.allSatisfy { $0.traveller == nil })
    }

    @Test(arguments: StoreKind.allCases)
    func deleteOfTheBaseClassWhereCascadesForEachSubclass(_ kind: StoreKind) throws {
        let store = try sampleStore(kind)
        let context = try store.reopenedContext()
        try context.delete(model: Agency.Trip.self, where: #Predicate { $0.name == "p" || $0.name == "t" })
        try context.save()

        let reopened = try store.reopenedContext()
        let places = try reopened.fetch(FetchDescriptor<Agency.Stop>(sortBy: [SortDescriptor(\.place)])).map(\.place)
        #expect(places == ["Berlin", "Cupertino", "Denver"])
        #expect(try traveller("Ada", reopened).trips.map(\.name).sorted() == ["b", "c"])
    }

    @Test(arguments: StoreKind.allCases)
    func baseFetchesFilterAndSortThroughRelationshipKeyPaths(_ kind: StoreKind) throws {
        let store = try sampleStore(kind)
        let context = try store.reopenedContext()
        try trip("t", context).traveller = try traveller("Bob", context)
        try context.save()

        let reopened = try store.reopenedContext()
        let ada = try reopened.fetch(
            FetchDescriptor<Agency.Trip>(
                predicate: #Predicate { $0.traveller?.name == "Ada" },
                sortBy: [SortDescriptor(\.name, order: .reverse)]
            )
        )
        #expect(ada.map(\.name) == ["p", "c", "b"])
        let withStops = try reopened.fetch(
            FetchDescriptor<Agency.Trip>(predicate: #Predicate { $0.stops.count > 1 })
        )
        #expect(withStops.map(\.name) == ["c"])
        let byTraveller = try reopened.fetch(
            FetchDescriptor<Agency.Trip>(sortBy: [SortDescriptor(\.traveller?.name), SortDescriptor(\.name)])
        )
        #expect(byTraveller.map(\.name) == ["b", "c", "p", "t"])
        let business = try reopened.fetch(
            FetchDescriptor<Agency.BusinessTrip>(predicate: #Predicate { $0.expenses.count == 1 && $0.perdiem > 100 })
        )
        #expect(business.map(\.name) == ["c"])
    }

    @Test(arguments: StoreKind.allCases)
    func anObjectOfASubclassOfTheDestinationJoinsTheInverse(_ kind: StoreKind) throws {
        let store = try sampleStore(kind)
        let context = try store.reopenedContext()
        let extra = Agency.Expense(amount: 5)
        context.insert(extra)
        extra.trip = try trip("c", context) as? Agency.BusinessTrip
        try context.save()
        let reopened = try store.reopenedContext()
        let conference = try #require(try trip("c", reopened) as? Agency.ConferenceTrip)
        #expect(conference.expenses.map(\.amount).sorted() == [5, 800])
    }
}
