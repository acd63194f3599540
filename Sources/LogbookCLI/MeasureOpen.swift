import ArgumentParser
import Foundation
import Logbook
import SampleTrips

extension LogbookCommand {
    /// Measures opening a store of SampleTrips-N with a history of edits, from the whole log
    /// and from a checkpoint. Development figures, like `_measure-trips`.
    struct MeasureOpen: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "_measure-open",
            abstract: "Measure opening a store with and without a checkpoint (for development).",
            shouldDisplay: false
        )

        @Argument(help: "The store to write (it must not exist) or, with --reuse, to measure.")
        var store: String

        @Option(help: "Trips, each with 5 bucket-list items and 1 accommodation.")
        var trips = 20_000

        @Option(help: "Rounds of edits to every trip, 1,000 trips per save.")
        var rounds = 3

        @Option(help: "Opens to time each way; the figures are the fastest and the median.")
        var opens = 3

        @Flag(help: "Measure the existing store instead of writing one.")
        var reuse = false

        func run() throws {
            let url = URL(fileURLWithPath: store)
            var configuration = ModelConfiguration(url: url, durability: .relaxed)
            configuration.checkpointInterval = nil
            if !reuse {
                var start = Date()
                let container = try ModelContainer(for: Trip.self, configurations: configuration)
                let context = ModelContext(container)
                try SampleData.insertV3(
                    (0..<trips).lazy.map { SampleData.generatedTrip($0) },
                    into: context,
                    tripsPerSave: 1_000,
                    appendingItems: true
                )
                print("insert \(trips) trips: \(seconds(since: start)) s")
                start = Date()
                let all = try context.fetch(FetchDescriptor<Trip>())
                for round in 0..<rounds {
                    for (index, trip) in all.enumerated() {
                        trip.destination = "round \(round) destination \(index)"
                        trip.tripViews += 1
                        if index % 1_000 == 999 { try context.save() }
                    }
                    try context.save()
                }
                print("\(rounds) rounds editing every trip: \(seconds(since: start)) s")
            }
            let checkpoints = CheckpointFiles.directory(of: url.path)
            let aside = checkpoints + ".aside"
            try? FileManager.default.removeItem(atPath: aside)
            if FileManager.default.fileExists(atPath: checkpoints) {
                try FileManager.default.moveItem(atPath: checkpoints, toPath: aside)
            }
            print("log: \(formatBytes(Int64(try CheckpointFiles.logBytes(of: url.path))))")
            let replayed = try timeOpens(configuration)
            print("open from the whole log: \(replayed)")
            let start = Date()
            let container = try ModelContainer(for: Trip.self, configurations: configuration)
            let opened = seconds(since: start)
            let written = Date()
            try container.checkpoint()
            let path = try CheckpointFiles.list(in: url.path).first?.path ?? "?"
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber
            print(
                "checkpoint: written in \(seconds(since: written)) s (after an open of \(opened) s), \(formatBytes(size?.int64Value ?? 0))"
            )
            _ = consume container
            print("open from the checkpoint: \(try timeOpens(configuration))")
        }

        /// Opens the store `opens` times, counting its trips each time.
        private func timeOpens(_ configuration: ModelConfiguration) throws -> String {
            var times: [Double] = []
            var count = 0
            for _ in 0..<max(1, opens) {
                let start = Date()
                let container = try ModelContainer(for: Trip.self, configurations: configuration)
                count = try ModelContext(container).fetchCount(FetchDescriptor<Trip>())
                times.append(seconds(since: start))
            }
            times.sort()
            return "fastest \(times[0]) s, median \(times[times.count / 2]) s (\(count) trips)"
        }

        private func seconds(since start: Date) -> Double {
            (Date().timeIntervalSince(start) * 1000).rounded() / 1000
        }
    }
}
