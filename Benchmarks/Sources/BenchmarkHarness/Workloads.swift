import Foundation
import SampleTripsData

/// One library's implementation of the SampleTrips workloads, W1 to W9 (W6 is W2's peak memory).
///
/// Each side does the work the way a typical user of that library would, and times only the
/// work itself: setup that a real program would do once (opening a store for lookups, preparing
/// the arguments) stays outside the stopwatch. The harness runs every call in a fresh child
/// process, so a call never sees caches or memory left by another one; it adds the byte counts
/// and the process's peak resident memory to what a call returns.
///
/// A side lives in one file of the `Sides` target and is listed in that target's
/// `SideRegistry`; see `Benchmarks/README.md`.
public protocol Workloads: Sendable {
    /// Which column of the table the figures go to.
    static var side: Side { get }

    /// The library and engine versions, printed above the table (for example
    /// "GRDB 7.10.0, SQLite 3.40.1").
    static var versionDescription: String { get }

    init()

    /// W1: creates a new store in the empty directory `store` and saves `trips` durably, one
    /// save (or transaction) per `tripsPerSave` trips.
    ///
    /// - Returns: One measurement per variant; the first is the headline figure, and the store
    ///   it leaves in `store` is the one W2, W3 and W5 read.
    func w1DurableAppend(_ trips: [TripData], tripsPerSave: Int, store: URL) throws -> [WorkloadResult]

    /// The ways this side loads a store in W2, each measured in a fresh process of its own (W6
    /// reports each one's peak memory). Empty when there is one way; the default.
    static var w2Variants: [String] { get }

    /// W2: opens the store in `store` and loads every object with its relationships, touching
    /// each one. It runs in a process that has done nothing else.
    ///
    /// - Parameter variant: One of ``w2Variants``, or `nil` when there are none.
    func w2OpenAndLoad(store: URL, variant: String?) throws -> WorkloadResult

    /// W3: finds each trip of `names` by its unique name, in order.
    ///
    /// - Returns: One measurement per variant (for example a query builder and a prepared
    ///   statement); the first is the headline figure.
    func w3PointLookups(store: URL, names: [String]) throws -> [WorkloadResult]

    /// W3: for each destination, fetches the trips going there sorted by start date.
    func w3PredicateFetch(store: URL, destinations: [String]) throws -> WorkloadResult

    /// W4 setup, not timed: writes `trips` with the V1 schema into the empty directory `store`.
    func w4PrepareV1(_ trips: [TripDataV1], tripsPerSave: Int, store: URL) throws

    /// W4: opens the V1 store in `store` with the current schema, migrating (or upcasting) it:
    /// the dates renamed, and duplicate names folded into one trip per name.
    ///
    /// - Returns: One measurement per variant; the first, the open through the migration, is
    ///   the headline figure. A side may add others, such as opening the migrated store again.
    func w4OpenThroughMigration(store: URL) throws -> [WorkloadResult]

    /// W5: writes every object of the store in `store` to `output` as JSON, one object per line.
    func w5DumpNDJSON(store: URL, output: URL) throws -> WorkloadResult

    /// W7 and W8: what an app's user waits for at launch. A process that has done nothing else
    /// opens the store in `store` and shows its first screen: the ``WorkloadID/firstScreenTrips``
    /// earliest trips by start date (then name), each with its bucket list, touching each one.
    func w7FirstScreen(store: URL) throws -> WorkloadResult

    /// The stores W8 measures the first screen of, each prepared from a copy of W1's store by
    /// ``w8PrepareEdits(store:rounds:variant:)`` and measured in a fresh process of its own.
    /// Empty when there is one; the default.
    static var w8Variants: [String] { get }

    /// W8 setup: edits every trip of the store in `store` `rounds` times, changing its
    /// destination, one save (or transaction) per 1,000 trips, as an app's history grows.
    ///
    /// - Parameter variant: One of ``w8Variants``, or `nil` when there are none.
    /// - Returns: The time of the edit rounds alone (not the open, the fetch or what follows
    ///   them), for the run's notes: the first screens are what W8 measures.
    func w8PrepareEdits(store: URL, rounds: Int, variant: String?) throws -> WorkloadResult

    /// W9: gives back the space that the history of an edited store takes, on a copy of W1's
    /// store edited by ``w8PrepareEdits(store:rounds:variant:)`` (no variant). A process that
    /// has done nothing else opens the store (not timed), does the side's reclaiming operation
    /// (timed), closes the store, then opens it again and counts its objects (not timed).
    ///
    /// - Returns: The time of the reclaiming operation, the objects counted after the reopen in
    ///   ``WorkloadResult/observed``, and the store's bytes before and after it, by kind of file,
    ///   in ``WorkloadResult/storeBytes``.
    func w9DeleteHistory(store: URL) throws -> WorkloadResult
}

extension Workloads {
    public static var w2Variants: [String] { [] }
    public static var w8Variants: [String] { [] }
}

/// A library under comparison.
public enum Side: String, Codable, CaseIterable, Sendable {
    case logbook
    case grdb

    /// The name printed in the table.
    public var displayName: String {
        switch self {
        case .logbook: "Logbook"
        case .grdb: "GRDB"
        }
    }
}

/// The workloads of the comparison, as the table lists them.
public enum WorkloadID: String, Codable, CaseIterable, Sendable {
    case w1DurableAppend = "w1"
    case w2OpenAndLoad = "w2"
    case w3PointLookups = "w3-lookup"
    case w3PredicateFetch = "w3-predicate"
    case w4OpenThroughMigration = "w4"
    case w5DumpNDJSON = "w5"
    case w7FirstScreen = "w7"
    case w8FirstScreenAfterEdits = "w8"
    case w9DeleteHistory = "w9"

    /// The label of the workload's rows in the table.
    public var title: String {
        switch self {
        case .w1DurableAppend: "W1 durable append"
        case .w2OpenAndLoad: "W2 open + load all"
        case .w3PointLookups: "W3 lookup by unique name"
        case .w3PredicateFetch: "W3 destination==X by date"
        case .w4OpenThroughMigration: "W4 open V1 via migration"
        case .w5DumpNDJSON: "W5 dump NDJSON"
        case .w7FirstScreen: "W7 first screen"
        case .w8FirstScreenAfterEdits: "W8 first screen, edited"
        case .w9DeleteHistory: "W9 delete history, edited"
        }
    }

    /// The trips the first screen of W7 and W8 shows.
    public static let firstScreenTrips = 20

    /// The rounds of edits to every trip before W8's first screen and W9's deletion of history.
    public static let w8EditRounds = 5

    /// The variant of W1's Logbook row that counts the freeing of the context's models, which
    /// the table compares with GRDB's headline under the table.
    public static let w1ModelsFreed = "durable, models freed"
}
