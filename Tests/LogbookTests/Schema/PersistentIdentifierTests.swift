import Foundation
import Testing

@testable import Logbook

struct PersistentIdentifierTests {
    @Test func ordersByEntityThenTemporaryFirstThenNumber() {
        let temporary = Self.temporary(entityName: "Trip")
        let identifiers = [
            PersistentIdentifier(entityName: "Trip", number: 2),
            PersistentIdentifier(entityName: "Trip", number: 1),
            temporary,
            PersistentIdentifier(entityName: "Item", number: 9),
        ]
        #expect(
            identifiers.sorted() == [
                PersistentIdentifier(entityName: "Item", number: 9),
                temporary,
                PersistentIdentifier(entityName: "Trip", number: 1),
                PersistentIdentifier(entityName: "Trip", number: 2),
            ]
        )
    }

    @Test func temporaryIdentifiersNeverRepeat() {
        let identifiers = (0..<100).map { _ in Self.temporary(entityName: "Trip") }
        #expect(Set(identifiers).count == 100)
        let allTemporary = identifiers.allSatisfy(\.isTemporary)
        #expect(allTemporary)
    }

    /// A new temporary identifier, as a model's storage makes one.
    private static func temporary(entityName: String) -> PersistentIdentifier {
        PersistentIdentifier(
            entityName: entityName,
            number: PersistentIdentifier.nextTemporaryNumber(),
            isTemporary: true
        )
    }

    @Test func survivesJSON() throws {
        let identifier = PersistentIdentifier(entityName: "Trip", number: 42)
        let decoded = try JSONDecoder().decode(PersistentIdentifier.self, from: try JSONEncoder().encode(identifier))
        #expect(decoded == identifier)
        #expect(identifier.description == "Trip#42")
    }
}

struct SchemaVersionTests {
    @Test(arguments: [
        ("SampleTripsSchemaV3", Schema.Version(3, 0, 0)),
        ("AppSchemaV2_1", Schema.Version(2, 1, 0)),
        ("V1_2_3", Schema.Version(1, 2, 3)),
        ("SchemaV10", Schema.Version(10, 0, 0)),
    ])
    func readsTheVersionAtTheEndOfATypeName(name: String, version: Schema.Version) {
        #expect(Schema.Version(versionSuffixOf: name) == version)
    }

    @Test(arguments: ["Schema", "SchemaV", "SchemaVx", "SchemaV1_", "SchemaV1_2_3_4", "SchemaV١"])
    func findsNoVersionInOtherNames(name: String) {
        #expect(Schema.Version(versionSuffixOf: name) == nil)
    }

    @Test func versionsOrderByMajorMinorPatch() {
        #expect(Schema.Version(1, 9, 9) < Schema.Version(2, 0, 0))
        #expect(Schema.Version(2, 0, 1) > Schema.Version(2, 0, 0))
        #expect(Schema.Version(2, 1, 0).description == "2.1.0")
    }
}
