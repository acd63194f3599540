import ArgumentParser
import Foundation
import Logbook
import SampleTrips

extension LogbookCommand {
    /// Measures the model layer on SampleTrips-N: durable inserts 1,000 trips per save, a
    /// fresh open, fetching and touching every object, and unique-name lookups. Development
    /// figures; the comparison with GRDB lives in `Benchmarks/`.
    struct MeasureTrips: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "_measure-trips",
            abstract: "Measure the model layer (for development).",
            shouldDisplay: false
        )

        @Argument(help: "A scratch directory; the store is created in it and removed afterwards.")
        var scratch: String

        @Option(help: "Trips, each with 5 bucket-list items and 1 accommodation.")
        var trips = 100_000

        @Option(help: "Measure this existing store of SampleTrips-N at version 3 instead of writing one.")
        var store: String?

        func run() throws {
            let url =
                store.map { URL(fileURLWithPath: $0) }
                ?? URL(fileURLWithPath: scratch).appendingPathComponent("trips-\(UUID().uuidString).store")
            defer { if store == nil { try? FileManager.default.removeItem(at: url) } }
            var start = Date()
            if store == nil {
                let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url))
                let context = ModelContext(container)
                try SampleData.insertV3(
                    (0..<trips).lazy.map { SampleData.generatedTrip($0) },
                    into: context,
                    tripsPerSave: 1_000
                )
            }
            print("insert: \(Date().timeIntervalSince(start)) s")
            start = Date()
            let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url))
            print("open+replay: \(Date().timeIntervalSince(start)) s")
            start = Date()
            let built = Self.buildDescriptors(trips: trips)
            print("building the lookups' descriptors alone: \(Date().timeIntervalSince(start)) s for \(built)")
            start = Date()
            let fresh = try Self.lookUp(in: ModelContext(container), trips: trips)
            print("lookups in a fresh context: \(Date().timeIntervalSince(start)) s for 100000 (\(fresh) found)")
            start = Date()
            let context = ModelContext(container)
            let all = try context.fetch(FetchDescriptor<Trip>())
            var count = 0
            for trip in all {
                count += trip.bucketList?.count ?? 0
                if trip.livingAccommodation != nil { count += 1 }
            }
            print("fetch+touch: \(Date().timeIntervalSince(start)) s, \(all.count) trips, \(count) related")
            start = Date()
            let found = try Self.lookUp(in: context, trips: trips)
            print("lookups, every trip registered: \(Date().timeIntervalSince(start)) s for 100000 (\(found) found)")
            print(processStatus("VmHWM").first ?? "")
        }

        /// The part of ``lookUp(in:trips:)`` that happens before the fetch: the name, the
        /// `#Predicate` and the descriptor, which no store can make faster.
        static func buildDescriptors(trips: Int) -> Int {
            var built = 0
            for n in 0..<100_000 {
                let name = "Trip \((n &* 7_919) % trips)"
                let descriptor = FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name })
                if descriptor.predicate != nil { built += 1 }
            }
            return built
        }

        /// 100,000 lookups by unique name through `#Predicate`, in a scattered order.
        static func lookUp(in context: ModelContext, trips: Int) throws -> Int {
            var found = 0
            for n in 0..<100_000 {
                let name = "Trip \((n &* 7_919) % trips)"
                found += try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name })).count
            }
            return found
        }
    }
}
