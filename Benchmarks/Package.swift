// swift-tools-version: 6.1
// The benchmarks are a package of their own, so that the main package and its CI build neither
// GRDB nor package-benchmark. See README.md.
import PackageDescription

let package = Package(
    name: "LogbookBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        // The project itself. The name keeps product references independent of the directory a
        // checkout happens to be in.
        .package(name: "Logbook", path: "../"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // For the plain-INSERT ceiling of `postgres-compare` only; the main package names the
        // same version.
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
    ],
    targets: [
        // liblz4, for the LZ4 reference figure (the main package's CLZ4 is not a product).
        .systemLibrary(
            name: "CLZ4Bench",
            pkgConfig: "liblz4",
            providers: [.apt(["liblz4-dev"])]
        ),
        // The deterministic SampleTrips-N generator: plain values, no library.
        .target(name: "SampleTripsData"),
        // The workload protocol, measurement, the table and the reference figures.
        .target(
            name: "BenchmarkHarness",
            dependencies: ["SampleTripsData", "CLZ4Bench"]
        ),
        // One file per side implementing `Workloads`.
        .target(
            name: "Sides",
            dependencies: [
                "BenchmarkHarness",
                "SampleTripsData",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logbook", package: "Logbook"),
                .product(name: "SampleTrips", package: "Logbook"),
            ]
        ),
        // `swift run -c release compare`: both sides, one table.
        .executableTarget(
            name: "compare",
            dependencies: [
                "BenchmarkHarness",
                "SampleTripsData",
                "Sides",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `swift run -c release postgres-compare`: Logbook stores in PostgreSQL (concurrent
        // writers, follower lag, a second host's start) against plain prepared INSERTs and a
        // store in a directory. The only target that links SwiftNIO.
        .executableTarget(
            name: "postgres-compare",
            dependencies: [
                "BenchmarkHarness",
                "SampleTripsData",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logbook", package: "Logbook"),
                .product(name: "LogbookPostgres", package: "Logbook"),
                .product(name: "SampleTrips", package: "Logbook"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "Sources/PostgresCompare"
        ),
        // `swift run -c release indexed-fetch`: range and sorted fetches with and without
        // `#Index`, on Logbook alone.
        .executableTarget(
            name: "indexed-fetch",
            dependencies: [.product(name: "Logbook", package: "Logbook")],
            path: "Sources/IndexedFetch"
        ),
        // `swift package benchmark`: the steady-state workloads with package-benchmark.
        .executableTarget(
            name: "LogbookVsGRDB",
            dependencies: [
                "BenchmarkHarness",
                "SampleTripsData",
                "Sides",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Benchmarks/LogbookVsGRDB",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .testTarget(
            name: "BenchmarkHarnessTests",
            dependencies: ["BenchmarkHarness", "SampleTripsData"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
