import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// A read-only container of this process following a store that another process (the built
/// `logbook _save-loop`) saves to, and that is killed mid-save.
@Suite(.serialized)
struct FollowerProcessTests {
    private func follower(_ path: String) throws -> ModelContainer {
        try ModelContainer(
            for: Trip.self,
            configurations: ModelConfiguration(url: URL(fileURLWithPath: path), allowsSave: false)
        )
    }

    /// The trips a context sees, checked to be trips 1 to *n* exactly: a prefix of the saves.
    private func prefix(_ context: ModelContext, _ note: String) throws -> Int {
        let names = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name)
        let expected = names.indices.map { tripName($0 + 1) }
        #expect(names == expected, "\(note): not a prefix of the saves")
        return names.count
    }

    /// `logbook _save-loop`'s trip names, restated: the tests must notice if the tool's change.
    private func tripName(_ number: Int) -> String {
        "trip " + String(repeating: "0", count: max(0, 6 - String(number).count)) + String(number)
    }

    /// The last trip number in `saved FIRST LAST` lines.
    private func lastSaved(in output: String) -> Int? {
        output.split(separator: "\n").compactMap { line -> Int? in
            let parts = line.split(separator: " ")
            guard parts.count == 3, parts[0] == "saved" else { return nil }
            return Int(parts[2])
        }.last
    }

    @Test func aFollowerSeesEveryAcknowledgedSaveOfAWriterProcessInOrder() throws {
        let directory = TemporaryDirectory()
        let store = directory.child("trips.store")
        let (process, out) = try ToolProcess.start(["_save-loop", store, "--saves", "60"])
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        var output = readOutput(of: out, until: "\n", timeout: 60)
        try #require(lastSaved(in: output) != nil, "the writer saved: \(output)")
        let context = ModelContext(try follower(store))
        var seen = 0
        var fetches = 0
        while true {
            let acknowledged = lastSaved(in: output) ?? 0
            let count = try prefix(context, "after save \(acknowledged)")
            #expect(count >= acknowledged, "saved \(acknowledged), seen \(count)")
            #expect(count >= seen, "the follower never goes back")
            seen = count
            fetches += 1
            if acknowledged == 60 { break }
            let more = readOutput(of: out, until: "\n", timeout: 60)
            if more.isEmpty { break }
            output += more
        }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(try prefix(context, "at the end") == 60)
        #expect(fetches > 1)
        let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(history.count == 60)
        #expect(history.map(\.token) == history.map(\.token).sorted())
    }

    @Test func theFeedOfAFollowerDeliversAWriterProcessesSavesInOrder() async throws {
        let directory = TemporaryDirectory()
        let store = directory.child("trips.store")
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: false)
        let following = try follower(store)
        let (process, _) = try ToolProcess.start(["_save-loop", store, "--saves", "25", "--trips-per-save", "2"])
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        var names: [String] = []
        for try await transaction in following.changes(after: nil) {
            let inserted = transaction.changes.compactMap { change -> String? in
                guard case .insert(let insert) = change else { return nil }
                return (insert as? DefaultHistoryInsert<Trip>)?.value(for: \.name)
            }
            #expect(inserted.count == 2, "one save, one transaction")
            names += inserted
            if names.count == 50 { break }
        }
        #expect(names == (1...50).map(tripName))
    }

    @Test func aWriterKilledMidSaveLeavesTheFollowerReadingAConsistentPrefix() throws {
        let directory = TemporaryDirectory()
        let store = directory.child("trips.store")
        let perSave = 400
        var generator = SystemRandomNumberGenerator()
        var context: ModelContext?
        var count = 0
        for round in 0..<6 {
            let (process, out) = try ToolProcess.start([
                "_save-loop", store, "--trips-per-save", "\(perSave)", "--first", "\(count + 1)",
            ])
            let first = readOutput(of: out, until: "\n", timeout: 60)
            try #require(lastSaved(in: first) != nil, "round \(round): the writer saved: \(first)")
            let reading = try context ?? ModelContext(try follower(store))
            context = reading
            // Reads while the writer saves, then once it is killed at a random moment.
            _ = try prefix(reading, "round \(round), while saving")
            usleep(UInt32.random(in: 5_000...80_000, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal, "round \(round)")
            let output = first + String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let acknowledged = lastSaved(in: output) ?? 0
            let seen = try prefix(reading, "round \(round), after the kill")
            #expect(seen >= acknowledged, "round \(round): saved \(acknowledged), seen \(seen)")
            #expect(seen % perSave == 0, "round \(round): \(seen) trips is not a whole number of saves")
            // A fresh follower of the killed writer's store agrees.
            #expect(try prefix(ModelContext(try follower(store)), "round \(round), fresh") == seen)
            count = seen
        }
        #expect(count > 6 * perSave, "the writer saved in most rounds")
        // Every batch is sound; the last kill may have left a torn write at the end, which no
        // writer opened the store since to move aside (`verify` then exits with 3).
        let verify = try ToolProcess.run(["verify", store])
        let tornTail = verify.stdout.contains("incomplete: every batch is sound, but a torn write ends the log")
        #expect(verify.status == 0 || (verify.status == 3 && tornTail), "\(verify.stdout)\(verify.stderr)")
    }
}
