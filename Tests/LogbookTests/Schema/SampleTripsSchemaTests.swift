import Foundation
import Logbook
import SampleTrips
import Testing

struct SampleTripsSchemaTests {
    @Test func collectsEveryModelReachableFromTrip() throws {
        let schema = Schema([Trip.self])
        #expect(schema.entities.map(\.name) == ["BucketListItem", "LivingAccommodation", "Trip"])
    }

    @Test(arguments: [
        (SampleTripsSchemaV1.self as any VersionedSchema.Type, Schema.Version(1, 0, 0)),
        (SampleTripsSchemaV2.self, Schema.Version(2, 0, 0)),
        (SampleTripsSchemaV3.self, Schema.Version(3, 0, 0)),
    ])
    func versionComesFromTheTypeName(versionedSchema: any VersionedSchema.Type, version: Schema.Version) throws {
        #expect(versionedSchema.versionIdentifier == version)
        #expect(Schema(versionedSchema: versionedSchema).version == version)
    }

    @Test func v1IsTheTalksOriginalModel() throws {
        let schema = Schema(versionedSchema: SampleTripsSchemaV1.self)
        let trip = try #require(schema.entity(named: "Trip"))
        #expect(trip.attributes.map(\.name) == ["destination", "end_date", "name", "start_date"])
        #expect(trip.attribute(named: "name")?.type == .string)
        #expect(trip.attribute(named: "start_date")?.type == .date)
        #expect(trip.attributes.allSatisfy { !$0.isUnique && $0.originalName == nil && !$0.isOptional })
        #expect(trip.uniqueProperties.isEmpty)

        let bucketList = try #require(trip.relationship(named: "bucketList"))
        #expect(bucketList.destination == "BucketListItem")
        #expect(bucketList.isToMany && bucketList.isOptional)
        #expect(bucketList.deleteRule == .nullify)
        #expect(bucketList.inverseName == "trip")

        let accommodation = try #require(trip.relationship(named: "livingAccommodation"))
        #expect(accommodation.destination == "LivingAccommodation")
        #expect(!accommodation.isToMany && accommodation.isOptional)
        #expect(accommodation.deleteRule == .nullify)
        #expect(accommodation.inverseName == "trip")
    }

    @Test(arguments: [
        SampleTripsSchemaV1.self as any VersionedSchema.Type, SampleTripsSchemaV2.self, SampleTripsSchemaV3.self,
    ])
    func bucketListItemsAndAccommodationsAreTheSameInEveryVersion(versionedSchema: any VersionedSchema.Type) throws {
        let schema = Schema(versionedSchema: versionedSchema)
        let item = try #require(schema.entity(named: "BucketListItem"))
        #expect(item.attributes.map(\.name) == ["details", "hasReservation", "isInPlan", "title"])
        #expect(item.attributes.map(\.type) == [.string, .bool, .bool, .string])
        let itemTrip = try #require(item.relationship(named: "trip"))
        #expect(itemTrip.destination == "Trip" && !itemTrip.isToMany && itemTrip.inverseName == "bucketList")

        let accommodation = try #require(schema.entity(named: "LivingAccommodation"))
        #expect(accommodation.attributes.map(\.name) == ["address", "placeName"])
        #expect(accommodation.relationships.map(\.name) == ["trip"])
        #expect(accommodation.relationship(named: "trip")?.inverseName == "livingAccommodation")
    }

    @Test func v2MakesTripNamesUnique() throws {
        let v1 = Schema(versionedSchema: SampleTripsSchemaV1.self)
        let v2 = Schema(versionedSchema: SampleTripsSchemaV2.self)
        let trip = try #require(v2.entity(named: "Trip"))
        #expect(trip.attribute(named: "name")?.isUnique == true)
        #expect(trip.uniqueProperties == ["name"])

        let withoutUnique = Schema.Entity(
            name: trip.name,
            attributes: trip.attributes.map { attribute in
                var copy = attribute
                copy.options = []
                return copy
            },
            relationships: trip.relationships
        )
        #expect(withoutUnique == v1.entity(named: "Trip"))
    }

    @Test func v3RenamesTheDatesCascadesAndLeavesTheViewCountOut() throws {
        let schema = Schema(versionedSchema: SampleTripsSchemaV3.self)
        let trip = try #require(schema.entity(named: "Trip"))
        #expect(trip.attributes.map(\.name) == ["destination", "endDate", "name", "startDate"])
        #expect(trip.attribute(named: "startDate")?.originalName == "start_date")
        #expect(trip.attribute(named: "endDate")?.originalName == "end_date")
        #expect(trip.attribute(named: "name")?.isUnique == true)
        #expect(trip.attribute(named: "tripViews") == nil)
        #expect(trip.relationship(named: "tripViews") == nil)
        #expect(trip.relationship(named: "bucketList")?.deleteRule == .cascade)
        #expect(trip.relationship(named: "livingAccommodation")?.deleteRule == .cascade)
        #expect(trip.relationship(named: "bucketList")?.inverseName == "trip")
        #expect(trip.relationship(named: "livingAccommodation")?.inverseName == "trip")
    }

    @Test func twoVersionsOfOneEntityCannotShareASchema() throws {
        let schema = Schema([SampleTripsSchemaV1.Trip.self, SampleTripsSchemaV3.Trip.self])
        #expect(schema.entities.isEmpty)
        let error = try #require(throws: SchemaError.self) {
            try ModelContainer(for: schema, configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
        }
        #expect(error.code == .duplicateEntity)
        #expect(error.entity == "Trip")
        #expect(error.message.contains("SampleTripsSchemaV1.Trip"))
        #expect(error.message.contains("SampleTripsSchemaV3.Trip"))
    }

    @Test func migrationPlanListsTheTalksVersionsAndStages() {
        #expect(
            SampleTripsMigrationPlan.schemas.map { $0.versionIdentifier } == [
                Schema.Version(1, 0, 0), Schema.Version(2, 0, 0), Schema.Version(3, 0, 0),
            ]
        )
        let stages = SampleTripsMigrationPlan.stages
        #expect(stages.count == 2)
        guard case .custom(let from, let to, let willMigrate, let didMigrate) = stages[0] else {
            Issue.record("V1 to V2 is a custom stage")
            return
        }
        #expect(from == SampleTripsSchemaV1.self && to == SampleTripsSchemaV2.self)
        #expect(willMigrate != nil && didMigrate == nil)
        guard case .lightweight = stages[1] else {
            Issue.record("V2 to V3 is a lightweight stage")
            return
        }
        #expect(stages[1].fromVersion == SampleTripsSchemaV2.self && stages[1].toVersion == SampleTripsSchemaV3.self)
    }

    @Test func newTripsStartWithTheirDeclaredDefaults() {
        let trip = Trip(name: "Lisbon", destination: "Portugal", startDate: .now, endDate: .now)
        #expect(trip.bucketList == [])
        #expect(trip.livingAccommodation == nil)
        #expect(trip.tripViews == 0)
    }
}
