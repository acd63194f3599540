import Foundation

/// One trip of the SampleTrips domain as plain values, with its bucket list and accommodation.
///
/// The shape is the latest schema of the WWDC23 talk "Model your schema with SwiftData":
/// `Trip(name, destination, startDate, endDate, bucketList, livingAccommodation)`. The inverse
/// relationships (`BucketListItem.trip`, `LivingAccommodation.trip`) are implied by nesting. The
/// values belong to neither library: each side of the benchmark maps them to its own records or
/// models.
public struct TripData: Hashable, Sendable {
    public var name: String
    public var destination: String
    public var startDate: Date
    public var endDate: Date
    public var bucketList: [BucketListItemData]
    public var livingAccommodation: LivingAccommodationData?

    public init(
        name: String,
        destination: String,
        startDate: Date,
        endDate: Date,
        bucketList: [BucketListItemData],
        livingAccommodation: LivingAccommodationData?
    ) {
        self.name = name
        self.destination = destination
        self.startDate = startDate
        self.endDate = endDate
        self.bucketList = bucketList
        self.livingAccommodation = livingAccommodation
    }
}

/// One bucket-list item of a trip.
public struct BucketListItemData: Hashable, Sendable {
    public var title: String
    public var details: String
    public var hasReservation: Bool
    public var isInPlan: Bool

    public init(title: String, details: String, hasReservation: Bool, isInPlan: Bool) {
        self.title = title
        self.details = details
        self.hasReservation = hasReservation
        self.isInPlan = isInPlan
    }
}

/// Where the travellers of a trip stay.
public struct LivingAccommodationData: Hashable, Sendable {
    public var address: String
    public var placeName: String

    public init(address: String, placeName: String) {
        self.address = address
        self.placeName = placeName
    }
}

/// One trip as the first schema of the talk spelled it: dates in snake case, and names that are
/// not yet unique.
///
/// The property names mirror that schema's attributes (`start_date`, `end_date`) on purpose, so
/// that a side maps them one to one.
public struct TripDataV1: Hashable, Sendable {
    public var name: String
    public var destination: String
    public var start_date: Date
    public var end_date: Date
    public var bucketList: [BucketListItemData]
    public var livingAccommodation: LivingAccommodationData?

    public init(
        name: String,
        destination: String,
        start_date: Date,
        end_date: Date,
        bucketList: [BucketListItemData],
        livingAccommodation: LivingAccommodationData?
    ) {
        self.name = name
        self.destination = destination
        self.start_date = start_date
        self.end_date = end_date
        self.bucketList = bucketList
        self.livingAccommodation = livingAccommodation
    }
}
