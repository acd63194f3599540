import Foundation
import SampleTrips
import Testing

@testable import Logbook

struct SchemaFingerprintTests {
    /// The fingerprints of the three SampleTrips versions. They must never change: stores
    /// record them, and a different value for the same declarations would make a store look
    /// written by an unknown schema.
    @Test(arguments: [
        (SampleTripsSchemaV1.self as any VersionedSchema.Type, "V1"),
        (SampleTripsSchemaV2.self, "V2"),
        (SampleTripsSchemaV3.self, "V3"),
    ])
    func sampleTripsFingerprintsArePinned(versionedSchema: any VersionedSchema.Type, label: String) throws {
        let pinned = [
            "V1": "263ff5b2cf6a2cf1cdbba7db354e3e2b09f0c37c95bfa0b94de383ea04c9a669",
            "V2": "10a4e0a6819d5f191d967cec78f741feb1a349b6b3dae0ea1086040023e9102a",
            "V3": "b22eb2dd903b5ed7a5f7110d15f85caae53ed8b3e531edda37a66a024728fcee",
        ]
        let schema = Schema(versionedSchema: versionedSchema)
        #expect(schema.fingerprint.hexString == pinned[label])
    }

    @Test func everySampleTripsVersionHasItsOwnFingerprint() throws {
        let fingerprints = [SampleTripsSchemaV1.self, SampleTripsSchemaV2.self, SampleTripsSchemaV3.self]
            .map { (versionedSchema: any VersionedSchema.Type) in
                Schema(versionedSchema: versionedSchema).fingerprint
            }
        #expect(Set(fingerprints).count == 3)
    }

    @Test func fingerprintIsAHexSHA256() throws {
        let fingerprint = Schema(versionedSchema: SampleTripsSchemaV3.self).fingerprint
        #expect(fingerprint.bytes.count == 32)
        #expect(fingerprint.hexString.count == 64)
        #expect(fingerprint.hexString.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(fingerprint.description == fingerprint.hexString)
    }

    @Test func declarationOrderTransientPropertiesAndCommentsDoNotCount() throws {
        let inOrder = Schema([DeclaredInOrder.Note.self]).fingerprint
        #expect(Schema([DeclaredInAnotherOrder.Note.self]).fingerprint == inOrder)
        #expect(Schema([DeclaredWithTransientAndComments.Note.self]).fingerprint == inOrder)
    }

    @Test func theVersionLabelDoesNotCount() throws {
        let first = Schema([Trip.self], version: Schema.Version(1, 0, 0))
        let second = Schema([Trip.self], version: Schema.Version(4, 2, 0))
        #expect(first.fingerprint == second.fingerprint)
        #expect(first != second)
    }

    @Test func theOrderModelsAreListedInDoesNotCount() throws {
        let forward = Schema([Trip.self, BucketListItem.self, LivingAccommodation.self])
        let backward = Schema([LivingAccommodation.self, BucketListItem.self, Trip.self])
        #expect(forward == backward)
        #expect(forward.fingerprint == backward.fingerprint)
    }

    /// One change of each kind the talk counts as a schema change, applied to a base schema.
    static let changes: [(String, @Sendable (inout [Schema.Entity]) -> Void)] = [
        (
            "entity name",
            {
                $0[1].name = "Journey"
                $0[0] = $0[0].renamingDestination(to: "Journey")
            }
        ),
        ("attribute name", { $0[1] = $0[1].updatingAttribute("name") { $0.name = "title" } }),
        ("attribute type", { $0[1] = $0[1].updatingAttribute("nights") { $0.type = .int64 } }),
        ("optionality", { $0[1] = $0[1].updatingAttribute("name") { $0.type = .optional(.string) } }),
        ("unique", { $0[1] = $0[1].updatingAttribute("name") { $0.options = [.unique] } }),
        ("other option", { $0[1] = $0[1].updatingAttribute("name") { $0.options = [.externalStorage] } }),
        ("original name", { $0[1] = $0[1].updatingAttribute("name") { $0.originalName = "title" } }),
        ("attribute hash modifier", { $0[1] = $0[1].updatingAttribute("name") { $0.hashModifier = "2" } }),
        ("new attribute", { $0[1] = $0[1].adding(Schema.Attribute(name: "notes", type: .optional(.string))) }),
        ("delete rule", { $0[1] = $0[1].updatingRelationship("items") { $0.deleteRule = .cascade } }),
        ("to-one", { $0[1] = $0[1].updatingRelationship("items") { $0.isToMany = false } }),
        ("relationship optionality", { $0[1] = $0[1].updatingRelationship("items") { $0.isOptional = false } }),
        ("minimum count", { $0[1] = $0[1].updatingRelationship("items") { $0.minimumModelCount = 1 } }),
        ("maximum count", { $0[1] = $0[1].updatingRelationship("items") { $0.maximumModelCount = 5 } }),
        (
            "inverse",
            {
                $0[0] = $0[0].updatingRelationship("trip") { $0.inverseName = nil }
                $0[1] = $0[1].updatingRelationship("items") { $0.inverseName = nil }
            }
        ),
        ("relationship original name", { $0[1] = $0[1].updatingRelationship("items") { $0.originalName = "list" } }),
        ("relationship option", { $0[0] = $0[0].updatingRelationship("trip") { $0.options = [.unique] } }),
        ("relationship hash modifier", { $0[1] = $0[1].updatingRelationship("items") { $0.hashModifier = "x" } }),
    ]

