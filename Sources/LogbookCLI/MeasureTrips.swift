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

        @Flag(help: "Measure only the memory per object: of the projection, of models, of models once read.")
        var memory = false

        @Flag(
            help:
                "Measure only opening the store, fetching every trip and reading every attribute of it and of the models it reaches, as the benchmark's W2 does."
        )
        var load = false

        func validate() throws {
            if memory && store == nil { throw ValidationError("--memory measures an existing store: give --store") }
            if load && store == nil { throw ValidationError("--load measures an existing store: give --store") }
        }

        func run() throws {
            if memory, let store {
                try Self.measureMemory(store: URL(fileURLWithPath: store))
                return
            }
            if load, let store {
                let start = Date()
                let (loaded, objects, characters) = try Self.openAndLoad(store: URL(fileURLWithPath: store))
                withExtendedLifetime(loaded) {}
                let seconds = Date().timeIntervalSince(start)
                print("open, fetch, touch: \(seconds) s, \(objects) objects, \(characters) characters")
                return
            }
            let url =
                store.map { URL(fileURLWithPath: $0) }
                ?? URL(fileURLWithPath: scratch).appendingPathComponent("trips-\(UUID().uuidString).store")
            defer { if store == nil { try? FileManager.default.removeItem(at: url) } }
            var start = Date()
            if store == nil {
                try Self.insertByAppending(trips: trips, store: url)
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

        /// Inserts SampleTrips-N as the benchmark's W1 does: each trip inserted, its bucket-list
        /// items appended one at a time, its accommodation set, a save per 1,000 trips.
        static func insertByAppending(trips: Int, store: URL) throws {
            try SampleData.insertV3(
                (0..<trips).lazy.map { SampleData.generatedTrip($0) },
                into: ModelContext(try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: store))),
                tripsPerSave: 1_000,
                appendingItems: true
            )
        }

        /// Opens the store, fetches every trip and reads every attribute of each trip, of its
        /// bucket-list items and of its accommodation.
        ///
        /// - Returns: What was loaded, which the caller lets go of outside the function (as the
        ///   benchmark does outside its time), the objects reached, and the characters of the
        ///   strings read.
        static func openAndLoad(store: URL) throws -> (loaded: Any, objects: Int, characters: Int) {
            let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: store))
            let context = ModelContext(container)
            let trips = try context.fetch(FetchDescriptor<Trip>())
            var objects = 0
            var characters = 0
            for trip in trips {
                objects += 1
                characters += trip.name.utf8.count + trip.destination.utf8.count
                characters += Int(trip.startDate.timeIntervalSince1970 - trip.endDate.timeIntervalSince1970) & 1
                for item in trip.bucketList ?? [] {
                    objects += 1
                    characters += item.title.utf8.count + item.details.utf8.count
                    characters += (item.hasReservation ? 1 : 0) + (item.isInPlan ? 1 : 0)
                }
                if let accommodation = trip.livingAccommodation {
                    objects += 1
                    characters += accommodation.address.utf8.count + accommodation.placeName.utf8.count
                }
            }
            return ((container, context, trips), objects, characters)
        }

        /// The resident memory each stage adds, per object: opening the store (the projection),
        /// fetching every object of every entity without reading it (the models), and reading one
        /// attribute of each, outside of any observation tracking scope (nothing more: inside
        /// one, each model read would make its registrar, about 125 bytes).
        static func measureMemory(store: URL) throws {
            let before = residentBytes()
            let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: store))
            let opened = residentBytes()
            let context = ModelContext(container)
            let trips = try context.fetch(FetchDescriptor<Trip>())
            let items = try context.fetch(FetchDescriptor<BucketListItem>())
            let stays = try context.fetch(FetchDescriptor<LivingAccommodation>())
            let fetched = residentBytes()
            var characters = 0
            for trip in trips { characters += trip.name.utf8.count }
            for item in items { characters += item.title.utf8.count }
            for stay in stays { characters += stay.address.utf8.count }
            let read = residentBytes()
            let objects = trips.count + items.count + stays.count
            func perObject(_ bytes: Int) -> String { "\(bytes / max(objects, 1)) bytes per object" }
            print("objects: \(objects) (\(trips.count) trips, \(items.count) items, \(stays.count) accommodations)")
            print("open (projection): \(perObject(opened - before))")
            print("fetch every object, unread (models): \(perObject(fetched - opened))")
            print("read one attribute of each: \(perObject(read - fetched))")
            print("in all: \(perObject(read - before)); \(characters) characters read")
            withExtendedLifetime((container, context)) {}
        }

        /// The process's resident set, in bytes.
        private static func residentBytes() -> Int {
            guard let line = processStatus("VmRSS").first,
                let kilobytes = Int(line.split(whereSeparator: \.isWhitespace).dropFirst().first ?? "")
            else { return 0 }
            return kilobytes * 1024
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
