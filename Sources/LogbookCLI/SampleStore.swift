import ArgumentParser
import Foundation
import Logbook
import SampleTrips

extension LogbookCommand {
    /// Writes the demo's trips with the models of an earlier SampleTrips version: how the
    /// golden stores in `Fixtures/` were made.
    struct SampleStore: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "_sample-store",
            abstract: "Write the demo trips at SampleTrips version 1 or 2 (for fixtures).",
            shouldDisplay: false
        )

        @Option(help: "The SampleTrips schema version to write with: 1 or 2.")
        var version = 1

        @Argument(help: "A path for the new store; it must not exist yet.")
        var store: String

        func validate() throws {
            guard version == 1 || version == 2 else { throw ValidationError("--version must be 1 or 2") }
            if FileManager.default.fileExists(atPath: store) { throw ValidationError("\(store) already exists") }
        }

        func run() throws {
            let configuration = ModelConfiguration(url: URL(fileURLWithPath: store))
            if version == 1 {
                let context = ModelContext(
                    try ModelContainer(for: SampleTripsSchemaV1.Trip.self, configurations: configuration)
                )
                try SampleData.insertV1(SampleData.demoTrips, into: context, tripsPerSave: .max)
            } else {
                let context = ModelContext(
                    try ModelContainer(for: SampleTripsSchemaV2.Trip.self, configurations: configuration)
                )
                // One save per trip: a repeated name is an upsert of the stored trip.
                try SampleData.insertV2(SampleData.demoTrips, into: context, tripsPerSave: 1)
            }
        }
    }
}
