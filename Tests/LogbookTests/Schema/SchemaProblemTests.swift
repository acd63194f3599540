import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// `Schema(_:)` does not throw, as in SwiftData: a problem in the models surfaces when a
/// container is made with the schema, with the message building the schema found.
struct SchemaProblemTests {
    private func configuration(_ kind: StoreKind, _ directory: TemporaryDirectory) -> ModelConfiguration {
        kind == .memory
            ? ModelConfiguration(isStoredInMemoryOnly: true)
            : ModelConfiguration(url: URL(fileURLWithPath: directory.child("ambiguous.store")))
    }

    @Test func buildingASchemaWithAnAmbiguousInverseDoesNotThrow() {
        let schema = Schema([AmbiguousTrip.self])
        #expect(schema.entities.isEmpty)
        #expect(schema.problem?.code == .ambiguousInverse)
    }

    @Test(arguments: StoreKind.allCases)
    func theContainerThrowsTheAmbiguousInverseWithTheSchemasMessage(kind: StoreKind) throws {
        let directory = TemporaryDirectory()
        let schema = Schema([AmbiguousTrip.self])
        let error = try #require(throws: SchemaError.self) {
            try ModelContainer(for: schema, configurations: [configuration(kind, directory)])
        }
        #expect(error.code == .ambiguousInverse)
        #expect(error.entity == "AmbiguousItem")
        #expect(error.property == "trip")
        #expect(
            error.message
                == "AmbiguousItem.trip has 2 candidate inverses: AmbiguousTrip.first, AmbiguousTrip.second; "
                + "name one with 'inverse:' on either side"
        )
        #expect(error.description == schema.problem?.description)
        // Nothing was created on disk.
        #expect(!FileManager.default.fileExists(atPath: directory.child("ambiguous.store")))
    }

    @Test(arguments: StoreKind.allCases)
    func theContainerOfModelTypesThrowsTheSameError(kind: StoreKind) throws {
        let directory = TemporaryDirectory()
        let error = try #require(throws: SchemaError.self) {
            try ModelContainer(for: InverseToAttributeTrip.self, configurations: configuration(kind, directory))
        }
        #expect(error.code == .invalidInverse)
        #expect(error.entity == "InverseToAttributeTrip")
        #expect(error.property == "items")
        #expect(error.message == "The inverse InverseToAttributeItem.name is an attribute, not a relationship")
    }

    @Test func aMigrationPlanWhoseOlderVersionHasAProblemFailsTheContainer() throws {
        let current = Schema(versionedSchema: AmbiguousV1.self)
        #expect(current.problem == nil)
        let error = try #require(throws: SchemaError.self) {
            try ModelContainer(
                for: current,
                migrationPlan: AmbiguousPlan.self,
                configurations: [ModelConfiguration(isStoredInMemoryOnly: true)]
            )
        }
        #expect(error.code == .ambiguousInverse)
        #expect(error.entity == "AmbiguousItem")
    }

    @Test func aSoundSchemaHasNoProblemAndOpensAsBefore() throws {
        let schema = Schema([Trip.self])
        #expect(schema.problem == nil)
        #expect(schema.entities.map(\.name) == ["BucketListItem", "LivingAccommodation", "Trip"])
        let container = try ModelContainer(
            for: schema,
            configurations: [ModelConfiguration(isStoredInMemoryOnly: true)]
        )
        #expect(container.schema == schema)
    }

    @Test func schemasWithDifferentProblemsAreNotEqual() {
        #expect(Schema([AmbiguousTrip.self]) != Schema([InverseToAttributeTrip.self]))
        #expect(Schema([AmbiguousTrip.self]) == Schema([AmbiguousTrip.self]))
    }
}

/// A plan whose older version is ambiguous, and whose current one is sound.
private enum AmbiguousV0: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static let models: [any PersistentModel.Type] = [AmbiguousTrip.self]
}

private enum AmbiguousV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static let models: [any PersistentModel.Type] = [Owner.self]
}

private enum AmbiguousPlan: SchemaMigrationPlan {
    static let schemas: [any VersionedSchema.Type] = [AmbiguousV0.self, AmbiguousV1.self]
    static let stages: [MigrationStage] = [.lightweight(fromVersion: AmbiguousV0.self, toVersion: AmbiguousV1.self)]
}
