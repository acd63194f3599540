import Testing

@testable import Logbook

struct InverseResolutionTests {
    @Test func twoCandidatesAreAnErrorNamingBothSides() throws {
        let error = try #require(throws: SchemaError.self) { try Schema([AmbiguousTrip.self]).checkProblems() }
        #expect(error.code == .ambiguousInverse)
        #expect(error.entity == "AmbiguousItem")
        #expect(error.property == "trip")
        #expect(error.message.contains("AmbiguousItem.trip"))
        #expect(error.message.contains("AmbiguousTrip.first"))
        #expect(error.message.contains("AmbiguousTrip.second"))
    }

    @Test func anExplicitInverseOnOneSideSettlesIt() throws {
        let schema = Schema([ExplicitTrip.self])
        let trip = try #require(schema.entity(named: "ExplicitTrip"))
        let item = try #require(schema.entity(named: "ExplicitItem"))
        #expect(trip.relationship(named: "first")?.inverseName == "trip")
        #expect(item.relationship(named: "trip")?.inverseName == "first")
        #expect(trip.relationship(named: "second")?.inverseName == nil)
    }

    @Test func anExplicitInverseMustBeARelationship() throws {
        let error = try #require(throws: SchemaError.self) { try Schema([InverseToAttributeTrip.self]).checkProblems() }
        #expect(error.code == .invalidInverse)
        #expect(error.entity == "InverseToAttributeTrip")
        #expect(error.property == "items")
        #expect(error.message.contains("InverseToAttributeItem.name is an attribute"))
    }

    @Test func aSelfRelationshipPairsParentAndChildren() throws {
        let node = try #require(Schema([Node.self]).entity(named: "Node"))
        #expect(node.relationship(named: "parent")?.inverseName == "children")
        #expect(node.relationship(named: "children")?.inverseName == "parent")
        #expect(node.relationship(named: "children")?.deleteRule == .cascade)
    }

    @Test func aRelationshipWithNoCandidateHasNoInverse() throws {
        let schema = Schema([Owner.self])
        let pets = try #require(schema.entity(named: "Owner")?.relationship(named: "pets"))
        #expect(pets.inverseName == nil)
        #expect(pets.deleteRule == .deny)
        #expect(pets.minimumModelCount == 1 && pets.maximumModelCount == 3)
        #expect(schema.entity(named: "Pet")?.relationships.isEmpty == true)
    }

    // Explicit inverses on both sides. The compiler cannot type-check key paths to each other
    // in the arguments of attached macros on both sides (see the `Relationship` macro's
    // documentation), so these cases are built from declarations directly.

    @Test func explicitInversesOnBothSidesThatAgreePair() throws {
        let entities = try resolveInverses([
            declared("Trip", to: "Item", "items", many: true, inverse: "trip"),
            declared("Item", to: "Trip", "trip", many: false, inverse: "items"),
        ])
        #expect(entities.first { $0.name == "Trip" }?.relationship(named: "items")?.inverseName == "trip")
        #expect(entities.first { $0.name == "Item" }?.relationship(named: "trip")?.inverseName == "items")
    }

    @Test func explicitInversesOnBothSidesThatDisagreeThrow() throws {
        let error = try #require(throws: SchemaError.self) {
            try resolveInverses([
                DeclaredEntity(
                    name: "Trip",
                    attributes: [],
                    relationships: [
                        relationship("items", to: "Item", many: true, inverse: "trip"),
                        relationship("extras", to: "Item", many: true, inverse: nil),
                    ]
                ),
                declared("Item", to: "Trip", "trip", many: false, inverse: "extras"),
            ])
        }
        #expect(error.code == .invalidInverse)
    }

    @Test func aSchemaReadFromAStoreMustHaveInversesThatPointBack() throws {
        let trip = Schema.Entity(
            name: "Trip",
            attributes: [],
            relationships: [
                Schema.Relationship(name: "items", destination: "Item", isToMany: true, inverseName: "trip")
            ]
        )
        let item = Schema.Entity(
            name: "Item",
            attributes: [],
            relationships: [Schema.Relationship(name: "trip", destination: "Trip", isToMany: false)]
        )
        let error = try #require(throws: SchemaError.self) {
            try Schema(entities: [trip, item], version: Schema.Version(1, 0, 0))
        }
        #expect(error.code == .invalidInverse)
        #expect(error.entity == "Trip" && error.property == "items")
    }

    // MARK: - Helpers

    private func relationship(
        _ name: String,
        to destination: String,
        many: Bool,
        inverse: String?
    )
        -> DeclaredRelationship
    {
        DeclaredRelationship(
            relationship: Schema.Relationship(name: name, destination: destination, isToMany: many),
            explicitInverse: inverse
        )
    }

    private func declared(
        _ entity: String,
        to destination: String,
        _ name: String,
        many: Bool,
        inverse: String?
    )
        -> DeclaredEntity
    {
        DeclaredEntity(
            name: entity,
            attributes: [],
            relationships: [relationship(name, to: destination, many: many, inverse: inverse)]
        )
    }
}
