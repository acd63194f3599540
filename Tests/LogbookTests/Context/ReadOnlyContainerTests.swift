import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// Containers that do not allow saving: read-only followers of a store that a writer appends
/// to, which take no lock and write nothing.
struct ReadOnlyContainerTests {
    private func writer(_ url: URL) throws -> ModelContainer {
        try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url, durability: .relaxed))
    }

    private func follower(_ url: URL) throws -> ModelContainer {
        try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url, allowsSave: false))
    }

    private func names(_ context: ModelContext) throws -> [String] {
        try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name)
    }

    private func save(_ names: [String], in container: ModelContainer) throws {
        let context = ModelContext(container)
        for name in names { context.insert(makeTrip(name)) }
        try context.save()
    }

    /// Every file of the store with its size and modification time.
    private func listing(_ path: String) throws -> [String: [Int]] {
        var files: [String: [Int]] = [:]
        let manager = FileManager.default
        for name in try manager.subpathsOfDirectory(atPath: path) {
            let attributes = try manager.attributesOfItem(atPath: path + "/" + name)
            let size = (attributes[.size] as? Int) ?? -1
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1
            files[name] = [size, Int(modified * 1_000_000)]
        }
        return files
    }

    @Test func modelForAnIdentifierReadsTheWritersSavesSinceTheLastFetch() throws {
        let store = TestStore(.disk)
        let writing = try writer(store.url)
        try save(["Alpha"], in: writing)
        let reading = ModelContext(try follower(store.url))
        let alpha = try #require(try reading.fetch(FetchDescriptor<Trip>()).first)
        // A trip the writer inserts after the follower's last fetch is found by its identifier.
        let editing = ModelContext(writing)
        let bravo = makeTrip("Bravo")
        editing.insert(bravo)
        try editing.save()
        let found = try #require(reading.model(for: bravo.persistentModelID) as? Trip)
        #expect(found.name == "Bravo")
        // An edit the writer saves reaches the registered model it returns.
        let edited = try #require(
            try editing.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Alpha" })).first
        )
        edited.destination = "Oslo"
        try editing.save()
        #expect(reading.model(for: alpha.persistentModelID) === alpha)
        #expect(alpha.destination == "Oslo")
    }

    @Test func aFollowerOpensWhileTheWriterHoldsTheLockAndSeesEachSaveAtItsNextFetch() throws {
        let store = TestStore(.disk)
        let writing = try writer(store.url)
        try save(["Alpha"], in: writing)
        let reading = ModelContext(try follower(store.url))
        let alpha = try #require(try reading.fetch(FetchDescriptor<Trip>()).first)
        #expect(alpha.destination == "Lisbon")
        try save(["Bravo"], in: writing)
        #expect(try names(reading) == ["Alpha", "Bravo"])
        #expect(try reading.fetchCount(FetchDescriptor<Trip>()) == 2)
        // An edit the writer saves reaches the model the follower fetched before.
        let editing = ModelContext(writing)
        let edited = try #require(
            try editing.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Alpha" })).first
        )
        edited.destination = "Oslo"
        try editing.save()
        #expect(try reading.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Alpha" })).first === alpha)
        #expect(alpha.destination == "Oslo")
        // And a deletion.
        editing.delete(edited)
        try editing.save()
        #expect(try names(reading) == ["Bravo"])
    }

    @Test func anyNumberOfFollowersOpenBeforeAndAfterTheWriter() throws {
        let store = TestStore(.disk)
        do { try save(["Seed"], in: try writer(store.url)) }
        let early = ModelContext(try follower(store.url))
        let writing = try writer(store.url)
        let late = ModelContext(try follower(store.url))
        let another = ModelContext(try follower(store.url))
        for index in 0..<5 { try save(["Trip \(index)"], in: writing) }
        let expected = ["Seed", "Trip 0", "Trip 1", "Trip 2", "Trip 3", "Trip 4"]
        #expect(try names(early) == expected)
        #expect(try names(late) == expected)
        #expect(try names(another) == expected)
        // The writer's lock is the writer's alone: a second writer is still refused.
        // A second writer of this process shares the first's store and its lock.
        let second = ModelContext(try writer(store.url))
        #expect(try names(second) == expected)
        #expect(second.container.store === writing.store)
        #expect(early.container.store !== writing.store)
    }

    @Test func aSaveThroughAFollowerThrowsNamingTheStoreAndWritesNothing() throws {
        let store = TestStore(.disk)
        let writing = try writer(store.url)
        try save(["Kept"], in: writing)
        let container = try follower(store.url)
        let before = try listing(store.url.path)
        let context = ModelContext(container)
        context.insert(makeTrip("Refused"))
        let inserted = try #require(throws: LogbookError.self) { try context.save() }
        #expect(inserted.code == .saveNotAllowed)
        #expect(inserted.path == store.url.path)
        #expect("\(inserted)".contains(store.url.path))
        context.rollback()
        let kept = try #require(try context.fetch(FetchDescriptor<Trip>()).first)
        context.delete(kept)
        #expect(try #require(throws: LogbookError.self) { try context.save() }.code == .saveNotAllowed)
        context.rollback()
        let deleteAll = try #require(throws: LogbookError.self) { try container.deleteAllData() }
        #expect(deleteAll.code == .saveNotAllowed)
        #expect(deleteAll.path == store.url.path)
        let checkpoint = try #require(throws: LogbookError.self) { try container.checkpoint() }
        #expect(checkpoint.code == .saveNotAllowed)
        #expect(checkpoint.path == store.url.path)
        #expect(try listing(store.url.path) == before, "nothing in the store's directory changed")
        #expect(try names(ModelContext(writing)) == ["Kept"])
    }

    @Test func aFollowerLeavesATornTailAloneAndReadsTheBatchesBeforeIt() throws {
        let store = TestStore(.disk)
        do { try save(["One", "Two"], in: try writer(store.url)) }
        let segment = try #require(try LogReader(directory: store.url.path).segments().last)
        // A batch header's first bytes and nothing more: what a writer killed mid-append leaves.
        let original = try Data(contentsOf: URL(fileURLWithPath: segment.path))
        let torn = original + original.prefix(20)
        try torn.write(to: URL(fileURLWithPath: segment.path))
        let before = try listing(store.url.path)
        let reading = ModelContext(try follower(store.url))
        #expect(try names(reading) == ["One", "Two"])
        // Twice: the second fetch resumes where the first stopped, at the torn batch.
        #expect(try names(reading) == ["One", "Two"])
        #expect(try listing(store.url.path) == before, "the tail is neither cut off nor quarantined")
        // The next writer cuts it off and appends; the follower reads on.
        let writing = try writer(store.url)
        try save(["Three"], in: writing)
        #expect(try names(reading) == ["One", "Three", "Two"])
    }

    @Test func aFollowerReadsOnAcrossSegmentRolls() throws {
        let store = TestStore(.disk)
        var configuration = ModelConfiguration(url: store.url, durability: .relaxed)
        configuration.segmentSize = 1_024
        let writing = try ModelContainer(for: Trip.self, configurations: configuration)
        try save(["Trip 00"], in: writing)
        let reading = ModelContext(try follower(store.url))
        var expected = ["Trip 00"]
        for index in 1..<30 {
            let name = index < 10 ? "Trip 0\(index)" : "Trip \(index)"
            try save([name], in: writing)
            expected.append(name)
            #expect(try names(reading) == expected, "after save \(index)")
        }
        #expect(try LogReader(directory: store.url.path).segments().count > 3, "the log rolled over")
    }

    @Test func aFollowerFollowsAStoreThatHasNoBatchYetAndCreatesNone() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("trips.store"))
        let missing = try #require(throws: LogbookError.self) { try follower(url) }
        #expect(missing.code == .notAStore)
        #expect(missing.path == url.path)
        #expect(!FileManager.default.fileExists(atPath: url.path), "a follower creates no store")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        let reading = ModelContext(try follower(url))
        #expect(try names(reading).isEmpty)
        try save(["First"], in: try writer(url))
        #expect(try names(reading) == ["First"])
    }

    @Test func aFollowerOfAStoreAtAnotherSchemaIsRefusedNamingBothVersions() throws {
        let store = TestStore(.disk)
        do {
            let old = try ModelContainer(
                for: Schema(SampleTripsSchemaV1.models),
                configurations: [ModelConfiguration(url: store.url)]
            )
            let context = ModelContext(old)
            context.insert(
                SampleTripsSchemaV1.Trip(name: "Old", destination: "Rome", start_date: baseDate, end_date: baseDate)
            )
            try context.save()
        }
        let before = try listing(store.url.path)
        let error = try #require(throws: LogbookError.self) {
            try ModelContainer(
                for: Trip.self,
                migrationPlan: SampleTripsMigrationPlan.self,
                configurations: ModelConfiguration(url: store.url, allowsSave: false)
            )
        }
        #expect(error.code == .schemaMismatch)
        #expect(error.message.contains("at schema 1.0.0"))
        #expect(error.message.contains("models are schema 3.0.0"))
        #expect(error.message.contains("cannot migrate"))
        #expect(error.path == store.url.path)
        #expect(try listing(store.url.path) == before, "nothing migrated, nothing written")
    }

    @Test func aMigrationByTheWriterStopsTheFollowerAtTheBatchBeforeIt() throws {
        let store = TestStore(.disk)
        let v1 = Schema(SampleTripsSchemaV1.models)
        do {
            let context = ModelContext(
                try ModelContainer(for: v1, configurations: [ModelConfiguration(url: store.url)])
            )
            context.insert(
                SampleTripsSchemaV1.Trip(name: "Old", destination: "Rome", start_date: baseDate, end_date: baseDate)
            )
            try context.save()
        }
        let reading = ModelContext(
            try ModelContainer(for: v1, configurations: [ModelConfiguration(url: store.url, allowsSave: false)])
        )
        #expect(try reading.fetch(FetchDescriptor<SampleTripsSchemaV1.Trip>()).map(\.name) == ["Old"])
        let migrated = try ModelContainer(
            for: Trip.self,
            migrationPlan: SampleTripsMigrationPlan.self,
            configurations: ModelConfiguration(url: store.url)
        )
        for _ in 0..<2 {
            let error = try #require(throws: LogbookError.self) {
                try reading.fetch(FetchDescriptor<SampleTripsSchemaV1.Trip>())
            }
            #expect(error.code == .schemaMismatch)
            #expect(error.message.contains("at schema 2.0.0"))
            #expect(error.message.contains("models are schema 1.0.0"))
            #expect(error.sequence != nil)
        }
        // A follower at the new version reads the migrated store, old events upcast.
        let current = ModelContext(
            try ModelContainer(
                for: Trip.self,
                migrationPlan: SampleTripsMigrationPlan.self,
                configurations: ModelConfiguration(url: store.url, allowsSave: false)
            )
        )
        #expect(try names(current) == ["Old"])
        #expect(try current.fetch(FetchDescriptor<Trip>()).first?.startDate == baseDate)
        _ = migrated
    }

    @Test func theFeedOfAFollowerDeliversTheWritersSavesInOrder() async throws {
        let store = TestStore(.disk)
        let writing = try writer(store.url)
        try save(["Before"], in: writing)
        let following = try follower(store.url)
        let saver = Task {
            for index in 0..<10 {
                try await Task.sleep(for: .milliseconds(5))
                try save(["Trip \(index)"], in: writing)
            }
        }
        var seen: [String] = []
        var tokens: [DefaultHistoryToken] = []
        for try await transaction in following.changes(after: nil) {
            for change in transaction.changes {
                guard case .insert(let insert) = change, let trip = insert as? DefaultHistoryInsert<Trip> else {
                    continue
                }
                seen.append(trip.value(for: \.name) ?? "?")
            }
            tokens.append(transaction.token)
            if seen.count == 11 { break }
        }
        try await saver.value
        #expect(seen == ["Before"] + (0..<10).map { "Trip \($0)" })
        #expect(tokens == tokens.sorted())
        let history = try ModelContext(following).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(history.map(\.token) == tokens)
    }
}
