import Foundation
import Logbook
import Testing

/// A model with unique keys of the types a lookup reads without the library's generic path
/// (`Int`, `UUID`), and an `Int` that is not unique.
@Model
final class Ticket {
    @Attribute(.unique) var serial: Int
    @Attribute(.unique) var token: UUID
    var row: Int

    init(serial: Int, token: UUID, row: Int) {
        self.serial = serial
        self.token = token
        self.row = row
    }
}

/// A model whose transient default fetches another model: its initializer runs while the
/// context is making it from stored values, and makes a second model in the middle.
@Model
final class Nested {
    @Attribute(.unique) var key: Int
    var label: String
    @Transient var neighbour: String = Nested.lookUpNeighbour()

    init(key: Int, label: String) {
        self.key = key
        self.label = label
    }

    /// The context the first initializer fetches from, once; `nil` otherwise.
    nonisolated(unsafe) static var context: ModelContext?

    private static func lookUpNeighbour() -> String {
        guard let context else { return "" }
        Self.context = nil
        let found = try? context.fetch(FetchDescriptor<Nested>(predicate: #Predicate { $0.key == 2 })).first
        return found?.label ?? "none"
    }
}

/// A second model with a unique key, for lookups of two model types in turn.
@Model
final class Pass {
    @Attribute(.unique) var code: Int
    var holder: String

    init(code: Int, holder: String) {
        self.code = code
        self.holder = holder
    }
}

/// Lookups through `#Predicate { $0.key == constant }` on `Int` and `UUID` keys, each checked
/// after reopening, and a descriptor whose predicate changes after it was made.
struct UniqueKeyLookupTests {
    private static func token(_ n: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", n)) ?? UUID()
    }

    /// A store of ten tickets, serials 100…109, rows 0…4 twice; reopened.
    private func seeded(_ kind: StoreKind) throws -> (TestStore, ModelContext) {
        let store = TestStore(kind, models: [Ticket.self])
        do {
            let context = ModelContext(try store.container())
            for n in 0..<10 { context.insert(Ticket(serial: 100 + n, token: Self.token(n), row: n % 5)) }
            try context.save()
        }
        return (store, try store.reopenedContext())
    }

    @Test(arguments: StoreKind.allCases)
    func anIntOrUUIDKeyFindsItsOneModel(kind: StoreKind) throws {
        let (_, context) = try seeded(kind)
        let serial = 104
        let bySerial = try context.fetch(FetchDescriptor<Ticket>(predicate: #Predicate { $0.serial == serial }))
        #expect(bySerial.map(\.row) == [4])
        let token = Self.token(7)
        let byToken = try context.fetch(FetchDescriptor<Ticket>(predicate: #Predicate { $0.token == token }))
        #expect(byToken.map(\.serial) == [107])
        // The same object, whichever way round or key finds it.
        let reversed = try context.fetch(FetchDescriptor<Ticket>(predicate: #Predicate { serial == $0.serial }))
        #expect(reversed.first === bySerial.first)
        let sameTicket = Self.token(4)
        #expect(
            try context.fetch(FetchDescriptor<Ticket>(predicate: #Predicate { $0.token == sameTicket })).first
                === bySerial.first
        )
        // Absent keys find nothing.
        let absent = 99
        #expect(try context.fetch(FetchDescriptor<Ticket>(predicate: #Predicate { $0.serial == absent })).isEmpty)
        let unknown = Self.token(10)
        #expect(try context.fetch(FetchDescriptor<Ticket>(predicate: #Predicate { $0.token == unknown })).isEmpty)
    }

    // Serialized: the cases share `Nested.context`.
    @Test(.serialized, arguments: StoreKind.allCases)
    func aModelWhoseInitializerFetchesKeepsItsOwnValues(kind: StoreKind) throws {
        let store = TestStore(kind)
        let container = try ModelContainer(for: Nested.self, configurations: store.configuration)
        do {
            let context = ModelContext(container)
            context.insert(Nested(key: 1, label: "one"))
            context.insert(Nested(key: 2, label: "two"))
            try context.save()
        }
        let context = ModelContext(container)
        Nested.context = context
        defer { Nested.context = nil }
        let first = try #require(
            try context.fetch(FetchDescriptor<Nested>(predicate: #Predicate { $0.key == 1 })).first
        )
        #expect(first.label == "one")
        #expect(first.neighbour == "two", "made while the first was being made")
        let second = try #require(
            try context.fetch(FetchDescriptor<Nested>(predicate: #Predicate { $0.key == 2 })).first
        )
        #expect(second.key == 2 && second.label == "two")
        #expect(second.neighbour == "")
    }

    @Test(arguments: StoreKind.allCases)
    func anIntThatIsNotUniqueFindsEveryMatch(kind: StoreKind) throws {
        let (_, context) = try seeded(kind)
        let row = 3
        let found = try context.fetch(
            FetchDescriptor<Ticket>(predicate: #Predicate { $0.row == row }, sortBy: [SortDescriptor(\.serial)])
        )
        #expect(found.map(\.serial) == [103, 108])
    }

    @Test(arguments: StoreKind.allCases)
    func aKeyLookupHonoursUnsavedChangesAndTheWindow(kind: StoreKind) throws {
        let (_, context) = try seeded(kind)
        context.insert(Ticket(serial: 200, token: Self.token(200), row: 0))
        let serial = 200
        var descriptor = FetchDescriptor<Ticket>(predicate: #Predicate { $0.serial == serial })
        #expect(try context.fetch(descriptor).map(\.serial) == [200])
        descriptor.includePendingChanges = false
        #expect(try context.fetch(descriptor).isEmpty)
        try context.save()
        #expect(try context.fetch(descriptor).map(\.serial) == [200])
        descriptor.fetchOffset = 1
        #expect(try context.fetch(descriptor).isEmpty)
        descriptor.fetchOffset = nil
        descriptor.fetchLimit = 0
        #expect(try context.fetch(descriptor).isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func aDescriptorFetchesWithThePredicateItHoldsNow(kind: StoreKind) throws {
        let (_, context) = try seeded(kind)
        var descriptor = FetchDescriptor<Ticket>(predicate: #Predicate { $0.serial == 101 })
        #expect(try context.fetch(descriptor).map(\.serial) == [101])
        descriptor.predicate = #Predicate { $0.serial == 102 }
        #expect(try context.fetch(descriptor).map(\.serial) == [102])
        #expect(try context.fetchCount(descriptor) == 1)
        descriptor.predicate = #Predicate { $0.row == 1 }
        descriptor.sortBy = [SortDescriptor(\.serial)]
        #expect(try context.fetch(descriptor).map(\.serial) == [101, 106])
        descriptor.predicate = nil
        #expect(try context.fetch(descriptor).count == 10)
        #expect(try context.fetchCount(descriptor) == 10)
    }

    /// A lookup returns a one-element array that the context reuses once its caller lets go of
    /// it: an array the caller still holds, or changed, stays as it was.
    @Test(arguments: StoreKind.allCases)
    func eachLookupsArrayStaysTheCallersOwn(kind: StoreKind) throws {
        let (_, context) = try seeded(kind)
        let first = 100
        let second = 101
        var kept = try context.fetch(FetchDescriptor<Ticket>(predicate: #Predicate { $0.serial == first }))
        let next = try context.fetch(FetchDescriptor<Ticket>(predicate: #Predicate { $0.serial == second }))
        #expect(kept.map(\.serial) == [100])
        #expect(next.map(\.serial) == [101])
        for serial in 102...106 {
            #expect(
                try context.fetch(FetchDescriptor<Ticket>(predicate: #Predicate { $0.serial == serial })).map(\.serial)
                    == [serial]
            )
        }
        #expect(kept.map(\.serial) == [100])
        #expect(next.map(\.serial) == [101])

        let third = 107
        var changed = try context.fetch(FetchDescriptor<Ticket>(predicate: #Predicate { $0.serial == third }))
        changed.append(contentsOf: kept)
        let fourth = 108
        let after = try context.fetch(FetchDescriptor<Ticket>(predicate: #Predicate { $0.serial == fourth }))
        #expect(changed.map(\.serial) == [107, 100])
        #expect(after.map(\.serial) == [108])
        kept.removeAll()
        #expect(after.map(\.serial) == [108])
        #expect(next.map(\.serial) == [101])
    }

    /// Lookups of two model types in turn each get an array of their own type.
    @Test(arguments: StoreKind.allCases)
    func lookupsOfTwoModelTypesInTurnGetTheirOwnModels(kind: StoreKind) throws {
        let store = TestStore(kind, models: [Ticket.self, Pass.self])
        do {
            let context = ModelContext(try store.container())
            for n in 1...3 {
                context.insert(Ticket(serial: n, token: Self.token(n), row: 0))
                context.insert(Pass(code: n, holder: "holder \(n)"))
            }
            try context.save()
        }
        let context = try store.reopenedContext()
        var passes: [[Pass]] = []
        for n in 1...3 {
            let tickets = try context.fetch(FetchDescriptor<Ticket>(predicate: #Predicate { $0.serial == n }))
            let found = try context.fetch(FetchDescriptor<Pass>(predicate: #Predicate { $0.code == n }))
            #expect(tickets.map(\.serial) == [n])
            #expect(found.map(\.holder) == ["holder \(n)"])
            passes.append(found)
        }
        #expect(passes.map { $0.map(\.code) } == [[1], [2], [3]])
    }
}
