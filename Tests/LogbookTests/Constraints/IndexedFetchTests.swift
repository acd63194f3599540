import Foundation
import Testing

@testable import Logbook

/// A model with `#Index` on a property of each kind a sorted index orders, over small domains
/// so that random objects tie often.
@Model
final class Gauge {
    #Index<Gauge>([\.level], [\.takenAt], [\.label], [\.score], [\.count, \.level])

    var serial: Int
    var level: Int
    var count: UInt32
    var score: Double
    var label: String
    var takenAt: Date
    var note: String?

    init(serial: Int) {
        self.serial = serial
        self.level = 0
        self.count = 0
        self.score = 0
        self.label = ""
        self.takenAt = baseDate
        self.note = nil
    }
}

/// Fetches answered from `#Index` return exactly what filtering and sorting every object
/// returns: ranges, equalities, conjunctions, sorts with limits and offsets, after inserts,
/// updates and deletes, on disk and in memory.
struct IndexedFetchTests {
    private static let labels = ["", "a", "A", "b", "a9", "a10", "\u{E9}", "e\u{301}", "Z", "zz"]
    private static let dates = (0..<6).map { baseDate + Double($0) * day }
    private static let scores = [-1.5, 0, -0.0, 2.25, 1e9]

    private static func randomize(_ gauge: Gauge, _ random: inout SeededGenerator) {
        gauge.level = Int.random(in: -3...3, using: &random)
        gauge.count = UInt32.random(in: 0...3, using: &random)
        gauge.score = scores[Int.random(in: 0..<scores.count, using: &random)]
        gauge.label = labels[Int.random(in: 0..<labels.count, using: &random)]
        gauge.takenAt = dates[Int.random(in: 0..<dates.count, using: &random)]
        gauge.note = Bool.random(using: &random) ? nil : labels[Int.random(in: 0..<labels.count, using: &random)]
    }

    /// Inserts some gauges, then deletes and changes some of those stored, in two saves.
    private static func change(_ context: ModelContext, _ random: inout SeededGenerator, serial: inout Int) throws {
        for _ in 0..<Int.random(in: 10...40, using: &random) {
            let gauge = Gauge(serial: serial)
            serial += 1
            randomize(gauge, &random)
            context.insert(gauge)
        }
        try context.save()
        let saved = try context.fetch(FetchDescriptor<Gauge>())
        for gauge in saved where Int.random(in: 0..<8, using: &random) == 0 { context.delete(gauge) }
        for gauge in saved where Int.random(in: 0..<6, using: &random) == 0 { randomize(gauge, &random) }
        try context.save()
    }

