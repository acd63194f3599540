import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// A model with a property of each sortable kind, optional and not, over small domains so that
/// random objects tie often.
@Model
final class Reading {
    var serial: Int
    var level: Int?
    var count: UInt32
    var score: Double
    var weight: Double?
    var label: String
    var note: String?
    var takenAt: Date
    var checkedAt: Date?
    var token: UUID?

    init(serial: Int, label: String, takenAt: Date) {
        self.serial = serial
        self.level = nil
        self.count = 0
        self.score = 0
        self.weight = nil
        self.label = label
        self.note = nil
        self.takenAt = takenAt
        self.checkedAt = nil
        self.token = nil
    }
}

/// A sorted fetch with a limit chooses on stored values and makes only what it returns; its
/// results are those of the full fetch, cut to the window.
struct TopKFetchTests {
    // MARK: - Random data

    private static let labels = ["", "a", "A", "b", "a9", "a10", "\u{E9}", "e\u{301}", "Z", "zz"]
    private static let dates = (0..<6).map { baseDate + Double($0) * day }
    private static let tokens = (0..<4).map { _ in UUID() }

    private static func randomize(_ reading: Reading, _ random: inout SeededGenerator) {
        reading.serial = Int.random(in: -3...3, using: &random)
        reading.level = Bool.random(using: &random) ? nil : Int.random(in: 0...3, using: &random)
        reading.count = UInt32.random(in: 0...3, using: &random)
        reading.score = [-1.5, 0, -0.0, 2.25, 1e9][Int.random(in: 0..<5, using: &random)]
        reading.weight =
            Int.random(in: 0..<3, using: &random) == 0 ? nil : Double(Int.random(in: 0...4, using: &random))
        reading.label = labels[Int.random(in: 0..<labels.count, using: &random)]
        reading.note = Bool.random(using: &random) ? nil : labels[Int.random(in: 0..<labels.count, using: &random)]
        reading.takenAt = dates[Int.random(in: 0..<dates.count, using: &random)]
        reading.checkedAt = Bool.random(using: &random) ? nil : dates[Int.random(in: 0..<dates.count, using: &random)]
        reading.token = Bool.random(using: &random) ? nil : tokens[Int.random(in: 0..<tokens.count, using: &random)]
    }

    /// A store of random readings, saved over several saves that also change and delete some,
    /// so that freed slots are reused and slots are out of identifier order.
    private func randomStore(_ kind: StoreKind, seed: UInt64) throws -> TestStore {
        var random = SeededGenerator(seed: seed)
        let store = TestStore(kind, models: [Reading.self])
        let context = ModelContext(try store.container())
        for _ in 0..<4 {
            for _ in 0..<Int.random(in: 10...40, using: &random) {
                let reading = Reading(serial: 0, label: "", takenAt: baseDate)
                Self.randomize(reading, &random)
                context.insert(reading)
            }
            try context.save()
            let saved = try context.fetch(FetchDescriptor<Reading>())
            for reading in saved where Int.random(in: 0..<8, using: &random) == 0 {
                context.delete(reading)
            }
            for reading in saved where Int.random(in: 0..<8, using: &random) == 0 {
                Self.randomize(reading, &random)
            }
            try context.save()
        }
        return store
    }

    private static let orders: [[SortDescriptor<Reading>]] = [
        [SortDescriptor(\.takenAt)],
        [SortDescriptor(\.takenAt, order: .reverse)],
        [SortDescriptor(\.level)],
        [SortDescriptor(\.level, order: .reverse), SortDescriptor(\.serial)],
        [SortDescriptor(\.label)],
        [SortDescriptor(\.label, order: .reverse), SortDescriptor(\.count, order: .reverse)],
        [SortDescriptor(\.note, order: .reverse), SortDescriptor(\.takenAt)],
        [SortDescriptor(\.note), SortDescriptor(\.checkedAt, order: .reverse)],
        [SortDescriptor(\.weight), SortDescriptor(\.label, order: .reverse)],
        [SortDescriptor(\.checkedAt), SortDescriptor(\.count, order: .reverse), SortDescriptor(\.score)],
        [SortDescriptor(\.token)],
        [SortDescriptor(\.score, order: .reverse)],
        [SortDescriptor(\.label, comparator: .lexical, order: .reverse)],
        [SortDescriptor(\.note, comparator: .lexical)],
        [],
    ]

    private static func predicates() -> [Predicate<Reading>?] {
        let label = "a"
        let level: Int? = 2
        let noLevel: Int? = nil
        return [
            nil,
            #Predicate<Reading> { $0.label == label },
            #Predicate<Reading> { $0.level == level },
            #Predicate<Reading> { $0.level == noLevel },
            #Predicate<Reading> { $0.serial > 0 },
        ]
    }

    /// The position in ``predicates()`` of the one evaluated on models.
    private static let comparisonPredicate = 4

    // MARK: - Tests

    @Test(arguments: StoreKind.allCases, [1, 2, 3, 4] as [UInt64])
    func aLimitedFetchReturnsTheFullFetchsWindow(kind: StoreKind, seed: UInt64) throws {
        let store = try randomStore(kind, seed: seed)
        var random = SeededGenerator(seed: seed &* 31)
        try checkWindows(try store.container(), seed: seed, &random)
        try checkWindows(try store.reopenedContext().container, seed: seed, &random)
    }

