import Logbook

/// The third released schema of SampleTrips, and the current one: the dates lose their
/// underscores (keeping their stored values through `originalName`), a trip's bucket list and
/// accommodation are deleted with it, and the number of times a trip was viewed is kept in
/// memory only.
public enum SampleTripsSchemaV3: VersionedSchema {
    public static var models: [any PersistentModel.Type] {
        [Trip.self, BucketListItem.self, LivingAccommodation.self]
    }

    /// A planned trip, unique by name.
    @Model
    public final class Trip {
        @Attribute(.unique) public var name: String
        public var destination: String
        @Attribute(originalName: "start_date") public var startDate: Date
        @Attribute(originalName: "end_date") public var endDate: Date

        @Relationship(.cascade)
        public var bucketList: [BucketListItem]? = []

        @Relationship(.cascade)
        public var livingAccommodation: LivingAccommodation?

        /// How many times the trip was viewed since it was created or fetched; not persisted.
        @Transient
        public var tripViews: Int = 0

        /// Creates a trip with no bucket list items and no accommodation.
        public init(name: String, destination: String, startDate: Date, endDate: Date) {
            self.name = name
            self.destination = destination
            self.startDate = startDate
            self.endDate = endDate
        }
    }

    /// Something to do on a trip.
    @Model
    public final class BucketListItem {
        public var title: String
        public var details: String
        public var hasReservation: Bool
        public var isInPlan: Bool

        public var trip: Trip?

        /// Creates an item that belongs to no trip yet.
        public init(title: String, details: String, hasReservation: Bool, isInPlan: Bool) {
            self.title = title
            self.details = details
            self.hasReservation = hasReservation
            self.isInPlan = isInPlan
        }
    }

    /// Where the travellers stay.
    @Model
    public final class LivingAccommodation {
        public var address: String
        public var placeName: String

        public var trip: Trip?

        /// Creates an accommodation that belongs to no trip yet.
        public init(address: String, placeName: String) {
            self.address = address
            self.placeName = placeName
        }
    }
}

/// A trip, at the current schema version.
public typealias Trip = SampleTripsSchemaV3.Trip
/// A bucket list item, at the current schema version.
public typealias BucketListItem = SampleTripsSchemaV3.BucketListItem
/// A living accommodation, at the current schema version.
public typealias LivingAccommodation = SampleTripsSchemaV3.LivingAccommodation
