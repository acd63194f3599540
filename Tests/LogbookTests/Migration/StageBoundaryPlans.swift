import Foundation
import Logbook
import SampleTrips
import Synchronization

// Plans whose V1 → V2 stage edits the trips before V2's unique constraint on `Trip.name` takes
// effect, as the WWDC23 talk's `willMigrate` does.

typealias TripV1 = SampleTripsSchemaV1.Trip
typealias TripV2 = SampleTripsSchemaV2.Trip

/// What the V1 → V2 stage's `didMigrate` of ``DidMigrateEditsPlan`` saw.
let didMigrateSaw = Mutex<[String]>([])

/// The edits ``ScriptedPlan``'s `willMigrate` makes, set by a test before it opens the store.
let willMigrateScript = Mutex<[ScriptedEdit]>([])

/// One edit of a `willMigrate` script. Trips are named by their start date in days after
/// ``boundaryBaseDate``, which no edit changes; items by their title.
enum ScriptedEdit: Sendable, CustomStringConvertible {
    case rename(trip: Int, to: String)
    case setDestination(trip: Int, to: String)
    case delete(trip: Int)
    case moveItem(title: String, toTrip: Int)
    case deleteItem(title: String)

    var description: String {
        switch self {
        case .rename(let trip, let name): "rename \(trip) to \(name)"
        case .setDestination(let trip, let destination): "destination of \(trip) to \(destination)"
        case .delete(let trip): "delete \(trip)"
        case .moveItem(let title, let trip): "move \(title) to \(trip)"
        case .deleteItem(let title): "delete item \(title)"
        }
    }
}

let boundaryBaseDate = Date(timeIntervalSince1970: 1_780_000_000)

/// The day after ``boundaryBaseDate`` on which a date falls.
func dayNumber(_ date: Date) -> Int {
    Int((date.timeIntervalSince(boundaryBaseDate) / 86_400).rounded())
}

/// The talk's two stages, with these closures in the custom V1 → V2 one.
func boundaryStages(
    willMigrate: (@Sendable (ModelContext) throws -> Void)? = nil,
    didMigrate: (@Sendable (ModelContext) throws -> Void)? = nil
) -> [MigrationStage] {
    [
        .custom(
            fromVersion: SampleTripsSchemaV1.self,
            toVersion: SampleTripsSchemaV2.self,
            willMigrate: willMigrate,
            didMigrate: didMigrate
        ),
        SampleTripsMigrationPlan.migrateV2toV3,
    ]
}

/// The trips sharing a name, by name, each group in fetch order.
private func duplicates(_ trips: [TripV1]) -> [[TripV1]] {
    var groups: [String: [TripV1]] = [:]
    for trip in trips { groups[trip.name, default: []].append(trip) }
    return groups.values.filter { $0.count > 1 }
}

/// Calls `handle` with each trip that shares its name with a trip ending later, and that trip,
/// then saves: the part of a `willMigrate` that dedupes.
private func forEachDuplicate(
    in context: ModelContext,
    _ handle: (_ duplicate: TripV1, _ kept: TripV1) -> Void
) throws {
    for group in duplicates(try context.fetch(FetchDescriptor<TripV1>())) {
        guard let kept = latestEnding(group) else { continue }
        for trip in group where trip !== kept { handle(trip, kept) }
    }
    try context.save()
}

/// The trip of a group that ends last.
private func latestEnding(_ group: [TripV1]) -> TripV1? {
    group.max { $0.end_date < $1.end_date }
}

/// The talk's plan as the talk says it: `willMigrate` deletes the older trip of each duplicated
/// name, keeping the one that ends later, and saves; then the lightweight V2 → V3 stage.
enum TalkDedupePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { SampleTripsMigrationPlan.schemas }
    static var stages: [MigrationStage] {
        boundaryStages(willMigrate: { context in
            try forEachDuplicate(in: context) { duplicate, _ in context.delete(duplicate) }
        })
    }
}

/// Like ``TalkDedupePlan``, but the deleted trip's bucket-list items move to the kept trip first.
enum MovingDedupePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { SampleTripsMigrationPlan.schemas }
    static var stages: [MigrationStage] {
        boundaryStages(willMigrate: { context in
            try forEachDuplicate(in: context) { duplicate, kept in
                for item in duplicate.bucketList ?? [] { item.trip = kept }
                context.delete(duplicate)
            }
        })
    }
}

/// `willMigrate` renames the earlier-ending trip of each duplicated name, so both survive.
enum RenamingPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { SampleTripsMigrationPlan.schemas }
    static var stages: [MigrationStage] {
        boundaryStages(willMigrate: { context in
            try forEachDuplicate(in: context) { duplicate, _ in duplicate.name += " (earlier)" }
        })
    }
}

/// No `willMigrate`: V2's constraint folds the duplicates; `didMigrate` then sees V2's trips,
/// records their names and marks every destination.
enum DidMigrateEditsPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { SampleTripsMigrationPlan.schemas }
    static var stages: [MigrationStage] {
        boundaryStages(didMigrate: { context in
            let trips = try context.fetch(FetchDescriptor<TripV2>())
            didMigrateSaw.withLock { $0 = trips.map(\.name) }
            for trip in trips { trip.destination += " ✓" }
            try context.save()
        })
    }
}

/// `willMigrate` runs the edits of ``willMigrateScript``.
enum ScriptedPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { SampleTripsMigrationPlan.schemas }
    static var stages: [MigrationStage] {
        boundaryStages(willMigrate: { context in
            let script = willMigrateScript.withLock { $0 }
            for edit in script {
                let trips = try context.fetch(FetchDescriptor<TripV1>())
                func trip(_ day: Int) -> TripV1? { trips.first { dayNumber($0.start_date) == day } }
                let items = try context.fetch(FetchDescriptor<SampleTripsSchemaV1.BucketListItem>())
                func item(_ title: String) -> SampleTripsSchemaV1.BucketListItem? {
                    items.first { $0.title == title }
                }
                switch edit {
                case .rename(let day, let name): trip(day)?.name = name
                case .setDestination(let day, let destination): trip(day)?.destination = destination
                case .delete(let day): if let trip = trip(day) { context.delete(trip) }
                case .moveItem(let title, let day):
                    if let item = item(title), let trip = trip(day) { item.trip = trip }
                case .deleteItem(let title): if let item = item(title) { context.delete(item) }
                }
            }
            try context.save()
        })
    }
}
