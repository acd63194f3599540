import ArgumentParser
import Foundation
import Logbook
import SampleTrips

extension LogbookCommand {
    /// Saves numbered SampleTrips trips through a container and acknowledges each save on stdout
    /// once `save()` returned; the read-only follower's tests read the store from another
    /// process while it runs, and kill it at random moments.
    struct SaveLoop: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "_save-loop",
            abstract: "Save numbered trips in a loop (for testing).",
            shouldDisplay: false
        )

        @OptionGroup var options: StoreOptions

        @Option(help: "Saves to make; 0 saves until killed.")
        var saves = 0

        @Option(help: "Trips inserted by each save.")
        var tripsPerSave = 1

        @Option(help: "The number of the first trip.")
        var first = 1

        func run() throws {
            let container = try ModelContainer(
                for: Trip.self,
                configurations: ModelConfiguration(url: URL(fileURLWithPath: options.store))
            )
            let context = ModelContext(container)
            var next = first
            var saved = 0
            while saves == 0 || saved < saves {
                let start = next
                for _ in 0..<tripsPerSave {
                    let day = Date(timeIntervalSince1970: Double(next) * 86_400)
                    context.insert(Trip(name: Self.name(next), destination: "d\(next)", startDate: day, endDate: day))
                    next += 1
                }
                try context.save()
                // Written unbuffered, so that what a killed process acknowledged is what the
                // parent read.
                FileHandle.standardOutput.write(Data("saved \(start) \(next - 1)\n".utf8))
                saved += 1
            }
        }

        /// The name of trip `number`: sortable as text.
        static func name(_ number: Int) -> String {
            "trip " + String(repeating: "0", count: max(0, 6 - String(number).count)) + String(number)
        }
    }
}
