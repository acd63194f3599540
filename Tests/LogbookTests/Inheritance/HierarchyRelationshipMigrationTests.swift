import Foundation
import Logbook
import Testing

/// A hierarchy whose base class has a relationship, then a release that renames it and adds an
/// attribute to the base class.
enum CrewV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Crew.self, Trip.self, BusinessTrip.self] }

    @Model
    final class Crew {
        var name: String
        var trips: [Trip] = []

        init(name: String) {
            self.name = name
        }
    }

    @Model
    class Trip {
        var name: String
        var crew: Crew?

        init(name: String) {
            self.name = name
        }
    }

    @Model
    final class BusinessTrip: Trip {
        var perdiem: Double

        init(name: String, perdiem: Double) {
            self.perdiem = perdiem
            super.init(name: name)
        }
    }
}

enum CrewV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Crew.self, Trip.self, BusinessTrip.self] }

    @Model
    final class Crew {
        var name: String
        var trips: [Trip] = []

        init(name: String) {
            self.name = name
        }
    }

    @Model
    class Trip {
        var name: String
        var note: String = "none"
        @Relationship(originalName: "crew") var team: Crew?

        init(name: String) {
            self.name = name
        }
    }

    @Model
    final class BusinessTrip: Trip {
        var perdiem: Double

        init(name: String, perdiem: Double) {
            self.perdiem = perdiem
            super.init(name: name)
        }
    }
}

enum CrewPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [CrewV1.self, CrewV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: CrewV1.self, toVersion: CrewV2.self)] }
}

/// Relationships in a hierarchy through a migration plan.
struct HierarchyRelationshipMigrationTests {
    private func container(_ url: URL) throws -> ModelContainer {
        try ModelContainer(
            for: Schema(versionedSchema: CrewV2.self),
            migrationPlan: CrewPlan.self,
            configurations: [ModelConfiguration(url: url)]
        )
    }

    private func expectMigrated(_ container: ModelContainer) throws {
        let context = ModelContext(container)
        let crew = try #require(try context.fetch(FetchDescriptor<CrewV2.Crew>()).first)
        #expect(crew.trips.map(\.name).sorted() == ["Berlin", "Lisbon"])
        let trips = try context.fetch(FetchDescriptor<CrewV2.Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map { $0.team?.name } == ["Blue", "Blue"])
        #expect(trips.map(\.note) == ["none", "none"])
        #expect((trips.first as? CrewV2.BusinessTrip)?.perdiem == 90)
    }

    @Test func aRenamedInheritedRelationshipKeepsItsTargetsThroughAPlan() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("crew.store"))
        do {
            let context = ModelContext(
                try ModelContainer(
                    for: Schema(versionedSchema: CrewV1.self),
                    configurations: [ModelConfiguration(url: url)]
                )
            )
            let crew = CrewV1.Crew(name: "Blue")
            context.insert(crew)
            crew.trips.append(CrewV1.Trip(name: "Lisbon"))
            crew.trips.append(CrewV1.BusinessTrip(name: "Berlin", perdiem: 90))
            try context.save()
        }
        let first = try container(url)
        try expectMigrated(first)
        try first.checkpoint()
        try expectMigrated(try container(url))
    }
}
