import ArgumentParser
import Foundation
import Logbook
import SampleTrips

extension LogbookCommand {
    /// Writes the demo's trips with the models of an earlier SampleTrips version: how the
    /// golden stores in `Fixtures/` were made. With `--trips`, writes SampleTrips-N instead (the
    /// benchmark workload, 1,000 trips per save), for measuring the tool on a large store.
    struct SampleStore: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "_sample-store",
            abstract: "Write the demo trips at SampleTrips version 1 or 2 (for fixtures), or N generated trips.",
            shouldDisplay: false
        )

        @Option(help: "The SampleTrips schema version to write with: 1 or 2 (or 3 with --trips).")
        var version = 1

        @Option(help: "Write this many generated trips, 1,000 per save, instead of the demo trips.")
        var trips: Int?

        @Flag(help: "Append the demo trips (version 1 only) to an existing store instead of creating one.")
        var append = false

        @Argument(help: "A path for the new store; it must not exist yet (unless --append).")
        var store: String

        func validate() throws {
            guard version == 1 || version == 2 || (version == 3 && trips != nil) else {
                throw ValidationError("--version must be 1 or 2, or 3 with --trips")
            }
            if append {
                guard version == 1, trips == nil else {
                    throw ValidationError("--append writes the version 1 demo trips")
                }
            } else if FileManager.default.fileExists(atPath: store) {
                throw ValidationError("\(store) already exists")
            }
        }

        func run() throws {
            if let trips { return try writeGenerated(trips) }
            var configuration = ModelConfiguration(url: URL(fileURLWithPath: store))
            // Every save records this time and author, so that the same command gives the same bytes.
            configuration.clock = { Self.fixtureTime }
            if version == 1 {
                let context = ModelContext(
                    try ModelContainer(for: SampleTripsSchemaV1.Trip.self, configurations: configuration)
                )
                context.author = Self.fixtureAuthor
                try SampleData.insertV1(SampleData.demoTrips, into: context, tripsPerSave: .max)
            } else {
                let context = ModelContext(
                    try ModelContainer(for: SampleTripsSchemaV2.Trip.self, configurations: configuration)
                )
                context.author = Self.fixtureAuthor
                // One save per trip: a repeated name is an upsert of the stored trip.
                try SampleData.insertV2(SampleData.demoTrips, into: context, tripsPerSave: 1)
            }
        }

        /// The time the demo trips' saves record: 2026-01-01 00:00:00 UTC.
        static let fixtureTime = Date(timeIntervalSince1970: 1_767_225_600)
        /// The author the demo trips' saves record.
        static let fixtureAuthor = "fixtures"

        /// Writes SampleTrips-N: each trip with 5 bucket-list items and 1 accommodation.
        func writeGenerated(_ count: Int) throws {
            let configuration = ModelConfiguration(url: URL(fileURLWithPath: store), durability: .relaxed)
            let trips = (0..<count).lazy.map { SampleData.generatedTrip($0) }
            switch version {
            case 1:
                let container = try ModelContainer(for: SampleTripsSchemaV1.Trip.self, configurations: configuration)
                try SampleData.insertV1(trips, into: ModelContext(container), tripsPerSave: 1_000)
            case 2:
                let container = try ModelContainer(for: SampleTripsSchemaV2.Trip.self, configurations: configuration)
                try SampleData.insertV2(trips, into: ModelContext(container), tripsPerSave: 1_000)
            default:
                let container = try ModelContainer(for: Trip.self, configurations: configuration)
                try SampleData.insertV3(trips, into: ModelContext(container), tripsPerSave: 1_000)
            }
        }
    }
}
