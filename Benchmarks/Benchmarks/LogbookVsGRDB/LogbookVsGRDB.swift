import Benchmark
import BenchmarkHarness
import Foundation
import GRDB
import SampleTripsData
import Sides

// The steady-state workloads of the comparison as package-benchmark benchmarks, for repeated
// runs, percentiles, allocation counts and baselines (`swift package benchmark baseline …`).
// The table with ratios is `swift run -c release compare`; these complement it on a smaller
// store: SampleTrips-N with N from LOGBOOK_BENCH_TRIPS (default 10,000).
//
// The Logbook benchmarks join these once the model layer exists.

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
        maxDuration: .seconds(3),
        maxIterations: 1_000
    )
    // package-benchmark runs each benchmark in a process of its own; the fixture goes with it.
    Benchmark.teardown = {
        try? FileManager.default.removeItem(at: GRDBFixture.directory)
    }

    let thousandLookups = Benchmark.Configuration(scalingFactor: .kilo)

    Benchmark("GRDB lookup by unique name (query interface)", configuration: thousandLookups) { benchmark, fixture in
        let names = fixture.names(benchmark.scaledIterations.count)
        benchmark.startMeasurement()
        let result = try fixture.pool.read { db in try GRDBWorkloads.lookUpThroughQueryInterface(names, db) }
        benchmark.stopMeasurement()
        blackHole(result.digest)
    } setup: {
        try GRDBFixture.shared.get()
    }

    Benchmark("GRDB lookup by unique name (cached statement)", configuration: thousandLookups) { benchmark, fixture in
        let names = fixture.names(benchmark.scaledIterations.count)
        benchmark.startMeasurement()
        let result = try fixture.pool.read { db in try GRDBWorkloads.lookUpThroughCachedStatement(names, db) }
        benchmark.stopMeasurement()
        blackHole(result.digest)
    } setup: {
        try GRDBFixture.shared.get()
    }

    Benchmark("GRDB destination == X sorted by startDate") { benchmark, fixture in
        for iteration in benchmark.scaledIterations {
            let destination = fixture.destinations[iteration % fixture.destinations.count]
            let trips = try fixture.pool.read { db in
                try GRDBWorkloads.tripsGoing(to: destination, db)
            }
            blackHole(trips)
        }
    } setup: {
        try GRDBFixture.shared.get()
    }

    let wholeStore = Benchmark.Configuration(maxDuration: .seconds(10), maxIterations: 20)

    Benchmark("GRDB open + load all objects (associations)", configuration: wholeStore) { benchmark, fixture in
        for _ in benchmark.scaledIterations {
            let pool = try DatabasePool(path: fixture.path)
            let loaded = try pool.read { db in try GRDBWorkloads.loadAndTouchAll(db) }
            blackHole(loaded.digest)
        }
    } setup: {
        try GRDBFixture.shared.get()
    }
}

/// A GRDB store of SampleTrips-N, written once per benchmark process into a temporary
/// directory that the global teardown removes.
struct GRDBFixture: Sendable {
    let path: String
    let pool: DatabasePool
    let lookupNames: [String]
    let destinations: [String]

    static let shared = Result { try GRDBFixture() }

    static let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("logbook-benchmark-\(ProcessInfo.processInfo.processIdentifier)")

    init() throws {
        let trips = ProcessInfo.processInfo.environment["LOGBOOK_BENCH_TRIPS"].flatMap { Int($0) } ?? 10_000
        let dataSet = SampleTripsDataSet(tripCount: trips)
        let directory = Self.directory
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = GRDBWorkloads.databasePath(in: directory)
        _ = try GRDBWorkloads.append(
            dataSet.trips(),
            tripsPerSave: SampleTripsDataSet.tripsPerSave,
            path: path,
            full: false
        )
        pool = try DatabasePool(path: path)
        lookupNames = dataSet.lookupNames(count: 100_000)
        destinations = dataSet.queryDestinations(count: SampleTripsDataSet.destinations.count)
    }

    /// `count` names, taken from the start of the lookup list (cycling if it is shorter).
    func names(_ count: Int) -> [String] {
        (0..<count).map { lookupNames[$0 % lookupNames.count] }
    }
}
