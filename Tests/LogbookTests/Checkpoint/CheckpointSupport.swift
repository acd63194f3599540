import Foundation
import InMemoryLogging
import Logging
import SampleTrips

@testable import Logbook

/// A store on disk for the checkpoint tests, with the models of SampleTrips at version 3, no
/// checkpoint written on close unless a test asks, and a log handler to read warnings from.
final class CheckpointStore {
    let directory = TemporaryDirectory("checkpoints")
    let handler = InMemoryLogHandler()

    var url: URL { URL(fileURLWithPath: directory.child("trips.store")) }
    var path: String { url.path }
    var checkpointsPath: String { CheckpointFiles.directory(of: path) }

    func configuration(
        interval: Int? = nil,
        durability: ModelConfiguration.Durability = .relaxed,
        syscalls: (any Syscalls)? = nil
    ) -> ModelConfiguration {
        var configuration = ModelConfiguration(url: url, durability: durability)
        configuration.checkpointInterval = interval
        var logger = Logger(label: "test", factory: { [handler] _ in handler })
        logger.logLevel = .debug
        configuration.logger = logger
        if let syscalls { configuration.syscalls = syscalls }
        return configuration
    }

    func open(interval: Int? = nil, syscalls: (any Syscalls)? = nil) throws -> ModelContainer {
        try ModelContainer(for: Trip.self, configurations: configuration(interval: interval, syscalls: syscalls))
    }

    /// The checkpoint files, newest first.
    func checkpoints() throws -> [CheckpointFiles.Entry] {
        try CheckpointFiles.list(in: path)
    }

    /// Whether an open since the handler was made loaded a checkpoint.
    var openedFromCheckpoint: Bool {
        handler.entries.contains { $0.message.description.hasPrefix("opened from checkpoint") }
    }

    var warnings: [String] {
        handler.entries.filter { $0.level == .warning }.map { $0.message.description }
    }

    /// Saves `count` trips, a day apart, with `itemsEach` bucket-list items each, in one save.
    static func insertTrips(_ count: Int, itemsEach: Int, into container: ModelContainer) throws {
        let context = ModelContext(container)
        for index in 0..<count {
            let start = Date(timeIntervalSinceReferenceDate: Double(index) * 86_400)
            let trip = Trip(name: "trip \(index)", destination: "place \(index)", startDate: start, endDate: start)
            context.insert(trip)
            for item in 0..<itemsEach {
                trip.bucketList?.append(
                    BucketListItem(
                        title: "item \(index).\(item)",
                        details: "details of item \(index).\(item)",
                        hasReservation: item == 0,
                        isInPlan: true
                    )
                )
            }
        }
        try context.save()
    }

    /// Moves the checkpoints aside, so that the next open replays the whole log.
    func hideCheckpoints() throws {
        let aside = directory.child("hidden-\(UUID().uuidString)")
        if FileManager.default.fileExists(atPath: checkpointsPath) {
            try FileManager.default.moveItem(atPath: checkpointsPath, toPath: aside)
        }
    }
}

/// Everything the public API shows of a SampleTrips store, to compare two opens.
struct TripsSnapshot: Equatable, CustomStringConvertible {
    var trips: [String] = []
    var unsorted: [String] = []
    var items: [String] = []
    var accommodations: [String] = []
    var counts: [Int] = []
    var lookups: [String] = []

    init(_ container: ModelContainer) throws {
        let context = ModelContext(container)
        for trip in try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])) {
            let items = (trip.bucketList ?? []).map { "\($0.title)/\($0.isInPlan)" }
            trips.append(
                "\(trip.name)|\(trip.destination)|\(trip.startDate.timeIntervalSinceReferenceDate)|\(trip.tripViews)|\(items)|\(trip.livingAccommodation?.placeName ?? "-")"
            )
        }
        unsorted = try context.fetch(FetchDescriptor<Trip>()).map(\.name)
        items = try context.fetch(FetchDescriptor<BucketListItem>(sortBy: [SortDescriptor(\.title)])).map {
            "\($0.title)|\($0.details)|\($0.hasReservation)|\($0.trip?.name ?? "-")"
        }
        accommodations = try context.fetch(FetchDescriptor<LivingAccommodation>()).map {
            "\($0.placeName)|\($0.address)|\($0.trip?.name ?? "-")"
        }
        counts = [
            try context.fetchCount(FetchDescriptor<Trip>()),
            try context.fetchCount(FetchDescriptor<BucketListItem>()),
            try context.fetchCount(FetchDescriptor<LivingAccommodation>()),
        ]
        for index in 0..<12 {
            let name = "trip \(index)"
            let found = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name }))
            lookups.append("\(name): \(found.map(\.destination))")
        }
    }

    var description: String {
        "trips \(trips)\nunsorted \(unsorted)\nitems \(items)\naccommodations \(accommodations)\ncounts \(counts)\nlookups \(lookups)"
    }
}

/// Random saves over SampleTrips: inserts, updates, unique upserts that fold, cascading and
/// nullifying deletes, to-many links and unlinks.
struct TripsHistory {
    var generator: SeededGenerator
    var serial = 0

    init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
    }

    mutating func save(_ container: ModelContainer, steps: Int) throws {
        let context = ModelContext(container)
        for _ in 0..<steps {
            serial += 1
            let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
            let items = try context.fetch(FetchDescriptor<BucketListItem>(sortBy: [SortDescriptor(\.title)]))
            switch trips.isEmpty ? 0 : Int.random(in: 0..<10, using: &generator) {
            case 0, 1, 2:
                // An insert, or an upsert when the name is taken: names repeat among 12.
                let name = "trip \(Int.random(in: 0..<12, using: &generator))"
                let start = Date(timeIntervalSinceReferenceDate: Double(serial) * 86_400)
                let trip = Trip(name: name, destination: "place \(serial)", startDate: start, endDate: start)
                context.insert(trip)
                if Bool.random(using: &generator) {
                    let item = BucketListItem(
                        title: "item \(serial)",
                        details: "d",
                        hasReservation: false,
                        isInPlan: true
                    )
                    trip.bucketList?.append(item)
                }
                if Bool.random(using: &generator) {
                    trip.livingAccommodation = LivingAccommodation(
                        address: "street \(serial)",
                        placeName: "inn \(serial)"
                    )
                }
            case 3, 4:
                guard let trip = trips.randomElement(using: &generator) else { continue }
                trip.destination = "moved \(serial)"
                trip.tripViews += 1
            case 5:
                // A cascade: the trip's items and accommodation go with it.
                guard let trip = trips.randomElement(using: &generator) else { continue }
                context.delete(trip)
            case 6:
                // A nullify: the item leaves its trip's list.
                guard let item = items.randomElement(using: &generator) else { continue }
                context.delete(item)
            case 7:
                // A link to another trip, which unlinks it from its own.
                guard let item = items.randomElement(using: &generator),
                    let trip = trips.randomElement(using: &generator)
                else { continue }
                trip.bucketList?.append(item)
            case 8:
                guard let trip = trips.randomElement(using: &generator), let list = trip.bucketList, !list.isEmpty
                else { continue }
                trip.bucketList?.remove(at: Int.random(in: 0..<list.count, using: &generator))
            default:
                guard let trip = trips.randomElement(using: &generator) else { continue }
                let item = BucketListItem(title: "item \(serial)", details: "x", hasReservation: true, isInPlan: false)
                trip.bucketList?.append(item)
                trip.livingAccommodation = nil
            }
            try context.save()
        }
    }
}
