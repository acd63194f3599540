import Foundation
import Logbook
import Testing

/// A model hierarchy with a relationship inherited from its base class, and one to the base
/// class that holds an object of the subclass.
@Model
class Ledger {
    var title: String
    @Relationship(deleteRule: .cascade) var entries: [Entry] = []

    init(title: String) {
        self.title = title
    }
}

@Model
final class TravelLedger: Ledger {
    var city: String

    init(title: String, city: String) {
        self.city = city
        super.init(title: title)
    }
}

@Model
final class Entry {
    var amount: Double
    var ledger: Ledger?

    init(amount: Double) {
        self.amount = amount
    }
}

/// The tool replays and dumps the relationships of a model hierarchy from the log alone.
struct HierarchyRelationshipToolTests {
    /// A travel ledger with two entries, one of which is deleted by a later save.
    private func store(_ directory: TemporaryDirectory) throws -> (path: String, ledger: UInt64, entries: [UInt64]) {
        let path = directory.child("ledgers.store")
        let context = ModelContext(
            try ModelContainer(
                for: Schema([Ledger.self, TravelLedger.self, Entry.self]),
                configurations: [.init(url: URL(fileURLWithPath: path))]
            )
        )
        let ledger = TravelLedger(title: "Spring", city: "Porto")
        context.insert(ledger)
        ledger.entries = [Entry(amount: 12), Entry(amount: 30), Entry(amount: 7)]
        try context.save()
        let dropped = try #require(ledger.entries.first { $0.amount == 7 })
        context.delete(dropped)
        try context.save()
        let entries = ledger.entries.sorted { $0.amount < $1.amount }.map(\.persistentModelID.number)
        return (path, ledger.persistentModelID.number, entries)
    }

    @Test func replayShowsTheRelationshipsOfASubentityAndItsTargets() throws {
        let directory = TemporaryDirectory()
        let (path, ledger, entries) = try store(directory)
        let replay = try ToolProcess.run(["replay", path])
        #expect(replay.status == 0)
        let lines = replay.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.contains(
                "TravelLedger#\(ledger)\tcity=\"Porto\" title=\"Spring\" entries → [#\(entries[0]), #\(entries[1])]"
            )
        )
        #expect(lines.contains("Entry#\(entries[0])\tamount=12.0 ledger → #\(ledger)"))
        #expect(lines.contains("Entry#\(entries[1])\tamount=30.0 ledger → #\(ledger)"))
        #expect(lines.filter { $0.hasPrefix("Entry#") }.count == 2)

        let json = try ToolProcess.run(["replay", path, "--entity", "Ledger", "--format", "json"])
        #expect(json.stdout.contains(#""relationships":{"entries":[\#(entries[0]),\#(entries[1])]}"#))
    }

    @Test func dumpShowsTheEventsThatSetTheRelationship() throws {
        let directory = TemporaryDirectory()
        let (path, ledger, _) = try store(directory)
        let dump = try ToolProcess.run(["dump", path, "--entity", "Entry"])
        #expect(dump.status == 0)
        let lines = dump.stdout.split(separator: "\n").filter { $0.contains("ledger → #\(ledger)") }
        #expect(lines.count == 3)
    }
}
