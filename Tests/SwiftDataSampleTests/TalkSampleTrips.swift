// The SampleTrips models and migration plan as the WWDC23 talk "Model your schema with SwiftData"
// shows them on screen, with `import Logbook` for `import SwiftUI` and `import SwiftData`. The
// talk elides the other models of each version ("Define the other models in this version...") and
// the dedupe; both are written here as an app would.

import Foundation
import Logbook

enum SampleTripsSchemaV1: VersionedSchema {
    static var models: [any PersistentModel.Type] {
        [Trip.self, BucketListItem.self, LivingAccommodation.self]
    }

    @Model
    final class Trip {
        var name: String
        var destination: String
        var start_date: Date
        var end_date: Date

        var bucketList: [BucketListItem]? = []
        var livingAccommodation: LivingAccommodation?

        init(name: String, destination: String, start_date: Date, end_date: Date) {
            self.name = name
            self.destination = destination
            self.start_date = start_date
            self.end_date = end_date
        }
    }

    @Model
    final class BucketListItem {
        var title: String
        var details: String
        var hasReservation: Bool
        var isInPlan: Bool
        var trip: Trip?

        init(title: String, details: String, hasReservation: Bool, isInPlan: Bool) {
            self.title = title
            self.details = details
            self.hasReservation = hasReservation
            self.isInPlan = isInPlan
        }
    }

    @Model
    final class LivingAccommodation {
        var address: String
        var placeName: String
        var trip: Trip?

        init(address: String, placeName: String) {
            self.address = address
            self.placeName = placeName
        }
    }
}

enum SampleTripsSchemaV2: VersionedSchema {
    static var models: [any PersistentModel.Type] {
        [Trip.self, BucketListItem.self, LivingAccommodation.self]
    }

    @Model
    final class Trip {
        @Attribute(.unique) var name: String
        var destination: String
        var start_date: Date
        var end_date: Date

        var bucketList: [BucketListItem]? = []
        var livingAccommodation: LivingAccommodation?

        init(name: String, destination: String, start_date: Date, end_date: Date) {
            self.name = name
            self.destination = destination
            self.start_date = start_date
            self.end_date = end_date
        }
    }

    @Model
    final class BucketListItem {
        var title: String
        var details: String
        var hasReservation: Bool
        var isInPlan: Bool
        var trip: Trip?

        init(title: String, details: String, hasReservation: Bool, isInPlan: Bool) {
            self.title = title
            self.details = details
            self.hasReservation = hasReservation
            self.isInPlan = isInPlan
        }
    }

    @Model
    final class LivingAccommodation {
        var address: String
        var placeName: String
        var trip: Trip?

        init(address: String, placeName: String) {
            self.address = address
            self.placeName = placeName
        }
    }
}

enum SampleTripsSchemaV3: VersionedSchema {
    static var models: [any PersistentModel.Type] {
        [Trip.self, BucketListItem.self, LivingAccommodation.self]
    }

    @Model
    final class Trip {
        @Attribute(.unique) var name: String
        var destination: String
        @Attribute(originalName: "start_date") var startDate: Date
        @Attribute(originalName: "end_date") var endDate: Date

        @Relationship(.cascade)
        var bucketList: [BucketListItem]? = []
        @Relationship(.cascade)
        var livingAccommodation: LivingAccommodation?

        @Transient
        var tripViews: Int = 0

        init(name: String, destination: String, startDate: Date, endDate: Date) {
            self.name = name
            self.destination = destination
            self.startDate = startDate
            self.endDate = endDate
        }
    }

    @Model
    final class BucketListItem {
        var title: String
        var details: String
        var hasReservation: Bool
        var isInPlan: Bool
        var trip: Trip?

        init(title: String, details: String, hasReservation: Bool, isInPlan: Bool) {
            self.title = title
            self.details = details
            self.hasReservation = hasReservation
            self.isInPlan = isInPlan
        }
    }

    @Model
    final class LivingAccommodation {
        var address: String
        var placeName: String
        var trip: Trip?

        init(address: String, placeName: String) {
            self.address = address
            self.placeName = placeName
        }
    }
}

typealias Trip = SampleTripsSchemaV3.Trip

enum SampleTripsMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] {
        [SampleTripsSchemaV1.self, SampleTripsSchemaV2.self, SampleTripsSchemaV3.self]
    }

    static var stages: [MigrationStage] {
        [migrateV1toV2, migrateV2toV3]
    }

    static let migrateV1toV2 = MigrationStage.custom(
        fromVersion: SampleTripsSchemaV1.self,
        toVersion: SampleTripsSchemaV2.self,
        willMigrate: { context in
            let trips = try? context.fetch(FetchDescriptor<SampleTripsSchemaV1.Trip>())

            // De-duplicate Trip instances here...
            var seen = Set<String>()
            for trip in trips ?? [] {
                if !seen.insert(trip.name).inserted {
                    context.delete(trip)
                }
            }

            try? context.save()
        },
        didMigrate: nil
    )

    static let migrateV2toV3 = MigrationStage.lightweight(
        fromVersion: SampleTripsSchemaV2.self,
        toVersion: SampleTripsSchemaV3.self
    )
}