    /// Compares each limited fetch, in a fresh context, with the window of a full fetch; where
    /// the predicate is none or an equality, the fresh context made only the models returned.
    private func checkWindows(_ target: ModelContainer, seed: UInt64, _ random: inout SeededGenerator) throws {
        for (number, predicate) in Self.predicates().enumerated() {
            let judgedOnStoredValues = number != Self.comparisonPredicate
            for sortBy in Self.orders {
                let full = try ModelContext(target).fetch(FetchDescriptor(predicate: predicate, sortBy: sortBy))
                let expected = full.map(\.persistentModelID)
                for _ in 0..<4 {
                    var descriptor = FetchDescriptor(predicate: predicate, sortBy: sortBy)
                    let limit = Int.random(in: 0...12, using: &random)
                    let offset = Bool.random(using: &random) ? nil : Int.random(in: 0...15, using: &random)
                    descriptor.fetchLimit = limit
                    descriptor.fetchOffset = offset
                    let context = ModelContext(target)
                    let found = try context.fetch(descriptor).map(\.persistentModelID)
                    let start = min(offset ?? 0, expected.count)
                    let window = Array(expected[start..<min(expected.count, start + limit)])
                    let scenario = "seed \(seed), predicate \(number), \(sortBy), limit \(limit), offset \(offset ?? 0)"
                    #expect(found == window, "\(scenario)")
                    if judgedOnStoredValues {
                        #expect(context.registry.count == found.count, "\(scenario)")
                    }
                }
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aLimitedFetchMakesOnlyTheModelsItReturns(kind: StoreKind) throws {
        let store = TestStore(kind, models: [Reading.self])
        do {
            let writer = ModelContext(try store.container())
            for serial in 0..<200 {
                let label = serial % 2 == 0 ? "even" : "odd"
                let reading = Reading(serial: serial, label: label, takenAt: baseDate - Double(serial) * day)
                reading.note = serial % 3 == 0 ? nil : "note \(serial % 7)"
                writer.insert(reading)
            }
            try writer.save()
        }
        let reopened = try store.reopenedContext().container

        var earliest = FetchDescriptor<Reading>(sortBy: [SortDescriptor(\.takenAt)])
        earliest.fetchLimit = 20
        let context = ModelContext(reopened)
        let first = try context.fetch(earliest)
        #expect(first.map(\.serial) == Array((180..<200).reversed()))
        #expect(context.registry.count == 20)

        var window = FetchDescriptor<Reading>(sortBy: [
            SortDescriptor(\.note), SortDescriptor(\.serial, order: .reverse),
        ])
        window.fetchOffset = 30
        window.fetchLimit = 5
        let paged = ModelContext(reopened)
        #expect(try paged.fetch(window).count == 5)
        #expect(paged.registry.count == 5)

        var matching = FetchDescriptor<Reading>(
            predicate: #Predicate { $0.label == "odd" },
            sortBy: [SortDescriptor(\.serial, order: .reverse)]
        )
        matching.fetchLimit = 3
        let equal = ModelContext(reopened)
        #expect(try equal.fetch(matching).map(\.serial) == [199, 197, 195])
        #expect(equal.registry.count == 3)

        // Without a sort, the first by identifier.
        var unsorted = FetchDescriptor<Reading>()
        unsorted.fetchLimit = 4
        let plain = ModelContext(reopened)
        #expect(try plain.fetch(unsorted).map(\.serial) == [0, 1, 2, 3])
        #expect(plain.registry.count == 4)
    }

    @Test(arguments: StoreKind.allCases)
    func unsavedChangesCountInALimitedFetch(kind: StoreKind) throws {
        let store = TestStore(kind, models: [Reading.self])
        let context = ModelContext(try store.container())
        for serial in 0..<10 {
            context.insert(Reading(serial: serial, label: "r", takenAt: baseDate + Double(serial) * day))
        }
        try context.save()
        var descriptor = FetchDescriptor<Reading>(sortBy: [SortDescriptor(\.takenAt)])
        descriptor.fetchLimit = 3

        context.insert(Reading(serial: 100, label: "r", takenAt: baseDate - day))
        #expect(try context.fetch(descriptor).map(\.serial) == [100, 0, 1])

        try context.save()
        let first = try #require(try context.fetch(descriptor).first)
        context.delete(first)
        #expect(try context.fetch(descriptor).map(\.serial) == [0, 1, 2])

        try context.save()
        let changed = try #require(try context.fetch(descriptor).last)
        changed.takenAt = baseDate + 100 * day
        #expect(try context.fetch(descriptor).map(\.serial) == [0, 1, 3])
        try context.save()

        // Another context's save is seen.
        let other = ModelContext(try store.container())
        let moved = try #require(
            try other.fetch(FetchDescriptor<Reading>(predicate: #Predicate { $0.serial == 9 })).first
        )
        moved.takenAt = baseDate - 10 * day
        try other.save()
        #expect(try context.fetch(descriptor).map(\.serial) == [9, 0, 1])
    }

    @Test func aNaNOrdersAsTheFullFetchOrdersIt() throws {
        let store = TestStore(.memory, models: [Reading.self])
        let context = ModelContext(try store.container())
        for serial in 0..<12 {
            let reading = Reading(serial: serial, label: "r", takenAt: baseDate)
            reading.weight = serial == 5 ? .nan : Double(12 - serial)
            context.insert(reading)
        }
        try context.save()
        let sortBy = [SortDescriptor(\Reading.weight)]
        let full = try ModelContext(try store.container()).fetch(FetchDescriptor(sortBy: sortBy)).map(\.serial)
        var descriptor = FetchDescriptor(sortBy: sortBy)
        descriptor.fetchLimit = 4
        #expect(try ModelContext(try store.container()).fetch(descriptor).map(\.serial) == Array(full.prefix(4)))
    }
}
