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

        func run() throws {
            let v1 = URL(fileURLWithPath: scratch).appendingPathComponent("m-v1.store")
            let v3 = URL(fileURLWithPath: scratch).appendingPathComponent("m-v3.store")
            let copy = URL(fileURLWithPath: scratch).appendingPathComponent("m-v1-copy.store")
            for store in [v1, v3, copy] { try? FileManager.default.removeItem(at: store) }
            defer { for store in [v1, v3, copy] { try? FileManager.default.removeItem(at: store) } }
            func name(_ n: Int) -> String { n % 10 == 9 ? "Trip \(n - 9)" : "Trip \(n)" }
            do {
                let context = ModelContext(
                    try ModelContainer(
                        for: SampleTripsSchemaV1.Trip.self,
                        configurations: ModelConfiguration(url: v1, durability: .relaxed)
                    )
                )
                for n in 0..<trips {
                    let trip = SampleTripsSchemaV1.Trip(
                        name: name(n),
                        destination: "Place \(n % 100)",
                        start_date: Date(timeIntervalSince1970: Double(n)),
                        end_date: Date(timeIntervalSince1970: Double(n + 7))
                    )
                    context.insert(trip)
                    for i in 0..<5 {
                        trip.bucketList?.append(
                            SampleTripsSchemaV1.BucketListItem(
                                title: "Item \(i)",
                                details: "Details \(n)-\(i)",
                                hasReservation: i % 2 == 0,
                                isInPlan: true
                            )
                        )
                    }
                    trip.livingAccommodation = SampleTripsSchemaV1.LivingAccommodation(
                        address: "\(n) Main St",
                        placeName: "Hotel \(n % 50)"
                    )
                    if n % 1000 == 999 { try context.save() }
                }
                try context.save()
            }
            do {
                let context = ModelContext(
                    try ModelContainer(
                        for: Trip.self,
                        configurations: ModelConfiguration(url: v3, durability: .relaxed)
                    )
                )
                for n in 0..<trips {
                    let trip = Trip(
                        name: "T\(n)",
                        destination: "Place \(n % 100)",
                        startDate: Date(timeIntervalSince1970: Double(n)),
                        endDate: Date(timeIntervalSince1970: Double(n + 7))
                    )
                    context.insert(trip)
                    for i in 0..<5 {
                        trip.bucketList?.append(
                            BucketListItem(
                                title: "Item \(i)",
                                details: "Details \(n)-\(i)",
                                hasReservation: i % 2 == 0,
                                isInPlan: true
                            )
                        )
                    }
                    trip.livingAccommodation = LivingAccommodation(
                        address: "\(n) Main St",
                        placeName: "Hotel \(n % 50)"
                    )
                    if n % 1000 == 999 { try context.save() }
                }
                try context.save()
            }
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
