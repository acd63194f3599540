import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// Configurations that do not fit together: refused when the container is made, naming the
/// entities and configurations, with nothing opened.
struct SeveralStoresConfigurationTests {
    /// Makes a container of `configurations` and returns its error, which must be a
    /// ``LogbookError``.
    private func refusal(
        _ configurations: [ModelConfiguration],
        schema: Schema = TwoStores.schema,
        plan: (any SchemaMigrationPlan.Type)? = nil
    ) throws -> LogbookError {
        let error = #expect(throws: LogbookError.self) {
            _ = try ModelContainer(for: schema, migrationPlan: plan, configurations: configurations)
        }
        return try #require(error)
    }

    @Test func anEntityInTwoConfigurationsIsRefused() throws {
        let stores = TwoStores()
        var other = stores.catalogue()
        other.name = "Atlas"
        other.url = URL(fileURLWithPath: stores.directory.child("atlas.store"))
        let error = try refusal([stores.user(), stores.catalogue(), other])
        #expect(error.code == .invalidConfiguration)
        #expect(
            error.message
                == "entity 'AtlasCountry' is named by configurations 'Catalogue' (\(stores.catalogueURL.path)) and 'Atlas' (\(other.url.path)): each entity lives in exactly one store"
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: stores.directory.path).isEmpty, "nothing opened")
    }

    @Test func twoConfigurationsOnOneDirectoryAreRefused() throws {
        let stores = TwoStores()
        var catalogue = stores.catalogue()
        catalogue.url = URL(fileURLWithPath: stores.directory.child("sub/../user.store"))
        let error = try refusal([stores.user(), catalogue])
        #expect(error.code == .invalidConfiguration)
        #expect(error.message.hasPrefix("configurations 'User' (\(stores.userURL.path)) and 'Catalogue' ("))
        #expect(
            error.message.hasSuffix(
                "use the same store directory: each configuration of a container needs a store of its own"
            )
        )
    }

    @Test func twoConfigurationsWithOneNameAreRefused() throws {
        let stores = TwoStores()
        var catalogue = stores.catalogue()
        catalogue.name = "User"
        let error = try refusal([stores.user(), catalogue])
        #expect(error.code == .invalidConfiguration)
        #expect(error.message.hasPrefix("two configurations are named 'User'"))
    }

    @Test func twoConfigurationsWithoutASchemaAreRefused() throws {
        let stores = TwoStores()
        var second = stores.user()
        second.name = "Second"
        second.url = stores.catalogueURL
        let error = try refusal([stores.user(), second])
        #expect(error.code == .invalidConfiguration)
        #expect(
            error.message
                == "configurations 'User' (\(stores.userURL.path)) and 'Second' (\(stores.catalogueURL.path)) both have no schema, and each would hold every entity the others do not name: give all but one of them a schema"
        )
    }

    @Test func entitiesNoConfigurationHoldsAreRefused() throws {
        let stores = TwoStores()
        let cache = ModelConfiguration("Cache", schema: Schema([MapTileCache.self]), isStoredInMemoryOnly: true)
        let error = try refusal(
            [stores.catalogue(), cache],
            schema: Schema([Trip.self, AtlasCountry.self, MapTileCache.self])
        )
        #expect(error.code == .invalidConfiguration)
        #expect(
            error.message
                == "no configuration holds 'BucketListItem', 'LivingAccommodation', 'Trip': name them in a configuration's schema, or add a configuration without a schema to hold them"
        )
    }

    @Test func aConfigurationNamingAnEntityOutsideTheContainersSchemaIsRefused() throws {
        let stores = TwoStores()
        let error = try refusal([stores.user(), stores.catalogue()], schema: Schema([Trip.self]))
        #expect(error.code == .invalidConfiguration)
        #expect(error.message.contains("names entity 'AtlasCountry', which is not in the container's schema"))
    }

    @Test func aConfigurationLeftWithoutEntitiesIsRefused() throws {
        let stores = TwoStores()
        var everything = stores.catalogue()
        everything.schema = TwoStores.schema
        let error = try refusal([stores.user(), everything])
        #expect(error.code == .invalidConfiguration)
        #expect(error.message.hasPrefix("configuration 'User' (\(stores.userURL.path)) holds no entity"))
    }

    @Test func aRelationshipBetweenStoresIsRefusedNamingBothEnds() throws {
        let stores = TwoStores()
        let error = try refusal([stores.user(), stores.catalogue()], schema: Schema([Trip.self, TravelNote.self]))
        #expect(error.code == .invalidConfiguration)
        #expect(
            error.message
                == "relationship 'country' of 'TravelNote' (configuration 'User' (\(stores.userURL.path))) leads to 'AtlasCountry' (configuration 'Catalogue' (\(stores.catalogueURL.path))): a relationship cannot cross stores, so keep both entities in one configuration"
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: stores.directory.path).isEmpty, "nothing opened")
    }

    @Test func aSubclassInAnotherStoreThanItsClassIsRefused() throws {
        let directory = TemporaryDirectory()
        let (tripsURL, businessURL) = (
            URL(fileURLWithPath: directory.child("trips.store")),
            URL(fileURLWithPath: directory.child("business.store"))
        )
        let trips = ModelConfiguration("Trips", schema: Schema([Travel.Trip.self]), url: tripsURL)
        let business = ModelConfiguration("Business", url: businessURL)
        let error = try refusal([trips, business], schema: Schema(Travel.models))
        #expect(error.code == .invalidConfiguration)
        #expect(
            error.message.hasSuffix(
                "is a subclass of 'Trip' (configuration 'Trips' (\(tripsURL.path))): a model class and its subclasses live in one store, so keep them in one configuration"
            )
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "nothing opened")
    }

    @Test func aConfigurationAsOfATokenIsRefused() throws {
        let stores = TwoStores()
        var user = stores.user()
        user.asOf = DefaultHistoryToken(sequence: 1)
        let error = try refusal([user, stores.catalogue()])
        #expect(error.code == .unsupported)
        #expect(error.message.hasPrefix("configuration 'User' (\(stores.userURL.path)) reads as of a history token"))
    }

    @Test func aPlanWithACustomStageIsRefusedBeforeAnyStoreOpens() throws {
        let stores = TwoStores()
        let error = try refusal(
            [stores.user(), stores.catalogue()],
            schema: Schema(versionedSchema: AtlasTripsV3.self),
            plan: AtlasTripsCustomPlan.self
        )
        #expect(error.code == .unsupported)
        #expect(error.message.hasPrefix("AtlasTripsCustomPlan has a custom stage"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: stores.directory.path).isEmpty, "nothing opened")
    }

    @Test func aStoreThatFailsToOpenClosesTheOnesOpenedBeforeIt() throws {
        let stores = TwoStores()
        // A read-only catalogue that does not exist yet.
        let error = try refusal([stores.user(), stores.catalogue(allowsSave: false)])
        #expect(error.code == .notAStore)
        // The user's store was opened and closed again: another container opens it at once.
        let context = ModelContext(try ModelContainer(for: Trip.self, configurations: stores.user()))
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 0)
    }

    @Test func aMigrationPlanAppliesToEachStoresPartOfTheModels() throws {
        let stores = TwoStores()
        do {
            let context = ModelContext(
                try ModelContainer(
                    for: Schema(versionedSchema: AtlasTripsV1.self),
                    configurations: [stores.user(), stores.catalogue()]
                )
            )
            for destination in ["Rome", "Milan"] {
                context.insert(
                    SampleTripsSchemaV1.Trip(
                        name: "Italy",
                        destination: destination,
                        start_date: baseDate,
                        end_date: baseDate + 7 * day
                    )
                )
            }
            context.insert(AtlasCountry(code: "IT", name: "Italy"))
            try context.save()
        }
        let container = try ModelContainer(
            for: Schema(versionedSchema: AtlasTripsV3.self),
            migrationPlan: AtlasTripsPlan.self,
            configurations: [stores.user(), stores.catalogue()]
        )
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<Trip>())
        #expect(trips.map(\.name) == ["Italy"], "V2's unique name folds the two trips while replaying")
        #expect(trips.first?.destination == "Milan")
        #expect(try context.fetch(FetchDescriptor<AtlasCountry>()).map(\.name) == ["Italy"])
        // The plan changed only the user's models: the catalogue recorded no new schema.
        #expect(try recordedSchemas(stores.catalogueURL) == [["AtlasCountry"]])
        #expect(try recordedSchemas(stores.userURL).count == 3)
        #expect(try recordedSchemas(stores.userURL).allSatisfy { !$0.contains("AtlasCountry") })
    }
}

