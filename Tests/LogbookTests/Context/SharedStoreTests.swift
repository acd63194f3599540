import Foundation
import Logbook
import SampleTrips
import Testing

/// Containers of one store in one process share it: one log, one lock, one set of objects.
struct SharedStoreTests {
    private func configuration(_ store: TestStore) -> ModelConfiguration {
        ModelConfiguration(url: store.url, durability: .relaxed)
    }

    @Test func twoContainersOfOneStoreSavingInTurnEachSeeTheOthersSaves() throws {
        let store = TestStore(.disk)
        let first = try ModelContainer(for: Trip.self, configurations: configuration(store))
        let second = try ModelContainer(for: Trip.self, configurations: configuration(store))
        let one = ModelContext(first)
        let two = ModelContext(second)
        for round in 0..<10 {
            let (writer, reader) = round.isMultiple(of: 2) ? (one, two) : (two, one)
            // Each save also changes the trip the other container's context saved last.
            if let previous = try writer.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).last {
                previous.destination = "Edited in round \(round)"
            }
            writer.insert(makeTrip("Trip \(round)", destination: "Written by \(round)"))
            try writer.save()
            let trips = try reader.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
            #expect(trips.map(\.name) == (0...round).map { "Trip \($0)" })
            if round > 0 {
                #expect(trips[round - 1].destination == "Edited in round \(round)")
            }
            #expect(trips[round].destination == "Written by \(round)")
        }
        #expect(first.schema.fingerprint == second.schema.fingerprint)
        _ = (first, second)
    }

    @Test func theLastContainerToGoReleasesTheStoresLock() throws {
        let store = TestStore(.disk)
        var first: ModelContainer? = try ModelContainer(for: Trip.self, configurations: configuration(store))
        var second: ModelContainer? = try ModelContainer(for: Trip.self, configurations: configuration(store))
        _ = (first, second)
        // A writer that is not a container of this process, as another process is, is refused.
        let refused = #expect(throws: LogbookError.self) { try EventLog(directory: store.url.path) }
        #expect(refused?.code == .storeLocked)
        first = nil
        #expect(throws: LogbookError.self) { try EventLog(directory: store.url.path) }
        second = nil
        let log = try EventLog(directory: store.url.path)
        log.close()
    }

    /// Opens the store through the migration plan (whose check runs on another thread), lets
    /// go of everything, and opens it again at once, a thousand times; every hundredth round
    /// saves a trip.
    @Test func openingReleasingAndReopeningAThousandTimesAlwaysWorks() throws {
        let store = TestStore(.disk)
        var expected = 0
        for round in 0..<1_000 {
            let container = try ModelContainer(
                for: Trip.self,
                migrationPlan: SampleTripsMigrationPlan.self,
                configurations: configuration(store)
            )
            let context = ModelContext(container)
            #expect(try context.fetchCount(FetchDescriptor<Trip>()) == expected)
            if round.isMultiple(of: 100) {
                context.insert(makeTrip("Round \(round)"))
                try context.save()
                expected += 1
            }
        }
        let log = try EventLog(directory: store.url.path)
        log.close()
    }

    /// The same with work left to other threads when the container goes: each round fetches
    /// enough trips for its context to free them on another thread, and saves a batch large
    /// enough to be appended on another thread, which holds the store until it is done.
    @Test func reopeningWhileTheLastContainersWorkIsStillFreedElsewhereAlwaysWorks() throws {
        let store = TestStore(.disk)
        var expected = 0
        for round in 0..<60 {
            let context = ModelContext(try ModelContainer(for: Trip.self, configurations: configuration(store)))
            #expect(try context.fetch(FetchDescriptor<Trip>()).count == expected)
            for number in 0..<200 { context.insert(makeTrip("Round \(round) trip \(number)")) }
            try context.save()
            expected += 200
        }
        let log = try EventLog(directory: store.url.path)
        log.close()
    }

    @Test func containersOpenedAndReleasedOnSeveralThreadsAtOnceNeverFindTheStoreLocked() async throws {
        let store = TestStore(.disk)
        let configuration = configuration(store)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for round in 0..<100 {
                        let context = ModelContext(try ModelContainer(for: Trip.self, configurations: configuration))
                        context.insert(makeTrip("Worker \(worker) round \(round)"))
                        try context.save()
                    }
                }
            }
            try await group.waitForAll()
        }
        let context = ModelContext(try ModelContainer(for: Trip.self, configurations: configuration))
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 400)
    }

    @Test func aContainerWithAnotherSchemaIsRefusedNamingBoth() throws {
        let store = TestStore(.disk)
        let first = try ModelContainer(for: Trip.self, configurations: configuration(store))
        let v2 = Schema(SampleTripsSchemaV2.models)
        let error = try #require(
            #expect(throws: LogbookError.self) {
                try ModelContainer(for: v2, configurations: [configuration(store)])
            }
        )
        #expect(error.code == .schemaMismatch)
        let open = first.schema.fingerprint.hexString.prefix(12)
        let asked = v2.fingerprint.hexString.prefix(12)
        #expect(
            error.message
                == "the store is already open in this process with schema \(first.schema.version) (fingerprint \(open)) and no migration plan; this container asks for schema \(v2.version) (fingerprint \(asked)) and no migration plan. Containers of one store in one process share its objects, so they must use the same schema and migration plan"
        )
        // The refused container took nothing: the first still saves, and goes alone.
        let context = ModelContext(first)
        context.insert(makeTrip("Still open"))
        try context.save()
    }

    @Test func aContainerWithAnotherMigrationPlanIsRefusedNamingBoth() throws {
        let store = TestStore(.disk)
        let first = try ModelContainer(for: Trip.self, configurations: configuration(store))
        let error = try #require(
            #expect(throws: LogbookError.self) {
                try ModelContainer(
                    for: Trip.self,
                    migrationPlan: SampleTripsMigrationPlan.self,
                    configurations: configuration(store)
                )
            }
        )
        #expect(error.code == .schemaMismatch)
        #expect(error.message.contains("already open in this process with schema"))
        #expect(error.message.contains("and no migration plan; this container asks for schema"))
        #expect(error.message.contains("and migration plan SampleTripsMigrationPlan."))
        _ = first
    }

    @Test func eachContainerKeepsItsOwnPermissionToSave() throws {
        let store = TestStore(.disk)
        var readOnly = configuration(store)
        readOnly.allowsSave = false
        // The writer creates the store; a read-only container creates none.
        let writer = try ModelContainer(for: Trip.self, configurations: configuration(store))
        let reader = try ModelContainer(for: Trip.self, configurations: readOnly)
        let writing = ModelContext(writer)
        writing.insert(makeTrip("Saved"))
        try writing.save()
        let reading = ModelContext(reader)
        #expect(try reading.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Saved"])
        reading.insert(makeTrip("Refused"))
        let error = #expect(throws: LogbookError.self) { try reading.save() }
        #expect(error?.code == .saveNotAllowed)
    }

    @Test func storesInMemoryAreNeverShared() throws {
        let first = ModelContext(
            try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        )
        let second = ModelContext(
            try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        )
        first.insert(makeTrip("Only in the first"))
        try first.save()
        #expect(try second.fetchCount(FetchDescriptor<Trip>()) == 0)
    }
}
