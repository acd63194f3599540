import ArgumentParser
import Foundation
import Logbook
import SampleTrips
import Synchronization

extension LogbookCommand {
    /// Opens a SampleTrips store at version 3 through a plan whose first stage pauses inside
    /// `willMigrate`: the crash tests kill it there.
    struct MigrateSlowly: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "_migrate-slowly",
            abstract: "Migrate a SampleTrips store, pausing inside the first custom stage (for testing).",
            shouldDisplay: false
        )

        @Option(help: "Seconds to pause inside willMigrate, after its changes are saved.")
        var pause = 2.0

        @Argument(help: "The store.")
        var store: String

        func run() throws {
            PausingPlan.pause.withLock { $0 = pause }
            let container = try ModelContainer(
                for: Trip.self,
                migrationPlan: PausingPlan.self,
                configurations: ModelConfiguration(url: URL(fileURLWithPath: store))
            )
            let count = try ModelContext(container).fetchCount(FetchDescriptor<Trip>())
            print("migrated: \(count) trips")
        }
    }
}

/// The talk's plan, with a pause in the middle of the custom stage.
enum PausingPlan: SchemaMigrationPlan {
    static let pause = Mutex(0.0)

    static var schemas: [any VersionedSchema.Type] { SampleTripsMigrationPlan.schemas }

    static var stages: [MigrationStage] {
        [
            .custom(
                fromVersion: SampleTripsSchemaV1.self,
                toVersion: SampleTripsSchemaV2.self,
                willMigrate: { context in
                    for trip in try context.fetch(FetchDescriptor<SampleTripsSchemaV1.Trip>()) {
                        trip.name = trip.name.trimmingCharacters(in: .whitespaces)
                    }
                    try context.save()
                    FileHandle.standardOutput.write(Data("in willMigrate\n".utf8))
                    Thread.sleep(forTimeInterval: pause.withLock { $0 })
                },
                didMigrate: nil
            ),
            SampleTripsMigrationPlan.migrateV2toV3,
        ]
    }
}
