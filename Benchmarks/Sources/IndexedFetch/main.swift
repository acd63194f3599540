// `swift run -c release indexed-fetch [N]`: a range fetch sorted with a limit, and the same
// range fetched whole, on N trips (100,000 by default) with and without `#Index` on the
// start date. Each figure is the median of 21 fetches, each in a fresh context; the first
// indexed fetch, which builds the index, is shown apart.
import Foundation
import Logbook

@Model
final class IndexedTrip {
    #Index<IndexedTrip>([\.startDate])

    var name: String
    var destination: String
    var startDate: Date

    init(name: String, destination: String, startDate: Date) {
        self.name = name
        self.destination = destination
        self.startDate = startDate
    }
}

@Model
final class PlainTrip {
    var name: String
    var destination: String
    var startDate: Date

    init(name: String, destination: String, startDate: Date) {
        self.name = name
        self.destination = destination
        self.startDate = startDate
    }
}

let count = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 100_000
let origin = Date(timeIntervalSince1970: 1_780_000_000)
let destinations = ["Lisbon", "Kyoto", "Oslo", "Lima", "Hanoi", "Cairo", "Quito"]

/// A deterministic start date for trip `n`: spread over about ten years, out of insertion order.
func startDate(_ n: Int) -> Date {
    origin + Double((n &* 7_919) % 3_650) * 86_400 + Double(n % 86_400)
}

func fill<T: PersistentModel>(_ container: ModelContainer, _ make: (Int) -> T) throws {
    let context = ModelContext(container)
    for n in 0..<count {
        context.insert(make(n))
        if n % 1_000 == 999 { try context.save() }
    }
    try context.save()
}

func median(_ body: () throws -> Void) rethrows -> Double {
    var times: [Double] = []
    for _ in 0..<21 {
        let start = ContinuousClock.now
        try body()
        let elapsed = ContinuousClock.now - start
        times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3)
    }
    return times.sorted()[times.count / 2]
}

func milliseconds(_ value: Double) -> String { String(format: "%8.3f ms", value) }

let low = origin + 1_000 * 86_400
let high = origin + 1_030 * 86_400
let memory = ModelConfiguration(isStoredInMemoryOnly: true)
let indexed = try ModelContainer(for: Schema([IndexedTrip.self]), configurations: [memory])
let plain = try ModelContainer(for: Schema([PlainTrip.self]), configurations: [memory])
try fill(indexed) { IndexedTrip(name: "T\($0)", destination: destinations[$0 % 7], startDate: startDate($0)) }
try fill(plain) { PlainTrip(name: "T\($0)", destination: destinations[$0 % 7], startDate: startDate($0)) }

var indexedLimited = FetchDescriptor<IndexedTrip>(
    predicate: #Predicate { $0.startDate >= low && $0.startDate < high },
    sortBy: [SortDescriptor(\.startDate)]
)
indexedLimited.fetchLimit = 20
var plainLimited = FetchDescriptor<PlainTrip>(
    predicate: #Predicate { $0.startDate >= low && $0.startDate < high },
    sortBy: [SortDescriptor(\.startDate)]
)
plainLimited.fetchLimit = 20
var indexedEarliest = FetchDescriptor<IndexedTrip>(sortBy: [SortDescriptor(\.startDate)])
indexedEarliest.fetchLimit = 20
var plainEarliest = FetchDescriptor<PlainTrip>(sortBy: [SortDescriptor(\.startDate)])
plainEarliest.fetchLimit = 20
let indexedRange = FetchDescriptor<IndexedTrip>(
    predicate: #Predicate { $0.startDate >= low && $0.startDate < high },
    sortBy: [SortDescriptor(\.startDate)]
)
let plainRange = FetchDescriptor<PlainTrip>(
    predicate: #Predicate { $0.startDate >= low && $0.startDate < high },
    sortBy: [SortDescriptor(\.startDate)]
)

let buildStart = ContinuousClock.now
let first = try ModelContext(indexed).fetch(indexedLimited)
let build = ContinuousClock.now - buildStart
let expected = try ModelContext(plain).fetch(plainLimited)
precondition(first.map(\.name) == expected.map(\.name), "indexed and plain fetches differ")
let rangeCount = try ModelContext(plain).fetchCount(plainRange)

print("\(count) trips, \(rangeCount) in the range, limit 20; median of 21 fetches")
print("first indexed fetch (builds the index): \(build)")
let rows: [(String, Double, Double)] = [
    (
        "range + sort + limit 20",
        try median { _ = try ModelContext(indexed).fetch(indexedLimited) },
        try median { _ = try ModelContext(plain).fetch(plainLimited) }
    ),
    (
        "sort + limit 20, no predicate",
        try median { _ = try ModelContext(indexed).fetch(indexedEarliest) },
        try median { _ = try ModelContext(plain).fetch(plainEarliest) }
    ),
    (
        "range + sort, all \(rangeCount)",
        try median { _ = try ModelContext(indexed).fetch(indexedRange) },
        try median { _ = try ModelContext(plain).fetch(plainRange) }
    ),
    (
        "fetchCount of the range",
        try median { _ = try ModelContext(indexed).fetchCount(indexedRange) },
        try median { _ = try ModelContext(plain).fetchCount(plainRange) }
    ),
]
print("fetch                              #Index     without    ratio")
for (name, withIndex, without) in rows {
    let label = name.padding(toLength: 30, withPad: " ", startingAt: 0)
    print("\(label) \(milliseconds(withIndex)) \(milliseconds(without)) \(String(format: "%7.1fx", without / withIndex))")
}
