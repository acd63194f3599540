import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// `deleteHistory`: the log up to a horizon folded into a compaction base, the objects kept,
/// tokens after the horizon still valid and those before it refused with `historyDeleted`.
struct DeleteHistoryTests {
    private let all = HistoryDescriptor<DefaultHistoryTransaction>()

    private func configuration(_ url: URL, segmentSize: Int = 64 << 20) -> ModelConfiguration {
        var configuration = ModelConfiguration(url: url)
        configuration.segmentSize = segmentSize
        return configuration
    }

    private func lines(_ context: ModelContext) throws -> [String] {
        try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map { trip in
            let items = (trip.bucketList ?? []).map(\.title).sorted()
            return "\(trip.name)@\(trip.destination) \(items) \(trip.livingAccommodation?.placeName ?? "-")"
        }
    }

    /// Five saves: trips with items and a stay, an update, a delete, more trips.
    private func writeSaves(_ context: ModelContext) throws -> [DefaultHistoryToken] {
        for round in 0..<3 {
            let trip = makeTrip("Trip \(round)", offset: Double(round))
            context.insert(trip)
            trip.bucketList = [makeItem("Item \(round).a"), makeItem("Item \(round).b")]
            trip.livingAccommodation = LivingAccommodation(address: "\(round) Street", placeName: "Stay \(round)")
            try context.save()
        }
        let first = try #require(
            try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Trip 0" })).first
        )
        first.destination = "Oslo"
        try context.save()
        let second = try #require(
            try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Trip 1" })).first
        )
        context.delete(second)
        try context.save()
        return try context.fetchHistory(all).map(\.token)
    }

    @Test func theObjectsAndTheLaterTransactionsSurviveAReopen() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("trips.store"))
        let tokens: [DefaultHistoryToken]
        let before: [String]
        do {
            let context = ModelContext(try ModelContainer(for: Trip.self, configurations: configuration(url)))
            tokens = try writeSaves(context)
            try #require(tokens.count == 5)
            before = try lines(context)
            let horizon = tokens[2]
            try context.deleteHistory(
                HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token <= horizon })
            )
            #expect(try context.fetchHistory(all).map(\.token) == Array(tokens[3...]))
            #expect(try lines(context) == before)
            // Saves go on after the switch.
            context.insert(makeTrip("Trip 9"))
            try context.save()
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: url.path).filter {
            $0.hasSuffix(".log") || $0.hasSuffix(".base")
        }
        let horizon = String(tokens[2].sequence)
        let padded = String(repeating: "0", count: 20 - horizon.count) + horizon
        #expect(names.contains { $0.hasSuffix("-\(padded).base") }, "the base: \(names)")
        #expect(names.contains("00000000000000000000.log"), "the fence: \(names)")

        let context = ModelContext(try ModelContainer(for: Trip.self, configurations: configuration(url)))
        #expect(try lines(context) == (before + ["Trip 9@Lisbon [] -"]).sorted())
        let history = try context.fetchHistory(all)
        #expect(history.map(\.token).prefix(2) == tokens[3...])
        #expect(history.count == 3)
        // The identifiers are those the objects had: a later token's changes name them.
        let deleted = history[1].changes.compactMap { change -> PersistentIdentifier? in
            if case .delete(let delete as DefaultHistoryDelete<Trip>) = change {
                return delete.changedPersistentIdentifier
            }
            return nil
        }
        #expect(deleted.count == 1)
        let report = try LogVerifier.verify(directory: url.path, checkEvent: { EventCodec.validate($0) })
        #expect(report.isSound, "\(report.damages)")
        #expect(try LogReader(directory: url.path).horizon() == tokens[2].sequence)
    }

    @Test func tokensBeforeTheHorizonThrowHistoryDeletedNamingIt() async throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("trips.store"))
        let container = try ModelContainer(for: Trip.self, configurations: configuration(url))
        let context = ModelContext(container)
        let tokens = try writeSaves(context)
        let horizon = tokens[1]
        try context.deleteHistory(
            HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token <= horizon })
        )
        for start in [nil, tokens[0]] {
            var iterator = container.changes(after: start).makeAsyncIterator()
            do {
                _ = try await iterator.next()
                Issue.record("changes(after: \(String(describing: start))) should throw")
            } catch let error as LogbookError {
                #expect(error.code == .historyDeleted)
                #expect(error.message.contains("starts after token \(horizon.sequence), the horizon"), "\(error)")
            }
        }
        // From the horizon on, the feed delivers what follows.
        var iterator = container.changes(after: horizon).makeAsyncIterator()
        #expect(try await iterator.next()?.token == tokens[2])

        var asOf = ModelConfiguration(url: url)
        asOf.asOf = tokens[0]
        #expect {
            _ = try ModelContainer(for: Trip.self, configurations: asOf)
        } throws: { error in
            (error as? LogbookError)?.code == .historyDeleted
                && "\(error)".contains("after token \(tokens[0].sequence) was deleted")
        }
        asOf.asOf = horizon
        let then = try ModelContainer(for: Trip.self, configurations: asOf)
        #expect(try ModelContext(then).fetchCount(FetchDescriptor<Trip>()) == 2)
        asOf.asOf = tokens[3]
        let later = try ModelContainer(for: Trip.self, configurations: asOf)
        #expect(try ModelContext(later).fetch(FetchDescriptor<Trip>()).contains { $0.destination == "Oslo" })
    }

    @Test func theHorizonIsTheNewestMatchAndAPrefixIsDeleted() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("trips.store"))
        let context = ModelContext(try ModelContainer(for: Trip.self, configurations: configuration(url)))
        let tokens = try writeSaves(context)
        // Nothing matches: nothing changes.
        try context.deleteHistory(
            HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.author == "nobody" })
        )
        #expect(try context.fetchHistory(all).map(\.token) == tokens)
        #expect(try LogReader(directory: url.path).horizon() == nil)
        // Matching only the third deletes the first two with it.
        let third = tokens[2]
        try context.deleteHistory(
            HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token == third })
        )
        #expect(try context.fetchHistory(all).map(\.token) == Array(tokens[3...]))
        // A predicate reading changes is refused, naming the property.
        #expect {
            try context.deleteHistory(
                HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.changes.isEmpty })
            )
        } throws: { ($0 as? LogbookError)?.code == .invalidArgument && "\($0)".contains("changes") }
        // No predicate: everything up to the last save; done twice, the second does nothing.
        try context.deleteHistory(all)
        try context.deleteHistory(all)
        #expect(try context.fetchHistory(all).isEmpty)
        #expect(try LogReader(directory: url.path).horizon() == tokens[4].sequence)
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 2)
    }

    @Test func aHorizonInsideASegmentKeepsTheBatchesAfterItAndLaterSegments() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("trips.store"))
        var tokens: [DefaultHistoryToken] = []
        var before: [String] = []
        do {
            let context = ModelContext(
                try ModelContainer(for: Trip.self, configurations: configuration(url, segmentSize: 1_500))
            )
            for round in 0..<30 {
                let trip = makeTrip("Trip \(round)", offset: Double(round))
                context.insert(trip)
                trip.bucketList = [makeItem("Item \(round)")]
                try context.save()
                if round % 3 == 0 {
                    trip.destination = "Round \(round)"
                    try context.save()
                }
            }
            tokens = try context.fetchHistory(all).map(\.token)
            before = try lines(context)
            let segments = try LogReader(directory: url.path).segments()
            try #require(segments.count > 3)
            // A token in the middle of a segment that is neither the first nor the last.
            let middle = try #require(
                tokens.first { token in
                    let holder = segments.last { $0.firstSequence <= token.sequence }
                    return holder != segments.first && holder != segments.last
                        && !segments.contains { $0.firstSequence == token.sequence + 1 }
                }
            )
            try context.deleteHistory(
                HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token <= middle })
            )
            #expect(try context.fetchHistory(all).map(\.token) == tokens.filter { $0 > middle })
            // A second deletion, later on, replaces the first base.
            let later = tokens[tokens.count - 5]
            try context.deleteHistory(
                HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token <= later })
            )
            #expect(try context.fetchHistory(all).map(\.token) == Array(tokens.suffix(4)))
            let bases = try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".base") }
            #expect(bases.count == 1, "\(bases)")
        }
        let context = ModelContext(
            try ModelContainer(for: Trip.self, configurations: configuration(url, segmentSize: 1_500))
        )
        #expect(try lines(context) == before)
        #expect(try context.fetchHistory(all).map(\.token) == Array(tokens.suffix(4)))
        let report = try LogVerifier.verify(directory: url.path, checkEvent: { EventCodec.validate($0) })
        #expect(report.isSound, "\(report.damages)")
    }

    @Test func aStoreWrittenAtV1WhoseHistoryWasDeletedMigratesThroughThePlan() throws {
        let directory = TemporaryDirectory()
        func writeV1(_ url: URL) throws -> ModelContext {
            let context = ModelContext(
                try ModelContainer(for: SampleTripsSchemaV1.Trip.self, configurations: ModelConfiguration(url: url))
            )
            // Two trips share a name: V2 makes names unique and folds them.
            for (index, (name, destination)) in [("Summer", "Lisbon"), ("Winter", "Oslo"), ("Summer", "Porto")]
                .enumerated()
            {
                let trip = SampleTripsSchemaV1.Trip(
                    name: name,
                    destination: destination,
                    start_date: baseDate + Double(index) * day,
                    end_date: baseDate + Double(index + 7) * day
                )
                context.insert(trip)
                trip.bucketList?.append(
                    SampleTripsSchemaV1.BucketListItem(
                        title: "See \(destination)",
                        details: "",
                        hasReservation: false,
                        isInPlan: true
                    )
                )
                try context.save()
            }
            return context
        }
        func migrated(_ url: URL) throws -> [String] {
            let context = ModelContext(
                try ModelContainer(
                    for: Trip.self,
                    migrationPlan: SampleTripsMigrationPlan.self,
                    configurations: ModelConfiguration(url: url)
                )
            )
            return try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map { trip in
                "\(trip.name)@\(trip.destination) \(trip.startDate.timeIntervalSince1970) \((trip.bucketList ?? []).map(\.title).sorted())"
            }
        }
        let control = URL(fileURLWithPath: directory.child("control.store"))
        _ = try writeV1(control)
        let compacted = URL(fileURLWithPath: directory.child("compacted.store"))
        do {
            let context = try writeV1(compacted)
            try context.deleteHistory(all)
        }
        #expect(try LogReader(directory: compacted.path).horizon() != nil)
        let expected = try migrated(control)
        #expect(expected.count == 2)
        #expect(try migrated(compacted) == expected)
        // Reopened at V3 once more, and the history after the migration is there.
        #expect(try migrated(compacted) == expected)
        let report = try LogVerifier.verify(directory: compacted.path, checkEvent: { EventCodec.validate($0) })
        #expect(report.isSound, "\(report.damages)")
    }

    @Test func readOnlyAsOfAndInMemoryContainersRefuseIt() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("trips.store"))
        let writer = try ModelContainer(for: Trip.self, configurations: configuration(url))
        let tokens = try writeSaves(ModelContext(writer))
        let follower = try ModelContainer(
            for: Trip.self,
            configurations: ModelConfiguration(url: url, allowsSave: false)
        )
        #expect {
            try ModelContext(follower).deleteHistory(all)
        } throws: { ($0 as? LogbookError)?.code == .saveNotAllowed }
        var asOf = ModelConfiguration(url: url)
        asOf.asOf = tokens[1]
        #expect {
            try ModelContext(try ModelContainer(for: Trip.self, configurations: asOf)).deleteHistory(all)
        } throws: { ($0 as? LogbookError)?.code == .saveNotAllowed }
        let memory = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        #expect {
            try ModelContext(memory).deleteHistory(all)
        } throws: { ($0 as? LogbookError)?.code == .invalidArgument }
        #expect(try ModelContext(writer).fetchHistory(all).map(\.token) == tokens)
    }

    @Test func aFollowerBeforeTheHorizonThrowsAndOneAfterItReadsOn() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("trips.store"))
        let writer = ModelContext(
            try ModelContainer(for: Trip.self, configurations: configuration(url, segmentSize: 1_500))
        )
        let tokens = try writeSaves(writer)
        let follower = try ModelContainer(
            for: Trip.self,
            configurations: ModelConfiguration(url: url, allowsSave: false)
        )
        #expect(try ModelContext(follower).fetchCount(FetchDescriptor<Trip>()) == 2)
        // The writer saves on, then deletes the history up to a save the follower has not read.
        writer.insert(makeTrip("Trip 7"))
        try writer.save()
        writer.insert(makeTrip("Trip 8"))
        try writer.save()
        let horizon = try #require(try writer.fetchHistory(all).dropLast().last?.token)
        try writer.deleteHistory(
            HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token <= horizon })
        )
        #expect {
            _ = try ModelContext(follower).fetch(FetchDescriptor<Trip>())
        } throws: { error in
            (error as? LogbookError)?.code == .historyDeleted && "\(error)".contains("token \(horizon.sequence)")
        }
        // A follower opened now reads the base and everything after it, and goes on.
        let fresh = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url, allowsSave: false))
        #expect(try ModelContext(fresh).fetchCount(FetchDescriptor<Trip>()) == 4)
        writer.insert(makeTrip("Trip 9"))
        try writer.save()
        #expect(try ModelContext(fresh).fetchCount(FetchDescriptor<Trip>()) == 5)
        // Up to the last save the follower read: it reads on in the base's copy and after.
        try writer.deleteHistory(all)
        writer.insert(makeTrip("Trip 10"))
        try writer.save()
        #expect(try ModelContext(fresh).fetchCount(FetchDescriptor<Trip>()) == 6)
        #expect(tokens.count == 5)
    }
}
