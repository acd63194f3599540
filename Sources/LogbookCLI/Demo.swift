import ArgumentParser
import Foundation
import Logbook
import SampleTrips

extension LogbookCommand {
    struct Demo: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Tell the SampleTrips story: write version 1, open it with version 3 through the plan.",
            discussion: """
                Writes the trips of the talk's first release (names not yet unique, dates named \
                start_date and end_date) to a new store, shows what the migration plan would do, \
                opens the store with the current models through SampleTripsMigrationPlan, and \
                prints the trips as they are now.

                With --dry-run, STORE is an existing SampleTrips store (version 1, 2 or 3): the \
                demo prints what opening it through SampleTripsMigrationPlan would do (the \
                stages that would run, what they rename, add, remove and fold) and stops. The \
                store is only read: it is not opened for writing and not a byte of it changes.
                """
        )

        @Argument(help: "A path for the new store; it must not exist yet (with --dry-run, an existing store).")
        var store: String

        @Flag(help: "Preview the migration of an existing store instead; write nothing.")
        var dryRun = false

        func validate() throws {
            if !dryRun && FileManager.default.fileExists(atPath: store) {
                throw ValidationError(
                    "\(store) already exists; give the demo a new path, or add --dry-run to preview it"
                )
            }
        }

        func run() throws {
            if dryRun { return try preview() }
            let url = URL(fileURLWithPath: store)
            let configuration = ModelConfiguration(url: url)
            print("1. Writing the first release's trips (version 1.0.0) to \(store)")
            do {
                let context = ModelContext(
                    try ModelContainer(for: SampleTripsSchemaV1.Trip.self, configurations: configuration)
                )
                try SampleData.insertV1(SampleData.demoTrips, into: context, tripsPerSave: .max)
            }
            for trip in SampleData.demoTrips {
                print(
                    "   \"\(trip.name)\" to \(trip.destination), \(trip.bucketList.count) bucket-list item(s)\(trip.accommodation.map { ", staying at \($0.placeName)" } ?? "")"
                )
            }
            let items = SampleData.demoTrips.reduce(0) { $0 + $1.bucketList.count }
            print("   \(SampleData.demoTrips.count) trips and \(items) bucket-list items saved in one batch")
            print()
            print("2. What opening it with the current models would do:")
            let preview = try ModelContainer.previewMigration(
                for: Trip.self,
                migrationPlan: SampleTripsMigrationPlan.self,
                configuration: configuration
            )
            for line in preview.description.split(separator: "\n") { print("   \(line)") }
            print()
            print("3. Opening with version \(preview.modelVersion) through SampleTripsMigrationPlan")
            let container = try ModelContainer(
                for: Trip.self,
                migrationPlan: SampleTripsMigrationPlan.self,
                configurations: configuration
            )
            let context = ModelContext(container)
            let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)]))
            let formatter = DateFormatter()
            formatter.dateFormat = "yyyy-MM-dd"
            formatter.timeZone = TimeZone(identifier: "UTC")
            for trip in trips {
                print(
                    "   \"\(trip.name)\" to \(trip.destination), \(formatter.string(from: trip.startDate)) → \(formatter.string(from: trip.endDate))"
                )
                for item in (trip.bucketList ?? []).sorted(by: { $0.title < $1.title }) {
                    print("     - \(item.title)\(item.hasReservation ? " (reserved)" : "")")
                }
                if let stay = trip.livingAccommodation {
                    print("     staying at \(stay.placeName), \(stay.address)")
                }
            }
            let itemCount = try context.fetchCount(FetchDescriptor<BucketListItem>())
            print("   \(trips.count) trips with unique names; \(itemCount) of \(items) bucket-list items kept")
            print()
            print(
                "The old events are still in the log, byte for byte: try `swift run logbook verify \(Self.shellWord(store))`."
            )
        }

        /// `path` as one word of a shell command line: as it is when it holds nothing a shell
        /// reads specially, otherwise in single quotes.
        static func shellWord(_ path: String) -> String {
            let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:,@%")
            if !path.isEmpty && path.allSatisfy(plain.contains) { return path }
            return "'" + path.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
        }

        /// Prints what opening an existing store through the plan would do, reading it only.
        func preview() throws {
            try StoreOptions.checkStore(at: store)
            let preview = try ModelContainer.previewMigration(
                for: Trip.self,
                migrationPlan: SampleTripsMigrationPlan.self,
                configuration: ModelConfiguration(url: URL(fileURLWithPath: store))
            )
            print("What opening \(store) with the current models through SampleTripsMigrationPlan would do:")
            for line in preview.description.split(separator: "\n") { print("   \(line)") }
            print("Nothing was written: this was a dry run.")
        }
    }
}