    @Test(arguments: changes.map(\.0))
    func everySchemaChangeChangesTheFingerprint(change: String) throws {
        let base = Self.baseEntities()
        var changed = base
        let apply = try #require(Self.changes.first { $0.0 == change }?.1)
        apply(&changed)
        #expect(changed != base)
        let before = try Schema(entities: base, version: Schema.Version(1, 0, 0)).fingerprint
        let after = try Schema(entities: changed, version: Schema.Version(1, 0, 0)).fingerprint
        #expect(before != after)
    }

    @Test func defaultValuesDoNotCount() throws {
        var changed = Self.baseEntities()
        changed[1] = changed[1].updatingAttribute("name") { $0.hasDefaultValue = true }
        let version = Schema.Version(1, 0, 0)
        let before = try Schema(entities: Self.baseEntities(), version: version)
        let after = try Schema(entities: changed, version: version)
        #expect(before != after)
        #expect(before.fingerprint == after.fingerprint)
    }

    @Test func fingerprintSurvivesJSON() throws {
        let schema = Schema(versionedSchema: SampleTripsSchemaV3.self)
        let decoded = try JSONDecoder().decode(Schema.self, from: try JSONEncoder().encode(schema))
        #expect(decoded == schema)
        #expect(decoded.fingerprint == schema.fingerprint)
        let fingerprint = try JSONDecoder().decode(
            Schema.Fingerprint.self,
            from: try JSONEncoder().encode(schema.fingerprint)
        )
        #expect(fingerprint == schema.fingerprint)
    }

    // MARK: - SHA-256

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
                + "mnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func sha256MatchesTheStandardsTestVectors(message: String, digest: String) {
        let bytes = SHA256.hash(Array(message.utf8))
        #expect(Schema.Fingerprint(bytes: bytes).hexString == digest)
    }

    // MARK: - Helpers

    /// A trip with nights, a name, and items pointing back to it.
    static func baseEntities() -> [Schema.Entity] {
        [
            Schema.Entity(
                name: "Item",
                attributes: [Schema.Attribute(name: "title", type: .string)],
                relationships: [
                    Schema.Relationship(name: "trip", destination: "Trip", isToMany: false, inverseName: "items")
                ]
            ),
            Schema.Entity(
                name: "Trip",
                attributes: [
                    Schema.Attribute(name: "name", type: .string), Schema.Attribute(name: "nights", type: .int),
                ],
                relationships: [
                    Schema.Relationship(name: "items", destination: "Item", isToMany: true, inverseName: "trip")
                ]
            ),
        ]
    }
}

extension Schema.Entity {
    func updatingAttribute(_ name: String, _ change: (inout Schema.Attribute) -> Void) -> Schema.Entity {
        Schema.Entity(
            name: self.name,
            attributes: attributes.map { attribute in
                var copy = attribute
                if copy.name == name { change(&copy) }
                return copy
            },
            relationships: relationships
        )
    }

    func updatingRelationship(_ name: String, _ change: (inout Schema.Relationship) -> Void) -> Schema.Entity {
        Schema.Entity(
            name: self.name,
            attributes: attributes,
            relationships: relationships.map { relationship in
                var copy = relationship
                if copy.name == name { change(&copy) }
                return copy
            }
        )
    }

    func adding(_ attribute: Schema.Attribute) -> Schema.Entity {
        Schema.Entity(name: name, attributes: attributes + [attribute], relationships: relationships)
    }

    func renamingDestination(to destination: String) -> Schema.Entity {
        Schema.Entity(
            name: name,
            attributes: attributes,
            relationships: relationships.map { relationship in
                var copy = relationship
                copy.destination = destination
                return copy
            }
        )
    }
}
