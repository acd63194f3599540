import Foundation
import Logbook
import SampleTrips

/// What the soak writer and checker need of a SampleTrips trip, whatever its schema version.
protocol SoakTrip: PersistentModel {
    associatedtype Item: SoakItem
    associatedtype Stay: SoakStay

    static func make(_ record: SampleData.TripRecord) -> Self
    var name: String { get }
    var destination: String { get set }
    var start: Date { get }
    var end: Date { get }
    var items: [Item] { get set }
    var stay: Stay? { get set }
}

protocol SoakItem: PersistentModel {
    static func make(_ record: SampleData.BucketListRecord) -> Self
    var title: String { get }
    var value: SoakState.Item { get }
    var belongsToATrip: Bool { get }
}

protocol SoakStay: PersistentModel {
    static func make(_ record: SampleData.AccommodationRecord) -> Self
    var value: SoakState.Stay { get }
    var belongsToATrip: Bool { get }
}

extension SoakState {
    /// Reads every trip, item and accommodation of a store through one version's models.
    init<T: SoakTrip>(reading context: ModelContext, as _: T.Type) throws {
        self.init()
        for trip in try context.fetch(FetchDescriptor<T>()) {
            trips[trip.name] = Trip(
                destination: trip.destination,
                startDate: trip.start,
                endDate: trip.end,
                items: Dictionary(trip.items.map { ($0.title, $0.value) }) { first, _ in first },
                stay: trip.stay?.value
            )
        }
        let items = try context.fetch(FetchDescriptor<T.Item>())
        for item in items where !item.belongsToATrip {
            looseItems[item.title] = item.value
        }
        for stay in try context.fetch(FetchDescriptor<T.Stay>()) where !stay.belongsToATrip {
            looseStays[stay.value.address] = stay.value
        }
        let attached = trips.values.reduce(0) { $0 + $1.items.count }
        if attached + looseItems.count != items.count {
            // An item in two trips, or a title twice: make the comparison fail visibly.
            looseItems["(\(items.count) items in the store, \(attached + looseItems.count) accounted for)"] =
                Item(details: "", hasReservation: false, isInPlan: false)
        }
    }
}

// MARK: - Version 1

extension SampleTripsSchemaV1.Trip: SoakTrip {
    static func make(_ record: SampleData.TripRecord) -> SampleTripsSchemaV1.Trip {
        .init(
            name: record.name,
            destination: record.destination,
            start_date: record.startDate,
            end_date: record.endDate
        )
    }
    var start: Date { start_date }
    var end: Date { end_date }
    var items: [SampleTripsSchemaV1.BucketListItem] {
        get { bucketList ?? [] }
        set { bucketList = newValue }
    }
    var stay: SampleTripsSchemaV1.LivingAccommodation? {
        get { livingAccommodation }
        set { livingAccommodation = newValue }
    }
}

extension SampleTripsSchemaV1.BucketListItem: SoakItem {
    static func make(_ record: SampleData.BucketListRecord) -> SampleTripsSchemaV1.BucketListItem {
        .init(
            title: record.title,
            details: record.details,
            hasReservation: record.hasReservation,
            isInPlan: record.isInPlan
        )
    }
    var value: SoakState.Item { .init(details: details, hasReservation: hasReservation, isInPlan: isInPlan) }
    var belongsToATrip: Bool { trip != nil }
}

extension SampleTripsSchemaV1.LivingAccommodation: SoakStay {
    static func make(_ record: SampleData.AccommodationRecord) -> SampleTripsSchemaV1.LivingAccommodation {
        .init(address: record.address, placeName: record.placeName)
    }
    var value: SoakState.Stay { .init(address: address, placeName: placeName) }
    var belongsToATrip: Bool { trip != nil }
}

// MARK: - Version 2 (read only: a migration killed between its two stages leaves a store here)

extension SampleTripsSchemaV2.Trip: SoakTrip {
    static func make(_ record: SampleData.TripRecord) -> SampleTripsSchemaV2.Trip {
        .init(
            name: record.name,
            destination: record.destination,
            start_date: record.startDate,
            end_date: record.endDate
        )
    }
    var start: Date { start_date }
    var end: Date { end_date }
    var items: [SampleTripsSchemaV2.BucketListItem] {
        get { bucketList ?? [] }
        set { bucketList = newValue }
    }
    var stay: SampleTripsSchemaV2.LivingAccommodation? {
        get { livingAccommodation }
        set { livingAccommodation = newValue }
    }
}

extension SampleTripsSchemaV2.BucketListItem: SoakItem {
    static func make(_ record: SampleData.BucketListRecord) -> SampleTripsSchemaV2.BucketListItem {
        .init(
            title: record.title,
            details: record.details,
            hasReservation: record.hasReservation,
            isInPlan: record.isInPlan
        )
    }
    var value: SoakState.Item { .init(details: details, hasReservation: hasReservation, isInPlan: isInPlan) }
    var belongsToATrip: Bool { trip != nil }
}

extension SampleTripsSchemaV2.LivingAccommodation: SoakStay {
    static func make(_ record: SampleData.AccommodationRecord) -> SampleTripsSchemaV2.LivingAccommodation {
        .init(address: record.address, placeName: record.placeName)
    }
    var value: SoakState.Stay { .init(address: address, placeName: placeName) }
    var belongsToATrip: Bool { trip != nil }
}

// MARK: - Version 3

extension SampleTripsSchemaV3.Trip: SoakTrip {
    static func make(_ record: SampleData.TripRecord) -> SampleTripsSchemaV3.Trip {
        .init(name: record.name, destination: record.destination, startDate: record.startDate, endDate: record.endDate)
    }
    var start: Date { startDate }
    var end: Date { endDate }
    var items: [SampleTripsSchemaV3.BucketListItem] {
        get { bucketList ?? [] }
        set { bucketList = newValue }
    }
    var stay: SampleTripsSchemaV3.LivingAccommodation? {
        get { livingAccommodation }
        set { livingAccommodation = newValue }
    }
}

extension SampleTripsSchemaV3.BucketListItem: SoakItem {
    static func make(_ record: SampleData.BucketListRecord) -> SampleTripsSchemaV3.BucketListItem {
        .init(
            title: record.title,
            details: record.details,
            hasReservation: record.hasReservation,
            isInPlan: record.isInPlan
        )
    }
    var value: SoakState.Item { .init(details: details, hasReservation: hasReservation, isInPlan: isInPlan) }
    var belongsToATrip: Bool { trip != nil }
}

extension SampleTripsSchemaV3.LivingAccommodation: SoakStay {
    static func make(_ record: SampleData.AccommodationRecord) -> SampleTripsSchemaV3.LivingAccommodation {
        .init(address: record.address, placeName: record.placeName)
    }
    var value: SoakState.Stay { .init(address: address, placeName: placeName) }
    var belongsToATrip: Bool { trip != nil }
}
