import Foundation
import Testing

@testable import Logbook

/// A release with a plain `Trip`, then one that adds subclasses of it.
enum TravelV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Trip.self] }

    @Model
    class Trip {
        var name: String
        var startDate: Date

        init(name: String, startDate: Date) {
            self.name = name
            self.startDate = startDate
        }
    }
}

enum TravelV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Trip.self, BusinessTrip.self] }

    @Model
    class Trip {
        var name: String
        var startDate: Date

        init(name: String, startDate: Date) {
            self.name = name
            self.startDate = startDate
        }
    }

    @Model
    final class BusinessTrip: Trip {
        var perdiem: Double

        init(name: String, startDate: Date, perdiem: Double) {
            self.perdiem = perdiem
            super.init(name: name, startDate: startDate)
        }
    }
}

enum TravelPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [TravelV1.self, TravelV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: TravelV1.self, toVersion: TravelV2.self)] }
}

/// Adding subclasses to a store is a lightweight change, with or without a plan.
struct InheritanceMigrationTests {
    private func writeV1(_ url: URL) throws {
        let container = try ModelContainer(
            for: Schema(versionedSchema: TravelV1.self),
            configurations: [ModelConfiguration(url: url)]
        )
        let context = ModelContext(container)
        context.insert(TravelV1.Trip(name: "Lisbon", startDate: Travel.start))
        try context.save()
    }

    private func check(_ container: ModelContainer) throws {
        let context = ModelContext(container)
        #expect(try context.fetch(FetchDescriptor<TravelV2.Trip>()).map(\.name) == ["Lisbon"])
        context.insert(TravelV2.BusinessTrip(name: "Berlin", startDate: Travel.start, perdiem: 90))
        try context.save()
        let trips = try ModelContext(container).fetch(FetchDescriptor<TravelV2.Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.name) == ["Berlin", "Lisbon"])
        #expect((trips.first as? TravelV2.BusinessTrip)?.perdiem == 90)
    }

    @Test func addingASubclassMigratesWithoutAPlan() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("trips.store"))
        try writeV1(url)
        let difference = SchemaDifference(
            from: Schema(versionedSchema: TravelV1.self),
            to: Schema(versionedSchema: TravelV2.self)
        )
        #expect(difference.isLightweight)
        #expect(difference.description == "BusinessTrip: entity added")
        try check(
            try ModelContainer(
                for: Schema(versionedSchema: TravelV2.self),
                configurations: [ModelConfiguration(url: url)]
            )
        )
        let reopened = try ModelContainer(
            for: Schema(versionedSchema: TravelV2.self),
            configurations: [ModelConfiguration(url: url)]
        )
        let names = try ModelContext(reopened).fetch(FetchDescriptor<TravelV2.Trip>()).map(
            \.persistentModelID.entityName
        )
        #expect(names.sorted() == ["BusinessTrip", "Trip"])
    }

    @Test func aPlanMigratesToAHierarchyAndReopens() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("trips.store"))
        try writeV1(url)
        try check(
            try ModelContainer(
                for: Schema(versionedSchema: TravelV2.self),
                migrationPlan: TravelPlan.self,
                configurations: [ModelConfiguration(url: url)]
            )
        )
        let reopened = try ModelContainer(
            for: Schema(versionedSchema: TravelV2.self),
            migrationPlan: TravelPlan.self,
            configurations: [ModelConfiguration(url: url)]
        )
        #expect(try ModelContext(reopened).fetchCount(FetchDescriptor<TravelV2.Trip>()) == 2)
    }

    @Test func movingAnEntityUnderAnotherNeedsAPlan() throws {
        let flat = try Schema(
            entities: [
                Schema.Entity(
                    name: "Trip",
                    attributes: [Schema.Attribute(name: "name", type: .string)],
                    relationships: []
                ),
                Schema.Entity(
                    name: "BusinessTrip",
                    attributes: [Schema.Attribute(name: "name", type: .string)],
                    relationships: []
                ),
            ],
            version: Schema.Version(1, 0, 0)
        )
        let difference = SchemaDifference(from: flat, to: Schema(versionedSchema: TravelV2.self))
        #expect(!difference.isLightweight)
        #expect(difference.refused.map(\.description).contains("BusinessTrip: superentity none → Trip"))
    }
}
