import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// `logbook history`, and the change feed following saves that the tool appends from another
/// process.
struct HistoryToolTests {
    private var formatFour: String {
        GoldenStoreTests.fixtures.appendingPathComponent("sampletrips-v2-format-4").path
    }

    @Test func historyPrintsTheTransactionsAfterATokenWithTheirChangesAndValues() throws {
        let outcome = try ToolProcess.run(["history", formatFour, "--after", "16"])
        #expect(outcome.status == 0)
        #expect(
            outcome.stdout == """
                transaction 19\tevents 17...19\t2026-01-01T00:00:00.000Z\tauthor fixtures
                  insert\tTrip#16\tname="Kyoto in autumn " destination="Kyoto and Nara" \
                start_date=2026-09-30T00:00:00.000Z end_date=2026-10-10T00:00:00.000Z
                  insert\tBucketListItem#17\ttitle="Deer park in Nara" details="" hasReservation=true isInPlan=true
                  insert\tLivingAccommodation#18\taddress="Sanjo 7" placeName="Machiya Sanjo"
                transaction 20\tevents 20...20\t2026-01-01T00:00:00.000Z\tauthor fixtures
                  insert\tTrip#19\tname="Iceland ring road" destination="Iceland" \
                start_date=2026-08-01T00:00:00.000Z end_date=2026-08-15T00:00:00.000Z

                """
        )
    }

    @Test func historyAsJSONIsOneTransactionPerLine() throws {
        let outcome = try ToolProcess.run(["history", formatFour, "--after", "19", "--format", "json"])
        #expect(outcome.status == 0)
        #expect(
            outcome.stdout == """
                {"token":20,"firstSequence":20,"timestamp":"2026-01-01T00:00:00.000Z","author":"fixtures",\
                "changes":[{"kind":"insert","entity":"Trip","id":19,"values":{"name":"Iceland ring road",\
                "destination":"Iceland","start_date":"2026-08-01T00:00:00.000Z","end_date":"2026-08-15T00:00:00.000Z"}}]}

                """
        )
        let all = try ToolProcess.run(["history", formatFour, "--format", "json"])
        #expect(all.stdout.split(separator: "\n").count == 6, "one line per save")
    }

    @Test func updatesShowTheObjectsTheirRelationshipsWereSetTo() throws {
        let directory = TemporaryDirectory()
        let store = directory.child("trips.store")
        do {
            let container = try ModelContainer(
                for: Trip.self,
                configurations: ModelConfiguration(url: URL(fileURLWithPath: store))
            )
            let context = ModelContext(container)
            let day = Date(timeIntervalSinceReferenceDate: 0)
            let porto = Trip(name: "Porto", destination: "Porto", startDate: day, endDate: day)
            let lisbon = Trip(name: "Lisbon", destination: "Lisbon", startDate: day, endDate: day)
            let item = BucketListItem(title: "Tram", details: "", hasReservation: false, isInPlan: true)
            context.insert(porto)
            context.insert(lisbon)
            porto.bucketList = [item]
            try context.save()
            item.trip = lisbon
            try context.save()
            item.trip = nil
            try context.save()
        }
        let text = try ToolProcess.run(["history", store, "--after", "4"])
        #expect(text.status == 0, "\(text.stderr)")
        let updates = text.stdout.split(separator: "\n").filter { $0.hasPrefix("  update") }
        #expect(updates == ["  update\tBucketListItem#3\ttrip=#2", "  update\tBucketListItem#3\ttrip=nil"])
        let json = try ToolProcess.run(["history", store, "--after", "4", "--format", "json"])
        #expect(json.stdout.contains(#""updated":["trip"],"relationships":{"trip":{"to":2}}"#), "\(json.stdout)")
        #expect(json.stdout.contains(#""relationships":{"trip":{"to":null}}"#))
    }

    @Test func aStoreWrittenBeforeFormatFourHasNoTimeOrAuthor() throws {
        let store = GoldenStoreTests.fixtures.appendingPathComponent("sampletrips-v1-format-2").path
        let outcome = try ToolProcess.run(["history", store])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.hasPrefix("transaction 20\tevents 1...20\t(no time or author recorded)\n"))
    }

    @Test func updatesAndDeletesOfAMigrationAreShownUnderTheNewestNames() throws {
        let directory = TemporaryDirectory()
        let store = directory.child("trips.store")
        #expect(try ToolProcess.run(["demo", store]).status == 0)
        let lines = try ToolProcess.run(["history", store]).stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("  update\tTrip#16\tname=\"Kyoto in autumn\"") })
        #expect(lines.filter { $0.hasPrefix("  delete\tTrip#") }.count == 3)
        #expect(lines.contains { $0.contains("startDate=2026-06-01T00:00:00.000Z") }, "V1's start_date, upcast")
    }

    @Test func aTokenPastTheEndIsAnErrorNamingItAndTheStore() throws {
        let outcome = try ToolProcess.run(["history", formatFour, "--after", "999"])
        #expect(outcome.status != 0)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr.contains("token 999 is past the end of the history of \(formatFour)"))
    }

    /// A feed made by a container keeps reading once the container is gone, and picks up a batch
    /// that another process (the tool) appends, by polling the log.
    @Test func theFeedPicksUpASaveAppendedByAnotherProcess() async throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("trips.store"))
        let feed: HistoryChanges
        let mine: DefaultHistoryToken
        do {
            let container = try ModelContainer(
                for: SampleTripsSchemaV1.Trip.self,
                configurations: ModelConfiguration(url: url)
            )
            let context = ModelContext(container)
            context.author = "this process"
            try SampleData.insertV1(SampleData.demoTrips.prefix(1), into: context, tripsPerSave: .max)
            let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
            mine = try #require(history.last?.token)
            feed = container.changes(after: mine)
        }
        // The container is released: the tool can take the writer's lock.
        // The tool appends while the feed waits at the end of the log.
        let path = url.path
        let tool = Task.detached {
            try await Task.sleep(for: .milliseconds(300))
            return try ToolProcess.run(["_sample-store", "--version", "1", "--append", path])
        }
        var iterator = feed.makeAsyncIterator()
        let theirs = try #require(try await iterator.next())
        let append = try await tool.value
        #expect(append.status == 0, "\(append.stderr)")
        #expect(theirs.author == "fixtures")
        #expect(theirs.timestamp == Date(timeIntervalSince1970: 1_767_225_600))
        #expect(theirs.token > mine)
        let trips = theirs.changes.compactMap { change -> String? in
            guard case .insert(let insert) = change else { return nil }
            return (insert as? DefaultHistoryInsert<SampleTripsSchemaV1.Trip>)?.value(for: \.name)
        }
        #expect(trips.count == SampleData.demoTrips.count)
        #expect(trips.contains("Summer in Lisbon"))
    }
}