    /// A predicate of each shape, with random constants, and whether an index answers it.
    private static func predicate(_ shape: Int, _ random: inout SeededGenerator) -> (Predicate<Gauge>, Bool) {
        let a = Int.random(in: -4...4, using: &random)
        let b = Int.random(in: -4...4, using: &random)
        let start = dates[Int.random(in: 0..<dates.count, using: &random)] - day / 2
        let end = dates[Int.random(in: 0..<dates.count, using: &random)]
        let low = labels[Int.random(in: 0..<labels.count, using: &random)]
        let high = labels[Int.random(in: 0..<labels.count, using: &random)]
        let x = scores[Int.random(in: 0..<scores.count, using: &random)]
        let y = scores[Int.random(in: 0..<scores.count, using: &random)]
        let c = UInt32.random(in: 0...4, using: &random)
        // Ranges whose bounds are in order: `low...high` traps otherwise.
        let (least, most) = (min(a, b), max(a, b))
        let (earliest, latest) = (min(start, end), max(start, end))
        switch shape {
        case 0: return (#Predicate<Gauge> { $0.level >= a }, true)
        case 1: return (#Predicate<Gauge> { $0.level < a }, true)
        case 2: return (#Predicate<Gauge> { a <= $0.level }, true)
        case 3: return (#Predicate<Gauge> { a > $0.level }, true)
        case 4: return (#Predicate<Gauge> { $0.level > a && $0.level <= b }, true)
        case 5: return (#Predicate<Gauge> { $0.takenAt >= start && $0.takenAt < end }, true)
        case 6: return (#Predicate<Gauge> { $0.label > low }, true)
        case 7: return (#Predicate<Gauge> { $0.label >= low && $0.label <= high }, true)
        case 8: return (#Predicate<Gauge> { $0.score >= x && $0.score < y }, true)
        case 9: return (#Predicate<Gauge> { $0.count <= c }, true)
        case 10: return (#Predicate<Gauge> { $0.level == a && $0.level < b }, true)
        case 11: return (#Predicate<Gauge> { $0.level >= a && $0.takenAt < end }, false)
        case 12: return (#Predicate<Gauge> { (least...most).contains($0.level) }, true)
        case 13: return (#Predicate<Gauge> { (earliest..<latest).contains($0.takenAt) }, true)
        default: return (#Predicate<Gauge> { $0.serial < a * 10 }, false)
        }
    }

    private static let shapes = 15

    private static let orders: [[SortDescriptor<Gauge>]] = [
        [],
        [SortDescriptor(\.level)],
        [SortDescriptor(\.level, order: .reverse)],
        [SortDescriptor(\.level), SortDescriptor(\.takenAt, order: .reverse)],
        [SortDescriptor(\.takenAt)],
        [SortDescriptor(\.takenAt, order: .reverse), SortDescriptor(\.serial)],
        [SortDescriptor(\.score, order: .reverse)],
        [SortDescriptor(\.count), SortDescriptor(\.label, comparator: .lexical)],
        [SortDescriptor(\.label)],
        [SortDescriptor(\.label, comparator: .lexical, order: .reverse)],
        [SortDescriptor(\.serial)],
    ]

    // MARK: - Tests

    @Test(arguments: StoreKind.allCases, [1, 2, 3] as [UInt64])
    func indexedFetchesReturnWhatFilteringAndSortingEveryObjectReturns(kind: StoreKind, seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let store = TestStore(kind, models: [Gauge.self])
        var serial = 0
        for round in 0..<3 {
            let context = round == 0 ? ModelContext(try store.container()) : try store.reopenedContext()
            try Self.change(context, &random, serial: &serial)
            // Fetches first, then more changes on the same container, then fetches again: the
            // indexes built by the first fetches follow the changes.
            try check(try store.container(), seed: seed, round: round, &random)
            try Self.change(ModelContext(try store.container()), &random, serial: &serial)
            try check(try store.container(), seed: seed, round: round, &random)
        }
    }

    /// Each shape of predicate with each order, with and without a limit and offset, against
    /// the full fetch filtered and sorted in memory.
    private func check(
        _ container: ModelContainer,
        seed: UInt64,
        round: Int,
        _ random: inout SeededGenerator
    ) throws {
        let everything = try ModelContext(container).fetch(FetchDescriptor<Gauge>())
        for shape in 0..<Self.shapes {
            let (predicate, indexed) = Self.predicate(shape, &random)
            let matching = try everything.filter { try predicate.evaluate($0) }
            for sortBy in Self.orders {
                let expected = (sortBy.isEmpty ? matching : matching.sorted(using: sortBy)).map(\.serial)
                let scenario = "seed \(seed), round \(round), shape \(shape), \(sortBy)"
                let all = try ModelContext(container).fetch(FetchDescriptor(predicate: predicate, sortBy: sortBy))
                #expect(all.map(\.serial) == expected, "\(scenario)")
                #expect(
                    try ModelContext(container).fetchCount(FetchDescriptor(predicate: predicate)) == expected.count,
                    "\(scenario)"
                )
                for _ in 0..<3 {
                    var descriptor = FetchDescriptor(predicate: predicate, sortBy: sortBy)
                    let limit = Int.random(in: 0...12, using: &random)
                    let offset = Bool.random(using: &random) ? nil : Int.random(in: 0...15, using: &random)
                    descriptor.fetchLimit = limit
                    descriptor.fetchOffset = offset
                    let context = ModelContext(container)
                    let found = try context.fetch(descriptor).map(\.serial)
                    let start = min(offset ?? 0, expected.count)
                    let window = Array(expected[start..<min(expected.count, start + limit)])
                    #expect(found == window, "\(scenario), limit \(limit), offset \(offset ?? 0)")
                    if indexed && sortBy.allSatisfy({ $0.stringComparator == nil }) {
                        #expect(context.registry.count == found.count, "only the models returned are made")
                    }
                }
            }
        }
        // Without a predicate, a limited fetch sorted by an indexed attribute.
        for sortBy in Self.orders {
            let expected = (sortBy.isEmpty ? everything : everything.sorted(using: sortBy)).map(\.serial)
            var descriptor = FetchDescriptor<Gauge>(sortBy: sortBy)
            descriptor.fetchLimit = Int.random(in: 0...12, using: &random)
            #expect(
                try ModelContext(container).fetch(descriptor).map(\.serial)
                    == Array(expected.prefix(descriptor.fetchLimit ?? 0)),
                "seed \(seed), round \(round), \(sortBy), no predicate"
            )
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aRangeFetchBuildsTheIndexAndALimitedSortReadsOnlyItsLeadingObjects(kind: StoreKind) throws {
        let store = TestStore(kind, models: [Gauge.self])
        do {
            let context = ModelContext(try store.container())
            for serial in 0..<500 {
                let gauge = Gauge(serial: serial)
                gauge.level = serial % 50
                gauge.takenAt = baseDate + Double(serial) * day
                context.insert(gauge)
            }
            try context.save()
        }
        let context = try store.reopenedContext()
        let table = try #require(context.container.store.read { $0.projection.table(named: "Gauge") })
        let levelAttribute = try #require(
            context.container.store.read { $0.projection.tables[table].attributeIndex["level"] }
        )
        func built() -> Bool {
            context.container.store.read { state in
                state.projection.tables[table].sortedIndexes.first { $0.attribute == levelAttribute }?.isBuilt ?? false
            }
        }
        #expect(!built(), "built by the first fetch that needs it")
        let between = try context.fetch(
            FetchDescriptor<Gauge>(
                predicate: #Predicate { $0.level >= 10 && $0.level < 12 },
                sortBy: [SortDescriptor(\.serial)]
            )
        )
        #expect(between.map(\.serial) == (0..<500).filter { (10..<12).contains($0 % 50) })
        #expect(built())

        let leading = try #require(
            context.container.store.read { state -> [UInt64]? in
                var projection = state.projection
                return projection.indexedLeading(table, attribute: levelAttribute, count: 3, ascending: false, in: nil)
            }
        )
        #expect(leading.count == 10, "the three highest levels tie with seven more at level 49")

        var latest = FetchDescriptor<Gauge>(sortBy: [
            SortDescriptor(\.level, order: .reverse), SortDescriptor(\.serial),
        ])
        latest.fetchLimit = 3
        let limited = ModelContext(context.container)
        #expect(try limited.fetch(latest).map(\.serial) == [49, 99, 149])
        #expect(limited.registry.count == 3)
    }

    @Test func anIndexOverValuesItCannotOrderLeavesTheFetchToEveryObject() throws {
        let store = TestStore(.memory, models: [Gauge.self])
        let context = ModelContext(try store.container())
        for (serial, score) in [1.0, .nan, -2.0, 3.0].enumerated() {
            let gauge = Gauge(serial: serial)
            gauge.score = score
            context.insert(gauge)
        }
        try context.save()
        let fetched = try ModelContext(try store.container()).fetch(
            FetchDescriptor<Gauge>(predicate: #Predicate { $0.score >= 0 }, sortBy: [SortDescriptor(\.serial)])
        )
        #expect(fetched.map(\.serial) == [0, 3])
        let table = try #require(context.container.store.read { $0.projection.table(named: "Gauge") })
        let orderable = context.container.store.read { state in
            state.projection.tables[table].sortedIndexes.filter(\.isBuilt).map(\.isOrderable)
        }
        #expect(orderable == [false], "the NaN makes the score index unusable, and the fetch reads every object")
    }
}
