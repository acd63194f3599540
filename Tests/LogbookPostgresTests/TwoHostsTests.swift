import Foundation
import Logbook
import LogbookPostgres
import SampleTrips
import Testing

/// Two containers of one store kept in PostgreSQL, each with its own copy of the rows, as on
/// two hosts: each sees what the other saves, and their races lose nothing.
struct TwoHostsTests {
    private func names(_ context: ModelContext) throws -> [String] {
        try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name)
    }

    private func trip(_ name: String, _ destination: String = "Somewhere") -> Trip {
        Trip(
            name: name,
            destination: destination,
            startDate: Date(timeIntervalSince1970: 0),
            endDate: Date(timeIntervalSince1970: 1)
        )
    }

    @Test func twoHostsWritingAlternatelyEachSeeEverything() async throws {
        let store = TestServer.uniqueStore()
        let (a, b) = (ModelContext(try host(store)), ModelContext(try host(store)))
        a.insert(trip("A1"))
        try a.save()
        #expect(try names(b) == ["A1"])
        b.insert(trip("B1"))
        try b.save()
        #expect(try names(a) == ["A1", "B1"])
        // An edit on one host reaches an object the other host fetched before.
        let fetched = try #require(try a.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "B1" })).first)
        let onB = try #require(try b.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "A1" })).first)
        onB.destination = "Edited on B"
        try b.save()
        #expect(
            try a.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "A1" })).first?.destination
                == "Edited on B"
        )
        fetched.destination = "Edited on A"
        try a.save()
        #expect(
            try b.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "B1" })).first?.destination
                == "Edited on A"
        )
        let rows = try await TestServer.rows(of: store)
        #expect(rows.count == 4)
        for (earlier, later) in zip(rows, rows.dropFirst()) { #expect(later.first == earlier.last + 1) }
    }

    @Test func aWriterThatLostTheRaceCatchesUpAndSavesAfterTheWinner() async throws {
        let store = TestServer.uniqueStore()
        let (a, b) = (ModelContext(try host(store)), ModelContext(try host(store)))
        a.insert(trip("Base"))
        try a.save()
        #expect(try names(b) == ["Base"])
        // Both build their next batch at the same sequence number; b appends second.
        a.insert(trip("From A"))
        b.insert(trip("From B"))
        try a.save()
        try b.save()
        #expect(!b.hasChanges)
        #expect(try names(a) == ["Base", "From A", "From B"])
        #expect(try names(b) == ["Base", "From A", "From B"])
        let rows = try await TestServer.rows(of: store)
        #expect(rows.count == 3)
        for (earlier, later) in zip(rows, rows.dropFirst()) { #expect(later.first == earlier.last + 1) }
        // A third host reads the same.
        #expect(try names(ModelContext(try host(store))) == ["Base", "From A", "From B"])
    }

    @Test func twoUpsertsOfOneUniqueNameOnTwoHostsMakeOneTripWithBothBucketLists() throws {
        let store = TestServer.uniqueStore()
        let (a, b) = (ModelContext(try host(store)), ModelContext(try host(store)))
        let fromA = trip("Paris", "France")
        fromA.bucketList = [BucketListItem(title: "Louvre", details: "", hasReservation: false, isInPlan: true)]
        let fromB = trip("Paris", "Texas")
        fromB.bucketList = [BucketListItem(title: "Eiffel replica", details: "", hasReservation: false, isInPlan: true)]
        a.insert(fromA)
        b.insert(fromB)
        try a.save()
        try b.save()
        for context in [a, b, ModelContext(try host(store))] {
            let trips = try context.fetch(FetchDescriptor<Trip>())
            #expect(trips.count == 1)
            // The later save's attributes win; the to-many relationships are merged.
            #expect(trips.first?.destination == "Texas")
            #expect(Set(trips.first?.bucketList?.map(\.title) ?? []) == ["Louvre", "Eiffel replica"])
            #expect(try context.fetchCount(FetchDescriptor<BucketListItem>()) == 2)
        }
    }

    @Test func anEditOfATripAnotherHostDeletedThrowsAConflictAndStaysPending() throws {
        let store = TestServer.uniqueStore()
        let (a, b) = (ModelContext(try host(store)), ModelContext(try host(store)))
        a.insert(trip("Doomed"))
        a.insert(trip("Kept"))
        try a.save()
        let onB = try b.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        let onA = try #require(try a.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Doomed" })).first)
        a.delete(onA)
        try a.save()
        onB[0].destination = "Changed"
        onB[1].destination = "Also changed"
        let error = try #require(throws: LogbookError.self) { try b.save() }
        #expect(error.code == .conflict)
        #expect(error.message.contains("Trip"))
        #expect(error.message.contains("deleted by another writer"))
        #expect(b.hasChanges)
        // Nothing of the refused save reached the server.
        let c = ModelContext(try host(store))
        #expect(try c.fetch(FetchDescriptor<Trip>()).map(\.destination) == ["Somewhere"])
        // Once the edit of the deleted trip is dropped, the other one saves.
        b.rollback()
        let kept = try #require(try b.fetch(FetchDescriptor<Trip>()).first)
        kept.destination = "Also changed"
        try b.save()
        #expect(try c.fetch(FetchDescriptor<Trip>()).map(\.destination) == ["Also changed"])
    }

    @Test func twoHostsSavingAtOnceLoseNoSave() async throws {
        let store = TestServer.uniqueStore()
        let containers = [try host(store), try host(store)]
        let perHost = 25
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, container) in containers.enumerated() {
                group.addTask {
                    // Saves block their thread: each host on a thread of its own.
                    try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
                        Thread.detachNewThread {
                            do {
                                let context = ModelContext(container)
                                for number in 0..<perHost {
                                    context.insert(
                                        Trip(
                                            name: "h\(index)-\(number)",
                                            destination: "",
                                            startDate: Date(),
                                            endDate: Date()
                                        )
                                    )
                                    try context.save()
                                }
                                done.resume()
                            } catch {
                                done.resume(throwing: error)
                            }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        for container in containers {
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 2 * perHost)
        }
        let rows = try await TestServer.rows(of: store)
        #expect(rows.count == 2 * perHost)
        for (earlier, later) in zip(rows, rows.dropFirst()) { #expect(later.first == earlier.last + 1) }
    }

    @Test func twoHostsUpsertingTheSameNamesAtOnceKeepOneTripPerNameAndEveryItem() async throws {
        let store = TestServer.uniqueStore()
        let containers = [try host(store), try host(store)]
        let names = (0..<20).map { "Shared \($0)" }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, container) in containers.enumerated() {
                group.addTask {
                    try await onThread {
                        let context = ModelContext(container)
                        for name in names {
                            let trip = Trip(
                                name: name,
                                destination: "host \(index)",
                                startDate: Date(),
                                endDate: Date()
                            )
                            trip.bucketList = [
                                BucketListItem(
                                    title: "\(name) from host \(index)",
                                    details: "",
                                    hasReservation: false,
                                    isInPlan: true
                                )
                            ]
                            context.insert(trip)
                            try context.save()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        for context in containers.map(ModelContext.init) + [ModelContext(try host(store))] {
            let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
            #expect(trips.map(\.name) == names.sorted())
            for trip in trips {
                #expect(
                    Set(trip.bucketList?.map(\.title) ?? []) == [
                        "\(trip.name) from host 0", "\(trip.name) from host 1",
                    ]
                )
            }
            #expect(try context.fetchCount(FetchDescriptor<BucketListItem>()) == 2 * names.count)
        }
    }
}
