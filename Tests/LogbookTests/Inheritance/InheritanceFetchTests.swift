import Foundation
import Logbook
import Testing

/// Fetches across a model hierarchy: a fetch of a class returns its objects and those of every
/// subclass, each as its own class; a fetch of a subclass returns its objects alone.
struct InheritanceFetchTests {
    /// A store of the `Travel` hierarchy holding `Travel.insertSample`, saved.
    private func sampleStore(_ kind: StoreKind) throws -> TestStore {
        let store = TestStore(kind, models: Travel.models)
        let context = ModelContext(try store.container())
        Travel.insertSample(into: context)
        try context.save()
        return store
    }

    @Test(arguments: StoreKind.allCases)
    func fetchOfTheBaseClassReturnsEverySubclassAsItsOwnClassAfterReopening(_ kind: StoreKind) throws {
        let store = try sampleStore(kind)
        let context = try store.reopenedContext()
        let trips = try context.fetch(FetchDescriptor<Travel.Trip>(sortBy: [SortDescriptor(\.startDate)]))
        #expect(trips.map(\.name) == ["t0", "b1", "c2", "p3", "t4", "b5", "c6", "p7"])
        let kinds = trips.map { String(describing: type(of: $0)) }
        #expect(
            kinds == [
                "Trip", "BusinessTrip", "ConferenceTrip", "PersonalTrip", "Trip", "BusinessTrip", "ConferenceTrip",
                "PersonalTrip",
            ]
        )
        let business = trips.compactMap { $0 as? Travel.BusinessTrip }
        #expect(business.map(\.name) == ["b1", "c2", "b5", "c6"])
        #expect(business.map(\.perdiem) == [50, 100, 250, 300])
        let conferences = trips.compactMap { $0 as? Travel.ConferenceTrip }
        #expect(conferences.map(\.conference) == ["conf2", "conf6"])
        let personal = trips.compactMap { $0 as? Travel.PersonalTrip }
        #expect(personal.map(\.reason) == ["reason3", "reason7"])
        #expect(trips.map(\.persistentModelID.entityName) == kinds)
    }

    @Test(arguments: StoreKind.allCases)
    func fetchOfASubclassReturnsItsObjectsAndItsSubclassesOnly(_ kind: StoreKind) throws {
        let store = try sampleStore(kind)
        let context = try store.reopenedContext()
        let business = try context.fetch(FetchDescriptor<Travel.BusinessTrip>(sortBy: [SortDescriptor(\.name)]))
        #expect(business.map(\.name) == ["b1", "b5", "c2", "c6"])
        let conferences = try context.fetch(FetchDescriptor<Travel.ConferenceTrip>(sortBy: [SortDescriptor(\.name)]))
        #expect(conferences.map(\.name) == ["c2", "c6"])
        let personal = try context.fetch(FetchDescriptor<Travel.PersonalTrip>())
        #expect(Set(personal.map(\.name)) == ["p3", "p7"])
        #expect(try context.fetchCount(FetchDescriptor<Travel.PersonalTrip>()) == 2)
        #expect(try context.fetchCount(FetchDescriptor<Travel.ConferenceTrip>()) == 2)
    }

    @Test(arguments: StoreKind.allCases)
    func countsIdentifiersLimitsAndOffsetsSpanTheHierarchy(_ kind: StoreKind) throws {
        let store = try sampleStore(kind)
        let context = try store.reopenedContext()
        #expect(try context.fetchCount(FetchDescriptor<Travel.Trip>()) == 8)
        #expect(try context.fetchCount(FetchDescriptor<Travel.BusinessTrip>()) == 4)
        var page = FetchDescriptor<Travel.Trip>(sortBy: [SortDescriptor(\.startDate, order: .reverse)])
        page.fetchOffset = 2
        page.fetchLimit = 3
        #expect(try context.fetch(page).map(\.name) == ["b5", "t4", "p3"])
        #expect(try context.fetchCount(page) == 3)
        let identifiers = try context.fetchIdentifiers(page)
        #expect(identifiers.map(\.entityName) == ["BusinessTrip", "Trip", "PersonalTrip"])
        let second = try #require(identifiers.first)
        let model = try #require(context.model(for: second) as? Travel.BusinessTrip)
        #expect(model.name == "b5")
        #expect(model.perdiem == 250)
    }

    @Test(arguments: StoreKind.allCases)
    func predicatesOnBaseAttributesMatchEverySubclass(_ kind: StoreKind) throws {
        let store = try sampleStore(kind)
        let context = try store.reopenedContext()
        let late = Travel.start + 3.5 * 86_400
        let descriptor = FetchDescriptor<Travel.Trip>(
            predicate: #Predicate { $0.startDate > late },
            sortBy: [SortDescriptor(\.name)]
        )
        #expect(try context.fetch(descriptor).map(\.name) == ["b5", "c6", "p7", "t4"])
        #expect(try context.fetchCount(descriptor) == 4)
        let named = try context.fetch(FetchDescriptor<Travel.Trip>(predicate: #Predicate { $0.name == "c6" }))
        #expect(named.count == 1)
        #expect((named.first as? Travel.ConferenceTrip)?.conference == "conf6")
    }

    @Test(arguments: StoreKind.allCases)
    func predicatesReachSubclassAttributesThroughACast(_ kind: StoreKind) throws {
        let store = try sampleStore(kind)
        let context = try store.reopenedContext()
        let descriptor = FetchDescriptor<Travel.Trip>(
            predicate: #Predicate { trip in
                if let business = trip as? Travel.BusinessTrip {
                    business.perdiem > 100
                } else {
                    false
                }
            },
            sortBy: [SortDescriptor(\.name)]
        )
        #expect(try context.fetch(descriptor).map(\.name) == ["b5", "c6"])
        let chained = FetchDescriptor<Travel.Trip>(
            predicate: #Predicate { ($0 as? Travel.BusinessTrip)?.perdiem ?? 0 > 100 },
            sortBy: [SortDescriptor(\.name)]
        )
        #expect(try context.fetch(chained).map(\.name) == ["b5", "c6"])
        #expect(try context.fetchCount(chained) == 2)
        let subclassPredicate = FetchDescriptor<Travel.BusinessTrip>(
            predicate: #Predicate { $0.perdiem >= 100 && $0.name != "c6" }
        )
        #expect(Set(try context.fetch(subclassPredicate).map(\.name)) == ["b5", "c2"])
    }

    @Test(arguments: StoreKind.allCases)
    func unsavedInsertsDeletesAndChangesCountAcrossTheHierarchy(_ kind: StoreKind) throws {
        let store = try sampleStore(kind)
        let context = try store.reopenedContext()
        let doomed = try #require(
            try context.fetch(FetchDescriptor<Travel.Trip>(predicate: #Predicate { $0.name == "p3" })).first
        )
        context.delete(doomed)
        context.insert(Travel.PersonalTrip(name: "p8", startDate: Travel.start, reason: "new"))
        let changed = try #require(
            try context.fetch(FetchDescriptor<Travel.BusinessTrip>(predicate: #Predicate { $0.name == "b1" })).first
        )
        changed.perdiem = 1_000
        let names = try context.fetch(FetchDescriptor<Travel.Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name)
        #expect(names == ["b1", "b5", "c2", "c6", "p7", "p8", "t0", "t4"])
        #expect(try context.fetchCount(FetchDescriptor<Travel.PersonalTrip>()) == 2)
        var unsaved = FetchDescriptor<Travel.Trip>(sortBy: [SortDescriptor(\.name)])
        unsaved.includePendingChanges = false
        #expect(try context.fetch(unsaved).map(\.name) == ["b1", "b5", "c2", "c6", "p3", "p7", "t0", "t4"])
        try context.save()

        let reopened = try store.reopenedContext()
        let personal = try reopened.fetch(FetchDescriptor<Travel.PersonalTrip>(sortBy: [SortDescriptor(\.name)]))
        #expect(personal.map(\.name) == ["p7", "p8"])
        #expect(personal.map(\.reason) == ["reason7", "new"])
        let b1 = try reopened.fetch(FetchDescriptor<Travel.BusinessTrip>(predicate: #Predicate { $0.name == "b1" }))
        #expect(b1.map(\.perdiem) == [1_000])
    }

    @Test(arguments: StoreKind.allCases)
    func inheritedAndOwnPropertiesOfASubclassAreSavedAndRead(_ kind: StoreKind) throws {
        let store = TestStore(kind, models: Travel.models)
        let context = ModelContext(try store.container())
        let conference = Travel.ConferenceTrip(name: "WWDC", startDate: Travel.start, perdiem: 80, conference: "dub")
        conference.talks = ["inheritance", "history"]
        context.insert(conference)
        try context.save()
        conference.name = "WWDC26"
        conference.perdiem = 90
        try context.save()

        let reopened = try store.reopenedContext()
        let fetched = try #require(try reopened.fetch(FetchDescriptor<Travel.ConferenceTrip>()).first)
        #expect(fetched.name == "WWDC26")
        #expect(fetched.startDate == Travel.start)
        #expect(fetched.perdiem == 90)
        #expect(fetched.conference == "dub")
        #expect(fetched.talks == ["inheritance", "history"])
        #expect(fetched.persistentModelID.entityName == "ConferenceTrip")
    }
}
