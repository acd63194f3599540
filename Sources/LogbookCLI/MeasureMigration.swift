import ArgumentParser
import Foundation
import Logbook
import SampleTrips

extension LogbookCommand {
    /// Compares opening SampleTrips-N written at version 1 (10% duplicate names) through the
    /// talk's plan with opening the same amount of data written at version 3. Development
    /// figures; the comparison with GRDB lives in `Benchmarks/`.
    struct MeasureMigration: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "_measure-migration",
            abstract: "Measure opening through a migration (for development).",
            shouldDisplay: false
        )

        @Argument(help: "A scratch directory; the stores are created in it.")
        var scratch: String

        @Option(help: "Trips, each with 5 bucket-list items and 1 accommodation.")
        var trips = 100_000

        @Flag(help: "Only write the V1 and V3 stores (m-v1.store, m-v3.store) and keep them.")
        var writeOnly = false

        @Option(help: "Only open this store through the plan, once, and print the time: a fresh process's open.")
        var open: String?

        func run() throws {
            if let open {
                let start = Date()
                let container = try ModelContainer(
                    for: Trip.self,
                    migrationPlan: SampleTripsMigrationPlan.self,
                    configurations: ModelConfiguration(url: URL(fileURLWithPath: open))
                )
                // Timed without releasing the container, as an app keeps it.
                let elapsed = Date().timeIntervalSince(start)
                // Give memory freed off the caller's path a moment to go back to the system.
                Thread.sleep(forTimeInterval: 1)
                let memory = processStatus("VmHWM", "VmRSS")
                print(
                    "open through the plan: \(elapsed) s; "
                        + memory.map { $0.split(separator: " ").joined(separator: " ") }.joined(separator: ", ")
                )
                withExtendedLifetime(container) {}
                return
            }
            let v1 = URL(fileURLWithPath: scratch).appendingPathComponent("m-v1.store")
            let v3 = URL(fileURLWithPath: scratch).appendingPathComponent("m-v3.store")
            let copy = URL(fileURLWithPath: scratch).appendingPathComponent("m-v1-copy.store")
            for store in [v1, v3, copy] { try? FileManager.default.removeItem(at: store) }
            defer {
                if !writeOnly { for store in [v1, v3, copy] { try? FileManager.default.removeItem(at: store) } }
            }
            do {
                let context = ModelContext(
                    try ModelContainer(
                        for: SampleTripsSchemaV1.Trip.self,
                        configurations: ModelConfiguration(url: v1, durability: .relaxed)
                    )
                )
                try SampleData.insertV1(
                    (0..<trips).lazy.map { SampleData.generatedTrip($0, duplicateNames: true) },
                    into: context,
                    tripsPerSave: 1_000
                )
            }
            do {
                let context = ModelContext(
                    try ModelContainer(
                        for: Trip.self,
                        configurations: ModelConfiguration(url: v3, durability: .relaxed)
                    )
                )
                try SampleData.insertV3(
                    (0..<trips).lazy.map { SampleData.generatedTrip($0) },
                    into: context,
                    tripsPerSave: 1_000
                )
            }
            if writeOnly { return }
            for round in 1...2 {
                var start = Date()
                _ = try ModelContainer(
                    for: Trip.self,
                    migrationPlan: SampleTripsMigrationPlan.self,
                    configurations: ModelConfiguration(url: v3)
                )
                let plain = Date().timeIntervalSince(start)
                try? FileManager.default.removeItem(at: copy)
                try FileManager.default.copyItem(at: v1, to: copy)
                start = Date()
                let migrated = try ModelContainer(
                    for: Trip.self,
                    migrationPlan: SampleTripsMigrationPlan.self,
                    configurations: ModelConfiguration(url: copy)
                )
                let migration = Date().timeIntervalSince(start)
                let count = try ModelContext(migrated).fetchCount(FetchDescriptor<Trip>())
                start = Date()
                _ = consume migrated
                _ = try ModelContainer(
                    for: Trip.self,
                    migrationPlan: SampleTripsMigrationPlan.self,
                    configurations: ModelConfiguration(url: copy)
                )
                let reopen = Date().timeIntervalSince(start)
                print(
                    "round \(round): V3 open \(plain) s; V1 open through the plan \(migration) s (\(count) trips), ratio \(migration / plain); reopen after migration \(reopen) s, ratio \(reopen / plain)"
                )
            }
        }
    }
}
