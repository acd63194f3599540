import Foundation
import SampleTrips

/// The values a store should hold, independent of any schema version: what the soak writer's
/// saves add up to, and what the checker reads back.
struct SoakState: Equatable, CustomStringConvertible {
    struct Item: Equatable {
        var details: String
        var hasReservation: Bool
        var isInPlan: Bool
    }

    struct Stay: Equatable {
        var address: String
        var placeName: String
    }

    struct Trip: Equatable {
        var destination: String
        var startDate: Date
        var endDate: Date
        /// Bucket-list items by title.
        var items: [String: Item]
        var stay: Stay?
    }

    /// Trips by name.
    var trips: [String: Trip] = [:]
    /// Bucket-list items that belong to no trip, by title.
    var looseItems: [String: Item] = [:]
    /// Accommodations that belong to no trip, by address.
    var looseStays: [String: Stay] = [:]

    var description: String {
        let items = trips.values.reduce(0) { $0 + $1.items.count }
        return "\(trips.count) trips, \(items) items, \(looseItems.count) loose items, \(looseStays.count) loose stays"
    }

    /// The first difference from `other`, for a failure report.
    func firstDifference(from other: SoakState) -> String? {
        for name in Set(trips.keys).union(other.trips.keys).sorted() where trips[name] != other.trips[name] {
            return
                "trip \(name): expected \(String(describing: trips[name])), found \(String(describing: other.trips[name]))"
        }
        for title in Set(looseItems.keys).union(other.looseItems.keys).sorted()
        where looseItems[title] != other.looseItems[title] {
            return
                "loose item \(title): expected \(String(describing: looseItems[title])), found \(String(describing: other.looseItems[title]))"
        }
        let expected = looseStays.keys.sorted()
        let found = other.looseStays.keys.sorted()
        return expected == found ? nil : "loose accommodations: expected \(expected), found \(found)"
    }
}

/// One save of the soak writer.
enum SoakOperation {
    /// New trips, some edits of existing ones and some deletions, all in one save.
    case edit(inserts: [SampleData.TripRecord], updates: [Update], deletes: [String])
    /// Reopen the store with the current models through the migration plan.
    case migrate

    struct Update {
        var name: String
        var destination: String
        var newItem: SampleData.BucketListRecord
    }
}

/// The deterministic sequence of saves a soak writer makes in one store: edits at schema
/// version 1, a migration to version 3 through the SampleTrips plan, then edits at version 3.
struct SoakScript {
    let seed: UInt64
    /// The number of the operation that migrates.
    let migrationStep: Int
    /// The number of operations in one store's life.
    let length: Int

    /// The schema version the store is at once `step` operations are done.
    func version(after step: Int) -> Int { step >= migrationStep ? 3 : 1 }

    /// Operation number `step` (1-based), given the state before it.
    func operation(_ step: Int, before state: SoakState) -> SoakOperation {
        if step == migrationStep { return .migrate }
        var random = SplitMix64(seed: seed &+ UInt64(step) &* 0x9E37_79B9_7F4A_7C15)
        let names = state.trips.keys.sorted()
        var chosen = Set<String>()
        func pick() -> String? {
            guard chosen.count < names.count else { return nil }
            while true {
                let name = names[Int(random.next() % UInt64(names.count))]
                if chosen.insert(name).inserted { return name }
            }
        }
        let inserts = (0..<Int(random.next() % 6)).map { index in
            Self.trip(step: step, index: index, random: &random)
        }
        let updates = (0..<Int(random.next() % 4)).compactMap { index -> SoakOperation.Update? in
            pick().map {
                SoakOperation.Update(
                    name: $0,
                    destination: "Destination \(step).\(index)",
                    newItem: Self.item("item-\(step)-u\(index)", random: &random)
                )
            }
        }
        let deletes = (0..<Int(random.next() % 3)).compactMap { _ in pick() }
        return .edit(inserts: inserts, updates: updates, deletes: deletes)
    }

    /// The state once operations 1 through `step` are done.
    func state(after step: Int) -> SoakState {
        var state = SoakState()
        for number in stride(from: 1, through: step, by: 1) {
            apply(operation(number, before: state), at: number, to: &state)
        }
        return state
    }

    /// What an operation does to the values, under the delete rules of the version it is saved at.
    func apply(_ operation: SoakOperation, at step: Int, to state: inout SoakState) {
        guard case .edit(let inserts, let updates, let deletes) = operation else { return }
        for record in inserts {
            state.trips[record.name] = SoakState.Trip(
                destination: record.destination,
                startDate: record.startDate,
                endDate: record.endDate,
                items: Dictionary(uniqueKeysWithValues: record.bucketList.map { ($0.title, SoakState.Item($0)) }),
                stay: record.accommodation.map { SoakState.Stay(address: $0.address, placeName: $0.placeName) }
            )
        }
        for update in updates {
            state.trips[update.name]?.destination = update.destination
            state.trips[update.name]?.items[update.newItem.title] = SoakState.Item(update.newItem)
        }
        for name in deletes {
            guard let trip = state.trips.removeValue(forKey: name) else { continue }
            // Version 1 relationships nullify: the trip's items and accommodation stay behind.
            // Version 3 relationships cascade: they go with the trip.
            if version(after: step) == 1 {
                state.looseItems.merge(trip.items) { old, _ in old }
                if let stay = trip.stay { state.looseStays[stay.address] = stay }
            }
        }
    }

    private static func trip(step: Int, index: Int, random: inout SplitMix64) -> SampleData.TripRecord {
        let start = Date(timeIntervalSince1970: 1_780_000_000 + Double(random.next() % 10_000) * 3_600)
        let items = (0..<Int(random.next() % 4)).map { item("item-\(step)-\(index)-\($0)", random: &random) }
        let stay =
            random.next() % 2 == 0
            ? SampleData.AccommodationRecord(
                address: "\(step) Soak Street, flat \(index)",
                placeName: "Stay \(step).\(index)"
            )
            : nil
        return SampleData.TripRecord(
            name: "trip-\(step)-\(index)",
            destination: "Destination \(random.next() % 50)",
            startDate: start,
            endDate: start.addingTimeInterval(Double(random.next() % 20 + 1) * 86_400),
            bucketList: items,
            accommodation: stay
        )
    }

    private static func item(_ title: String, random: inout SplitMix64) -> SampleData.BucketListRecord {
        SampleData.BucketListRecord(
            title: title,
            details: "details of \(title)",
            hasReservation: random.next() % 2 == 0,
            isInPlan: random.next() % 3 == 0
        )
    }
}

extension SoakState.Item {
    init(_ record: SampleData.BucketListRecord) {
        self.init(details: record.details, hasReservation: record.hasReservation, isInPlan: record.isInPlan)
    }
}

/// A small, fast, seedable generator, so that the writer and the checker agree on every save.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