// MARK: - A plan over SampleTrips and the catalogue

enum AtlasTripsV1: VersionedSchema {
    static var models: [any PersistentModel.Type] { [SampleTripsSchemaV1.Trip.self, AtlasCountry.self] }
}

enum AtlasTripsV2: VersionedSchema {
    static var models: [any PersistentModel.Type] { [SampleTripsSchemaV2.Trip.self, AtlasCountry.self] }
}

enum AtlasTripsV3: VersionedSchema {
    static var models: [any PersistentModel.Type] { [SampleTripsSchemaV3.Trip.self, AtlasCountry.self] }
}

enum AtlasTripsPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [AtlasTripsV1.self, AtlasTripsV2.self, AtlasTripsV3.self] }
    static var stages: [MigrationStage] {
        [
            .lightweight(fromVersion: AtlasTripsV1.self, toVersion: AtlasTripsV2.self),
            .lightweight(fromVersion: AtlasTripsV2.self, toVersion: AtlasTripsV3.self),
        ]
    }
}

enum AtlasTripsCustomPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [AtlasTripsV1.self, AtlasTripsV2.self, AtlasTripsV3.self] }
    static var stages: [MigrationStage] {
        [
            .custom(fromVersion: AtlasTripsV1.self, toVersion: AtlasTripsV2.self, willMigrate: nil, didMigrate: nil),
            .lightweight(fromVersion: AtlasTripsV2.self, toVersion: AtlasTripsV3.self),
        ]
    }
}
