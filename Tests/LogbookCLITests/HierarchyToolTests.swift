import Foundation
import Logbook
import Testing

/// A model hierarchy for the tool's output.
@Model
class Expense {
    var amount: Double

    init(amount: Double) {
        self.amount = amount
    }
}

@Model
final class TravelExpense: Expense {
    var city: String

    init(amount: Double, city: String) {
        self.city = city
        super.init(amount: amount)
    }
}

/// The tool shows a store's model hierarchy from the schema record alone.
struct HierarchyToolTests {
    private func store(_ directory: TemporaryDirectory) throws -> String {
        let path = directory.child("expenses.store")
        let context = ModelContext(
            try ModelContainer(
                for: Schema([Expense.self, TravelExpense.self]),
                configurations: [.init(url: URL(fileURLWithPath: path))]
            )
        )
        context.insert(Expense(amount: 12))
        context.insert(TravelExpense(amount: 80, city: "Lisbon"))
        try context.save()
        return path
    }

    @Test func infoAndDumpNameEachSuperentity() throws {
        let directory = TemporaryDirectory()
        let path = try store(directory)
        let info = try ToolProcess.run(["info", path])
        #expect(info.status == 0)
        #expect(info.stdout.contains("      TravelExpense: Expense\n"))
        let json = try ToolProcess.run(["dump", path, "--format", "json", "--from", "1", "--to", "1"])
        #expect(json.stdout.contains(#""entities":["Expense","TravelExpense"],"hierarchy":["TravelExpense: Expense"]"#))
        let text = try ToolProcess.run(["dump", path, "--from", "1", "--to", "1"])
        #expect(text.stdout.contains("entities Expense, TravelExpense, TravelExpense: Expense"))
    }

    @Test func replayOfAnEntityShowsTheEntitiesThatInheritFromIt() throws {
        let directory = TemporaryDirectory()
        let path = try store(directory)
        let all = try ToolProcess.run(["replay", path, "--entity", "Expense"])
        #expect(all.status == 0)
        let lines = all.stdout.split(separator: "\n").dropFirst()
        #expect(lines.count == 2)
        #expect(lines.contains { $0.hasPrefix("Expense#") && $0.contains("amount=12") })
        #expect(lines.contains { $0.hasPrefix("TravelExpense#") && $0.contains("city=\"Lisbon\"") })
        let sub = try ToolProcess.run(["replay", path, "--entity", "TravelExpense"])
        #expect(sub.stdout.split(separator: "\n").dropFirst().count == 1)
    }
}
