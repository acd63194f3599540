import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// The tool on a store whose history was deleted: `info` shows the horizon, `verify`, `dump`,
/// `replay` read the base, `history` and `tail` the transactions after it.
struct DeleteHistoryToolTests {
    /// The demo store (migrated to V3), its history deleted up to its second transaction, then
    /// one more save. Returns the store's path and the horizon.
    private func makeStore(_ directory: TemporaryDirectory) throws -> (String, UInt64) {
        let store = directory.child("trips.store")
        #expect(try ToolProcess.run(["demo", store]).status == 0)
        let container = try ModelContainer(
            for: Trip.self,
            migrationPlan: SampleTripsMigrationPlan.self,
            configurations: ModelConfiguration(url: URL(fileURLWithPath: store))
        )
        let context = ModelContext(container)
        let tokens = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).map(\.token)
        try #require(tokens.count > 2)
        let horizon = tokens[1]
        try context.deleteHistory(
            HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token <= horizon })
        )
        context.insert(
            Trip(
                name: "After the horizon",
                destination: "Faro",
                startDate: Date(timeIntervalSince1970: 0),
                endDate: Date(timeIntervalSince1970: 86_400)
            )
        )
        try context.save()
        return (store, horizon.sequence)
    }

    @Test func infoShowsTheHorizonAndVerifyDumpAndReplayReadTheBase() throws {
        let directory = TemporaryDirectory()
        let (store, horizon) = try makeStore(directory)
        let info = try ToolProcess.run(["info", store])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("history:   deleted up to token \(horizon) (events "), "\(info.stdout)")
        #expect(info.stdout.contains("-\(String(repeating: "0", count: 20 - String(horizon).count))\(horizon).base"))
        let verify = try ToolProcess.run(["verify", store])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        let replay = try ToolProcess.run(["replay", store, "--entity", "Trip"])
        #expect(replay.status == 0)
        #expect(replay.stdout.contains("name=\"After the horizon\""))
        #expect(replay.stdout.contains("name=\"Kyoto in autumn\""))
        let dump = try ToolProcess.run(["dump", store, "--format", "json"])
        #expect(dump.status == 0)
        #expect(dump.stdout.contains("After the horizon"))
        let asOf = try ToolProcess.run(["replay", store, "--as-of", "\(horizon)"])
        #expect(asOf.status == 0, "\(asOf.stderr)")
        #expect(!asOf.stdout.contains("After the horizon"))
    }

    @Test func historyAndTailListOnlyWhatFollowsTheHorizon() throws {
        let directory = TemporaryDirectory()
        let (store, horizon) = try makeStore(directory)
        let history = try ToolProcess.run(["history", store])
        #expect(history.status == 0, "\(history.stderr)")
        let tokens = history.stdout.split(separator: "\n").filter { $0.hasPrefix("transaction ") }.compactMap {
            UInt64($0.dropFirst("transaction ".count).prefix { $0.isNumber })
        }
        #expect(!tokens.isEmpty)
        #expect(tokens.allSatisfy { $0 > horizon }, "\(tokens)")
        #expect(history.stdout.contains("After the horizon"))
        let before = try ToolProcess.run(["history", store, "--after", "\(horizon - 1)"])
        #expect(before.status != 0)
        #expect(before.stderr.contains("starts after token \(horizon), the horizon"), "\(before.stderr)")
        let tail = try ToolProcess.run(["tail", store, "-n", "100000"])
        #expect(tail.status == 0, "\(tail.stderr)")
        let sequences = tail.stdout.split(separator: "\n").compactMap { UInt64($0.prefix { $0.isNumber }) }
        #expect(!sequences.isEmpty)
        #expect(sequences.allSatisfy { $0 > horizon }, "\(tail.stdout)")
    }

    @Test func tailFollowsAWriterOnAStoreWhoseHistoryWasDeletedAndThroughAnotherDeletion() throws {
        let directory = TemporaryDirectory()
        let (store, _) = try makeStore(directory)
        let container = try ModelContainer(
            for: Trip.self,
            migrationPlan: SampleTripsMigrationPlan.self,
            configurations: ModelConfiguration(url: URL(fileURLWithPath: store))
        )
        let context = ModelContext(container)
        let (process, out) = try ToolProcess.start(["tail", store, "--follow", "-n", "1"])
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let started = readOutput(of: out, until: "After the horizon", timeout: 60)
        #expect(started.contains("insert\tTrip#"), "\(started)")
        context.insert(makeTrip("Followed"))
        try context.save()
        #expect(readOutput(of: out, until: "Followed", timeout: 60).contains("name=\"Followed\""))
        // The writer deletes the history again, up to its last save, while the tool follows.
        try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        context.insert(makeTrip("After the second deletion"))
        try context.save()
        let seen = readOutput(of: out, until: "After the second deletion", timeout: 60)
        #expect(seen.contains("name=\"After the second deletion\""), "\(seen)")
    }
}
