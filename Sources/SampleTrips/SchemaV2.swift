import Logbook

/// The second released schema of SampleTrips: trip names are unique.
///
/// Going from V1 to V2 is a custom stage in the talk, because stores written at V1 may hold
/// several trips with one name (see ``SampleTripsMigrationPlan``).
public enum SampleTripsSchemaV2: VersionedSchema {
    public static var models: [any PersistentModel.Type] {
        [Trip.self, BucketListItem.self, LivingAccommodation.self]
    }

    /// A planned trip, unique by name.
    @Model
    public final class Trip {
        @Attribute(.unique) public var name: String
        public var destination: String
        public var start_date: Date
        public var end_date: Date

        public var bucketList: [BucketListItem]? = []
        public var livingAccommodation: LivingAccommodation?

        /// Creates a trip with no bucket list items and no accommodation.
        public init(name: String, destination: String, start_date: Date, end_date: Date) {
            self.name = name
            self.destination = destination
            self.start_date = start_date
            self.end_date = end_date
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
