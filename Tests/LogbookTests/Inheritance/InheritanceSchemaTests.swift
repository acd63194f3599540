import Foundation
import Logbook
import Testing

/// The schema of a model hierarchy: superentities, subentities, inherited properties, and how
/// the hierarchy is recorded and fingerprinted.
struct InheritanceSchemaTests {
    @Test func eachEntityKnowsItsSuperentityAndSubentities() throws {
        let schema = Schema(Travel.models)
        let trip = try #require(schema.entity(named: "Trip"))
        let business = try #require(schema.entity(named: "BusinessTrip"))
        let conference = try #require(schema.entity(named: "ConferenceTrip"))
        #expect(trip.superentityName == nil)
        #expect(trip.superentity == nil)
        #expect(trip.subentities.map(\.name).sorted() == ["BusinessTrip", "PersonalTrip"])
        #expect(business.superentityName == "Trip")
        #expect(business.superentity?.name == "Trip")
        #expect(business.subentities.map(\.name) == ["ConferenceTrip"])
        #expect(conference.superentity?.name == "BusinessTrip")
        #expect(conference.superentity?.superentity?.name == "Trip")
        #expect(conference.subentities.isEmpty)
    }

    @Test func aSubentityHasItsInheritedAttributesAndItsOwn() throws {
        let schema = Schema(Travel.models)
        let trip = try #require(schema.entity(named: "Trip"))
        let conference = try #require(schema.entity(named: "ConferenceTrip"))
        #expect(trip.attributes.map(\.name) == ["name", "startDate"])
        #expect(conference.attributes.map(\.name) == ["conference", "name", "perdiem", "startDate", "talks"])
    }

    @Test func listingASubclassAloneBringsItsSuperclasses() throws {
        let schema = Schema(Travel.ConferenceTrip.self)
        #expect(schema.entities.map(\.name) == ["BusinessTrip", "ConferenceTrip", "Trip"])
    }

    @Test func theRecordNamesTheSuperentityOnlyForASubentity() throws {
        let schema = Schema(Travel.models)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let trip = String(decoding: try encoder.encode(try #require(schema.entity(named: "Trip"))), as: UTF8.self)
        let personal = String(
            decoding: try encoder.encode(try #require(schema.entity(named: "PersonalTrip"))),
            as: UTF8.self
        )
        #expect(!trip.contains("superentity"))
        #expect(personal.hasSuffix(#","superentity":"Trip"}"#))
        let decoded = try JSONDecoder().decode(Schema.self, from: try encoder.encode(schema))
        #expect(decoded == schema)
        #expect(decoded.entity(named: "ConferenceTrip")?.superentity?.superentity?.name == "Trip")
        #expect(decoded.fingerprint == schema.fingerprint)
    }

    @Test func theHierarchyChangesTheFingerprintButAModelWithoutOneKeepsItsOwn() throws {
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
        let derived = try Schema(
            entities: [
                Schema.Entity(
                    name: "Trip",
                    attributes: [Schema.Attribute(name: "name", type: .string)],
                    relationships: []
                ),
                Schema.Entity(
                    name: "BusinessTrip",
                    attributes: [Schema.Attribute(name: "name", type: .string)],
                    relationships: [],
                    superentityName: "Trip"
                ),
            ],
            version: Schema.Version(1, 0, 0)
        )
        #expect(flat.fingerprint != derived.fingerprint)
        let hierarchySection = Array("logbook-hierarchy-1".utf8)
        #expect(!flat.canonicalEncoding.containsSubsequence(hierarchySection))
        #expect(derived.canonicalEncoding.containsSubsequence(hierarchySection))
        #expect(Array(derived.canonicalEncoding.prefix(flat.canonicalEncoding.count)) == flat.canonicalEncoding)
    }

    @Test func aSuperentityMissingFromTheSchemaIsRefused() throws {
        #expect {
            try Schema(
                entities: [
                    Schema.Entity(
                        name: "BusinessTrip",
                        attributes: [],
                        relationships: [],
                        superentityName: "Trip"
                    )
                ],
                version: Schema.Version(1, 0, 0)
            )
        } throws: { error in
            let error = try #require(error as? SchemaError)
            return error.code == .invalidInheritance && error.entity == "BusinessTrip"
                && error.message == "The superentity 'Trip' is not in the schema; list its model type in the container"
        }
    }

    @Test func aSubentityLackingAnInheritedAttributeIsRefused() throws {
        #expect {
            try Schema(
                entities: [
                    Schema.Entity(
                        name: "Trip",
                        attributes: [Schema.Attribute(name: "name", type: .string)],
                        relationships: []
                    ),
                    Schema.Entity(name: "BusinessTrip", attributes: [], relationships: [], superentityName: "Trip"),
                ],
                version: Schema.Version(1, 0, 0)
            )
        } throws: { error in
            let error = try #require(error as? SchemaError)
            return error.code == .invalidInheritance && error.entity == "BusinessTrip" && error.property == "name"
        }
    }

    @Test func aSubentityLackingAnInheritedRelationshipIsRefused() throws {
        #expect {
            try Schema(
                entities: [
                    Schema.Entity(
                        name: "Trip",
                        attributes: [],
                        relationships: [Schema.Relationship(name: "stops", destination: "Stop", isToMany: true)]
                    ),
                    Schema.Entity(name: "Stop", attributes: [], relationships: []),
                    Schema.Entity(name: "BusinessTrip", attributes: [], relationships: [], superentityName: "Trip"),
                ],
                version: Schema.Version(1, 0, 0)
            )
        } throws: { error in
            let error = try #require(error as? SchemaError)
            return error.code == .invalidInheritance && error.entity == "BusinessTrip" && error.property == "stops"
                && error.message == "The subentity of 'Trip' lacks its relationship 'stops'"
        }
    }

    @Test func aSubentityInheritsItsSuperentitysInverse() throws {
        let schema = try Schema(
            entities: [
                Schema.Entity(
                    name: "Trip",
                    attributes: [],
                    relationships: [
                        Schema.Relationship(name: "stops", destination: "Stop", isToMany: true, inverseName: "trip")
                    ]
                ),
                Schema.Entity(
                    name: "Stop",
                    attributes: [],
                    relationships: [
                        Schema.Relationship(name: "trip", destination: "Trip", isToMany: false, inverseName: "stops")
                    ]
                ),
                Schema.Entity(
                    name: "BusinessTrip",
                    attributes: [],
                    relationships: [
                        Schema.Relationship(name: "stops", destination: "Stop", isToMany: true, inverseName: "trip")
                    ],
                    superentityName: "Trip"
                ),
            ],
            version: Schema.Version(1, 0, 0)
        )
        #expect(schema.entity(named: "BusinessTrip")?.relationship(named: "stops")?.inverseName == "trip")
    }

    @Test func aCycleOfSuperentitiesIsRefused() throws {
        #expect {
            try Schema(
                entities: [
                    Schema.Entity(name: "A", attributes: [], relationships: [], superentityName: "B"),
                    Schema.Entity(name: "B", attributes: [], relationships: [], superentityName: "A"),
                ],
                version: Schema.Version(1, 0, 0)
            )
        } throws: { error in
            (error as? SchemaError)?.code == .invalidInheritance
                && (error as? SchemaError)?.message == "The entity inherits from itself"
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func containsSubsequence(_ other: [UInt8]) -> Bool {
        guard other.count <= count else { return false }
        return (0...(count - other.count)).contains { Array(self[$0..<($0 + other.count)]) == other }
    }
}
