import Foundation
import Logbook
import SampleTrips
import Testing

/// Lookups of trips by their unique name, for names the unique index answers from its own copy
/// of the bytes and for names it leaves to the stored rows, each after reopening the store.
struct UniqueNameLookupTests {
    private static let precomposed = "Caf\u{E9} crawl"
    private static let decomposed = "Cafe\u{301} crawl"
    private static let long = String(repeating: "a very long trip name ", count: 20)

    private func trips(named name: String, in context: ModelContext) throws -> [Trip] {
        try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name }))
    }

    /// A store of `kind` holding `trips`, saved by a context that is gone by the time it returns,
    /// so that the next context reopens the store on disk.
    private func store(_ kind: StoreKind, saving trips: [Trip]) throws -> TestStore {
        let store = TestStore(kind)
        let context = ModelContext(try store.container())
        for trip in trips { context.insert(trip) }
        try context.save()
        return store
    }

    @Test(arguments: StoreKind.allCases)
    func aNameSpelledDifferentlyFindsTheTripWithItsStoredSpelling(kind: StoreKind) throws {
        let store = try store(kind, saving: [makeTrip(Self.precomposed, destination: "Paris")])
        do {
            // The other spelling first, so that the trip is made from what it finds.
            let other = try trips(named: Self.decomposed, in: try store.reopenedContext())
            #expect(other.map(\.destination) == ["Paris"])
            #expect(other.first.map { Array($0.name.unicodeScalars) } == Array(Self.precomposed.unicodeScalars))
        }

        let reopened = try store.reopenedContext()
        let same = try trips(named: Self.precomposed, in: reopened)
        #expect(same.map(\.destination) == ["Paris"])
        #expect(same.first.map { Array($0.name.unicodeScalars) } == Array(Self.precomposed.unicodeScalars))
        #expect(try trips(named: Self.decomposed, in: reopened).first === same.first)
        #expect(try trips(named: "Cafe crawl", in: reopened).isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func aNameLongerThanTheIndexKeepsIsFoundAndMerged(kind: StoreKind) throws {
        let store = try store(
            kind,
            saving: [makeTrip(Self.long, destination: "Oslo"), makeTrip(Self.long + "!", destination: "Bergen")]
        )
        do {
            let reopened = try store.reopenedContext()
            #expect(try trips(named: Self.long, in: reopened).map(\.destination) == ["Oslo"])
            #expect(try trips(named: Self.long + "!", in: reopened).map(\.destination) == ["Bergen"])
            #expect(try trips(named: Self.long + "?", in: reopened).isEmpty)

            // The same long name again is an upsert into the stored trip.
            reopened.insert(makeTrip(Self.long, destination: "Tromsø"))
            try reopened.save()
        }
        let after = try store.reopenedContext()
        #expect(try after.fetchCount(FetchDescriptor<Trip>()) == 2)
        #expect(try trips(named: Self.long, in: after).map(\.destination) == ["Tromsø"])
    }

    @Test(arguments: StoreKind.allCases)
    func renamedAndDeletedTripsAreFoundOnlyByTheirCurrentNames(kind: StoreKind) throws {
        let names = (0..<300).map { "Trip number \($0) around the coast" }
        let store = try store(kind, saving: names.map { makeTrip($0) })
        do {
            let changing = try store.reopenedContext()
            for (number, name) in names.enumerated() where number % 3 != 0 {
                guard let trip = try trips(named: name, in: changing).first else {
                    Issue.record("\(name) was not found before the changes")
                    continue
                }
                if number % 3 == 1 { trip.name = "Renamed \(number)" } else { changing.delete(trip) }
            }
            try changing.save()
        }

        let reopened = try store.reopenedContext()
        for (number, name) in names.enumerated() {
            let found = try trips(named: name, in: reopened)
            #expect(found.count == (number % 3 == 0 ? 1 : 0), "\(name)")
            let renamed = try trips(named: "Renamed \(number)", in: reopened)
            #expect(renamed.count == (number % 3 == 1 ? 1 : 0), "Renamed \(number)")
        }
        #expect(try reopened.fetchCount(FetchDescriptor<Trip>()) == 200)
    }
}
