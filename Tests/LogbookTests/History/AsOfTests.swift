import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// Containers opened as of a history token: the store as it was then, read-only.
struct AsOfTests {
    private func asOf(_ token: DefaultHistoryToken, _ url: URL, allowsSave: Bool = false) throws -> ModelContainer {
        var configuration = ModelConfiguration(url: url, allowsSave: allowsSave)
        configuration.asOf = token
        return try ModelContainer(for: Trip.self, configurations: configuration)
    }

    private func trips(_ container: ModelContainer) throws -> [String] {
        try ModelContext(container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map {
            "\($0.name)@\($0.destination)"
        }
    }

    /// Three saves: Alpha inserted; Bravo inserted and Alpha moved; Alpha deleted. Returns their
    /// tokens.
    private func writeThreeSaves(_ container: ModelContainer) throws -> [DefaultHistoryToken] {
        let context = ModelContext(container)
        let alpha = makeTrip("Alpha")
        context.insert(alpha)
        try context.save()
        context.insert(makeTrip("Bravo", destination: "Porto"))
        alpha.destination = "Oslo"
        try context.save()
        context.delete(alpha)
        try context.save()
        return try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).map(\.token)
    }

    @Test func eachTokenOpensTheStoreAsItWasThenWhileTheWriterSavesOn() throws {
        let store = TestStore(.disk)
        let writer = try store.container()
        let tokens = try writeThreeSaves(writer)
        try #require(tokens.count == 3)
        // More saves after the tokens, through the writer that still holds the store.
        let context = ModelContext(writer)
        context.insert(makeTrip("Charlie"))
        try context.save()
        // A checkpoint after every token: an open as of a token skips it.
        try writer.checkpoint()
        let expected = [
            ["Alpha@Lisbon"],
            ["Alpha@Oslo", "Bravo@Porto"],
            ["Bravo@Porto"],
        ]
        for (token, objects) in zip(tokens, expected) {
            let container = try asOf(token, store.url)
            #expect(try trips(container) == objects, "as of \(token)")
            // Its history ends at the token, and it does not follow later saves.
            let history = try ModelContext(container).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
            #expect(history.last?.token == token)
            context.insert(makeTrip("Later \(token)"))
            try context.save()
            #expect(try trips(container) == objects, "as of \(token), after another save")
        }
        // And after the writer closed, reopened from the log alone.
        store.close()
        #expect(try trips(try asOf(tokens[1], store.url)) == expected[1])
    }

    @Test func theChangeFeedOfAContainerAsOfATokenEndsAfterThatTokensTransaction() async throws {
        let store = TestStore(.disk)
        let writer = try store.container()
        let tokens = try writeThreeSaves(writer)
        try #require(tokens.count == 3)
        let container = try asOf(tokens[1], store.url)
        // A save after the token, while the feed reads: the feed still ends at the token.
        let context = ModelContext(writer)
        context.insert(makeTrip("Later"))
        try context.save()
        var delivered: [DefaultHistoryToken] = []
        for try await transaction in container.changes(after: nil) { delivered.append(transaction.token) }
        #expect(delivered == Array(tokens[0...1]))
        var resumed: [DefaultHistoryToken] = []
        for try await transaction in container.changes(after: tokens[0]) { resumed.append(transaction.token) }
        #expect(resumed == [tokens[1]])
    }

    @Test func savesThroughAContainerAsOfATokenThrowWhateverAllowsSaveSays() throws {
        let store = TestStore(.disk)
        let tokens = try writeThreeSaves(try store.container())
        let container = try asOf(tokens[0], store.url, allowsSave: true)
        let context = ModelContext(container)
        context.insert(makeTrip("Refused"))
        let error = try #require(throws: LogbookError.self) { try context.save() }
        #expect(error.code == .saveNotAllowed)
        #expect(error.path == store.url.path)
        #expect(try #require(throws: LogbookError.self) { try container.deleteAllData() }.code == .saveNotAllowed)
        store.close()
        #expect(try trips(try store.container()) == ["Bravo@Porto"], "nothing was written")
    }

    @Test func aTokenPastTheEndOfTheLogThrowsNamingItAndTheLastToken() throws {
        let store = TestStore(.disk)
        let tokens = try writeThreeSaves(try store.container())
        let last = try #require(tokens.last)
        let past = DefaultHistoryToken(sequence: last.sequence + 10)
        let error = try #require(throws: LogbookError.self) { try asOf(past, store.url) }
        #expect(error.code == .invalidArgument)
        #expect(error.message == "the token \(past) is past the end of the store's log, whose last token is \(last)")
        #expect(error.path == store.url.path)
        let zero = try #require(throws: LogbookError.self) { try asOf(DefaultHistoryToken(sequence: 0), store.url) }
        #expect(zero.code == .invalidArgument)
    }

    @Test func anInMemoryStoreCannotBeOpenedAsOfAToken() throws {
        var configuration = ModelConfiguration(isStoredInMemoryOnly: true)
        configuration.asOf = DefaultHistoryToken(sequence: 1)
        let error = try #require(throws: LogbookError.self) {
            try ModelContainer(for: Trip.self, configurations: configuration)
        }
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains("as of the token 1"))
    }

    @Test func aTokenInsideATransactionThrowsNamingTheTransactionsToken() throws {
        let store = TestStore(.disk)
        let context = ModelContext(try store.container())
        context.insert(makeTrip("One"))
        context.insert(makeTrip("Two"))
        try context.save()
        let token = try #require(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).first?.token)
        let inside = DefaultHistoryToken(sequence: token.sequence - 1)
        let error = try #require(throws: LogbookError.self) { try asOf(inside, store.url) }
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains("the token \(inside) does not end a transaction"))
        #expect(error.message.contains("so its token is \(token)"))
    }

    @Test func aTokenBeforeAMigrationOpensWithTheModelsOfThatVersionOnly() throws {
        let store = TestStore(.disk)
        let v1 = Schema(SampleTripsSchemaV1.models)
        let token: DefaultHistoryToken
        do {
            let context = ModelContext(
                try ModelContainer(for: v1, configurations: [ModelConfiguration(url: store.url)])
            )
            context.insert(
                SampleTripsSchemaV1.Trip(name: "Old", destination: "Rome", start_date: baseDate, end_date: baseDate)
            )
            try context.save()
            token = try #require(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last?.token)
        }
        _ = try ModelContainer(
            for: Trip.self,
            migrationPlan: SampleTripsMigrationPlan.self,
            configurations: ModelConfiguration(url: store.url)
        )
        var configuration = ModelConfiguration(url: store.url)
        configuration.asOf = token
        let error = try #require(throws: LogbookError.self) {
            try ModelContainer(
                for: Trip.self,
                migrationPlan: SampleTripsMigrationPlan.self,
                configurations: configuration
            )
        }
        #expect(error.code == .schemaMismatch)
        #expect(error.message.contains("at schema 1.0.0"))
        let then = try ModelContainer(for: v1, configurations: [configuration])
        #expect(try ModelContext(then).fetch(FetchDescriptor<SampleTripsSchemaV1.Trip>()).map(\.name) == ["Old"])
    }
}
