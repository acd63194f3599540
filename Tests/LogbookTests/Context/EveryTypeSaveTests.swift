import Foundation
import Logbook
import Testing

/// A unique model with values that the replay's shortcut does not take (a UUID, an array), so
/// that its inserts are applied by a full decode.
@Model
final class Badge {
    @Attribute(.unique) var code: String
    var token: UUID
    var tags: [String]

    init(code: String, token: UUID, tags: [String]) {
        self.code = code
        self.token = token
        self.tags = tags
    }
}

/// Saving models of every attribute type through a context, and reading them back after
/// reopening: inserts whose values a save encodes and applies by every path.
struct EveryTypeSaveTests {
    private static let token = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF") ?? UUID()

    private func container(_ store: TestStore, _ types: [any PersistentModel.Type]) throws -> ModelContainer {
        try ModelContainer(for: Schema(types), configurations: [store.configuration])
    }

    private func filled() -> EveryType {
        let model = EveryType()
        model.flag = true
        model.int = -42
        model.int8 = -8
        model.uint64 = .max
        model.double = 2.5
        model.float = -0.25
        model.decimal = Decimal(string: "12.345") ?? 0
        model.string = String(repeating: "long text ", count: 20)
        model.date = baseDate
        model.uuid = Self.token
        model.url = URL(string: "https://example.com/trips?id=1") ?? model.url
        model.data = Data([0, 1, 2, 255])
        model.optionalString = "here"
        model.strings = ["a", "b"]
        model.optionalInts = [1, 2, 3]
        model.palette = .blue
        model.priority = .high
        model.priorities = [.high, .low]
        model.address = Address(street: "1 Main St", city: "Lisbon")
        model.scores = ["x": 1]
        model.color = Color(red: 1, green: 2, blue: 3)
        return model
    }

    @Test(arguments: StoreKind.allCases)
    func everyAttributeTypeIsSavedAndReadBack(kind: StoreKind) throws {
        let store = TestStore(kind)
        var reopened: ModelContainer?
        do {
            let container = try container(store, [EveryType.self])
            let context = ModelContext(container)
            context.insert(filled())
            context.insert(EveryType())
            try context.save()
            if kind == .memory { reopened = container }
        }
        let context = ModelContext(try reopened ?? container(store, [EveryType.self]))
        let models = try context.fetch(FetchDescriptor<EveryType>(sortBy: [SortDescriptor(\.int)]))
        #expect(models.count == 2)
        let model = try #require(models.first)
        let expected = filled()
        #expect(model.flag && model.int == -42 && model.int8 == -8 && model.uint64 == .max)
        #expect(model.double == 2.5 && model.float == -0.25 && model.decimal == expected.decimal)
        #expect(model.string == expected.string && model.date == baseDate)
        #expect(model.uuid == Self.token && model.url == expected.url && model.data == Data([0, 1, 2, 255]))
        #expect(model.optionalString == "here" && model.optionalDate == nil)
        #expect(model.strings == ["a", "b"] && model.optionalInts == [1, 2, 3])
        #expect(model.palette == .blue && model.priority == .high && model.priorities == [.high, .low])
        #expect(model.address == expected.address && model.scores == ["x": 1])
        #expect(model.color == Color(red: 1, green: 2, blue: 3) && model.optionalColor == nil)
        #expect(models.last?.string == "" && models.last?.uuid != Self.token)
    }

    @Test(arguments: StoreKind.allCases)
    func anUpsertOfAModelWithAUUIDAndAnArrayTakesTheStoredIdentifier(kind: StoreKind) throws {
        let store = TestStore(kind)
        let other = UUID()
        var reopened: ModelContainer?
        do {
            let container = try container(store, [Badge.self])
            let context = ModelContext(container)
            let first = Badge(code: "A", token: Self.token, tags: ["x"])
            context.insert(first)
            context.insert(Badge(code: "B", token: Self.token, tags: []))
            try context.save()
            let second = Badge(code: "A", token: other, tags: ["y", "z"])
            context.insert(second)
            try context.save()
            #expect(second.persistentModelID == first.persistentModelID)
            #expect(first.token == other, "the registered object is brought up to date")
            if kind == .memory { reopened = container }
        }
        let context = ModelContext(try reopened ?? container(store, [Badge.self]))
        let badges = try context.fetch(FetchDescriptor<Badge>(sortBy: [SortDescriptor(\.code)]))
        #expect(badges.map(\.code) == ["A", "B"])
        #expect(badges.first?.token == other)
        #expect(badges.first?.tags == ["y", "z"])
        let found = try context.fetch(FetchDescriptor<Badge>(predicate: #Predicate { $0.code == "A" }))
        #expect(found.first === badges.first, "the unique index points at the survivor")
    }
}
