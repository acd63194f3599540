import Foundation
import GRDB
import SampleTripsData

// The SampleTrips records as a GRDB user writes them: Codable structs with auto-incremented ids,
// `Columns` from their coding keys, and associations in both directions.

/// A trip (current schema).
struct TripRecord: Codable, Identifiable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "trip"

    var id: Int64?
    var name: String
    var destination: String
    var startDate: Date
    var endDate: Date

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let destination = Column(CodingKeys.destination)
        static let startDate = Column(CodingKeys.startDate)
        static let endDate = Column(CodingKeys.endDate)
    }

    static let bucketList = hasMany(BucketListItemRecord.self).forKey("bucketList")
    static let livingAccommodation = hasOne(LivingAccommodationRecord.self).forKey("livingAccommodation")

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension TripRecord {
    init(_ trip: TripData) {
        self.init(
            id: nil,
            name: trip.name,
            destination: trip.destination,
            startDate: trip.startDate,
            endDate: trip.endDate
        )
    }
}

/// A trip as the V1 schema stores it: snake-case date columns, names not unique.
struct TripRecordV1: Codable, Identifiable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "trip"

    var id: Int64?
    var name: String
    var destination: String
    var start_date: Date
    var end_date: Date

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension TripRecordV1 {
    init(_ trip: TripDataV1) {
        self.init(
            id: nil,
            name: trip.name,
            destination: trip.destination,
            start_date: trip.start_date,
            end_date: trip.end_date
        )
    }
}

/// A bucket-list item; its table is the same in every schema version.
struct BucketListItemRecord: Codable, Identifiable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "bucketListItem"

    var id: Int64?
    var tripId: Int64
    var title: String
    var details: String
    var hasReservation: Bool
    var isInPlan: Bool

    static let trip = belongsTo(TripRecord.self)

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension BucketListItemRecord {
    init(_ item: BucketListItemData, tripId: Int64) {
        self.init(
            id: nil,
            tripId: tripId,
            title: item.title,
            details: item.details,
            hasReservation: item.hasReservation,
            isInPlan: item.isInPlan
        )
    }
}

/// Where the travellers of a trip stay; its table is the same in every schema version.
struct LivingAccommodationRecord: Codable, Identifiable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "livingAccommodation"

    var id: Int64?
    var tripId: Int64
    var address: String
    var placeName: String

    static let trip = belongsTo(TripRecord.self)

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension LivingAccommodationRecord {
    init(_ accommodation: LivingAccommodationData, tripId: Int64) {
        self.init(id: nil, tripId: tripId, address: accommodation.address, placeName: accommodation.placeName)
    }
}

/// A trip with its bucket list and accommodation, as
/// `TripRecord.including(all:).including(optional:)` decodes it.
struct TripInfo: Decodable, FetchableRecord {
    var trip: TripRecord
    var bucketList: [BucketListItemRecord]
    var livingAccommodation: LivingAccommodationRecord?
}

/// A trip with its bucket list, as the first screen of W7 and W8 shows it.
struct FirstScreenTrip: Decodable, FetchableRecord {
    var trip: TripRecord
    var bucketList: [BucketListItemRecord]
}
