import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// A small, realistic sequence of steps against a SampleTrips store written at version 1: the
/// migration to version 3 through the plan, then saves that insert, update, cascade-delete and
/// upsert, with segments small enough that most saves roll to a new segment. Fault and
/// power-loss tests run it with a failing file layer and compare the reopened store with the
/// values of a clean run.
struct ReliabilityWorkload {
    typealias Trip = SampleTripsSchemaV3.Trip
    typealias Item = SampleTripsSchemaV3.BucketListItem

    /// The number of steps; a step is done when it returns.
    static let stepCount = 6

    /// A version-1 store with six trips, each with bucket-list items and an accommodation.
    static func makeTemplate(at url: URL) throws {
        let container = try ModelContainer(
            for: SampleTripsSchemaV1.Trip.self,
            configurations: ModelConfiguration(url: url)
        )
        let context = ModelContext(container)
        let trips = (0..<6).map { trip($0, items: 2) }
        try SampleData.insertV1(trips, into: context, tripsPerSave: 3)
    }

    static func trip(_ n: Int, items: Int, destination: String? = nil) -> SampleData.TripRecord {
        let start = Date(timeIntervalSince1970: 1_780_000_000 + Double(n) * 86_400)
        return SampleData.TripRecord(
            name: "Trip \(n)",
            destination: destination ?? "Destination \(n)",
            startDate: start,
            endDate: start.addingTimeInterval(7 * 86_400),
            bucketList: (0..<items).map {
                SampleData.BucketListRecord(
                    title: "Item \(n).\($0)",
                    details: "details \(n).\($0)",
                    hasReservation: $0 % 2 == 0,
                    isInPlan: n % 2 == 0
                )
            },
            accommodation: SampleData.AccommodationRecord(address: "\(n) Harbour Street", placeName: "Stay \(n)")
        )
    }

    /// Runs the steps with `syscalls` until one throws; returns how many were done and the error.
    static func run(
        _ url: URL,
        syscalls: any Syscalls,
        upTo last: Int = stepCount
    ) -> (done: Int, error: (any Error)?) {
        var configuration = ModelConfiguration(url: url)
        configuration.syscalls = syscalls
        configuration.segmentSize = 1_024
        var done = 0
        do {
            guard last >= 1 else { return (0, nil) }
            let container = try ModelContainer(
                for: Trip.self,
                migrationPlan: SampleTripsMigrationPlan.self,
                configurations: configuration
            )
            // The migration starts a checkpoint in the background. Its file's writes depend on
            // the objects it finds, so it is waited for here: every run then makes the same
            // calls in the same order, and the tests can fail the power at each of them.
            container.store.checkpoints.close()
            done = 1
            let context = ModelContext(container)
            for step in 2...max(2, last) where step <= last {
                try perform(step, in: context)
                done = step
            }
            return (done, nil)
        } catch {
            return (done, error)
        }
    }

    private static func perform(_ step: Int, in context: ModelContext) throws {
        func trip(named name: String) throws -> Trip? {
            try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name })).first
        }
        switch step {
        case 2:
            try SampleData.insertV3((10..<13).map { Self.trip($0, items: 2) }, into: context, tripsPerSave: 3)
        case 3:
            for name in ["Trip 1", "Trip 10"] {
                guard let trip = try trip(named: name) else { continue }
                trip.destination = "Updated \(name)"
                trip.bucketList?.append(
                    Item(title: "Added to \(name)", details: "late", hasReservation: true, isInPlan: true)
                )
            }
            try context.save()
        case 4:
            if let trip = try trip(named: "Trip 2") { context.delete(trip) }
            try context.save()
        case 5:
            // A repeated unique name is an upsert into the existing trip.
            try SampleData.insertV3([Self.trip(3, items: 1, destination: "Upserted")], into: context, tripsPerSave: 1)
        default:
            try SampleData.insertV3((20..<40).map { Self.trip($0, items: 3) }, into: context, tripsPerSave: 20)
        }
    }

    /// The store's values as sorted lines, read through the current models (migrating when the
    /// store is still at an older version, as any reopening would).
    static func snapshot(_ url: URL) throws -> [String] {
        let container = try ModelContainer(
            for: Trip.self,
            migrationPlan: SampleTripsMigrationPlan.self,
            configurations: ModelConfiguration(url: url)
        )
        let context = ModelContext(container)
        var lines = try context.fetch(FetchDescriptor<Trip>()).map { trip in
            let items = (trip.bucketList ?? []).map { "\($0.title)/\($0.details)/\($0.hasReservation)/\($0.isInPlan)" }
            let stay = trip.livingAccommodation.map { "\($0.address)/\($0.placeName)" } ?? "none"
            return
                "\(trip.name)|\(trip.destination)|\(trip.startDate.timeIntervalSince1970)|\(trip.endDate.timeIntervalSince1970)|\(items.sorted())|\(stay)"
        }
        let looseItems = try context.fetch(FetchDescriptor<Item>()).filter { $0.trip == nil }.map(\.title)
        let looseStays = try context.fetch(FetchDescriptor<SampleTripsSchemaV3.LivingAccommodation>()).filter {
            $0.trip == nil
        }.map(\.address)
        lines.append("loose items \(looseItems.sorted())")
        lines.append("loose stays \(looseStays.sorted())")
        return lines.sorted()
    }

    /// Every batch of the store is sound and every event decodes.
    static func verify(_ url: URL) throws -> VerificationReport {
        try LogVerifier.verify(directory: url.path, checkEvent: { EventCodec.validate($0) })
    }

    /// The values after each number of steps of a clean run, computed once.
    static let reference: [[String]] = {
        let directory = TemporaryDirectory("reliability-reference")
        let template = URL(fileURLWithPath: directory.child("template"))
        do {
            try makeTemplate(at: template)
            return try (0...stepCount).map { steps in
                let store = URL(fileURLWithPath: directory.child("after-\(steps)"))
                try FileManager.default.copyItem(at: template, to: store)
                let outcome = run(store, syscalls: PosixSyscalls(), upTo: steps)
                if let error = outcome.error { throw error }
                return try snapshot(store)
            }
        } catch {
            Issue.record("the clean reference run failed: \(error)")
            return []
        }
    }()
}
