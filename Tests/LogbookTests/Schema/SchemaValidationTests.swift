import Foundation
import Testing

@testable import Logbook

struct SchemaValidationTests {
    private let version = Schema.Version(1, 0, 0)

    private func schema(_ attributes: [Schema.Attribute], _ relationships: [Schema.Relationship] = []) throws -> Schema
    {
        let target = Schema.Entity(name: "Item", attributes: [], relationships: [])
        let entity = Schema.Entity(name: "Trip", attributes: attributes, relationships: relationships)
        return try Schema(entities: [entity, target], version: version)
    }

    @Test(arguments: [
        Schema.AttributeType.date, .data, .bool, .url, .array(.string), .composite(typeName: "Address"),
        .rawRepresentable(typeName: "Palette", rawType: .string), .optional(.date),
    ])
    func uniqueNeedsANumberStringOrUUID(type: Schema.AttributeType) throws {
        let error = try #require(throws: SchemaError.self) {
            try schema([Schema.Attribute(name: "key", type: type, options: [.unique])])
        }
        #expect(error.code == .invalidUniqueConstraint)
        #expect(error.entity == "Trip" && error.property == "key")
    }

    @Test(arguments: [
        Schema.AttributeType.int, .uint8, .double, .float, .decimal, .string, .uuid, .optional(.string),
    ])
    func uniqueAcceptsNumbersStringsAndUUIDs(type: Schema.AttributeType) throws {
        let schema = try schema([Schema.Attribute(name: "key", type: type, options: [.unique])])
        #expect(schema.entity(named: "Trip")?.uniqueProperties == ["key"])
    }

    @Test func onlyAToOneRelationshipCanBeUnique() throws {
        _ = try schema(
            [],
            [Schema.Relationship(name: "item", destination: "Item", isToMany: false, options: [.unique])]
        )
        let error = try #require(throws: SchemaError.self) {
            try schema(
                [],
                [Schema.Relationship(name: "items", destination: "Item", isToMany: true, options: [.unique])]
            )
        }
        #expect(error.code == .invalidUniqueConstraint)
    }

    @Test(
        arguments: [
            (false, 1, nil), (true, -1, nil), (true, nil, -2), (true, 3, 2),
        ] as [(Bool, Int?, Int?)]
    )
    func modelCountsMustBeConsistentAndOnToMany(toMany: Bool, minimum: Int?, maximum: Int?) throws {
        let error = try #require(throws: SchemaError.self) {
            try schema(
                [],
                [
                    Schema.Relationship(
                        name: "items",
                        destination: "Item",
                        isToMany: toMany,
                        minimumModelCount: minimum,
                        maximumModelCount: maximum
                    )
                ]
            )
        }
        #expect(error.code == .invalidModelCount)
        #expect(error.property == "items")
    }

    @Test func anOriginalNameCannotBeClaimedTwice() throws {
        let twice = try #require(throws: SchemaError.self) {
            try schema([
                Schema.Attribute(name: "startDate", type: .date, originalName: "date"),
                Schema.Attribute(name: "endDate", type: .date, originalName: "date"),
            ])
        }
        #expect(twice.code == .duplicateOriginalName)
        let taken = try #require(throws: SchemaError.self) {
            try schema([
                Schema.Attribute(name: "name", type: .string),
                Schema.Attribute(name: "title", type: .string, originalName: "name"),
            ])
        }
        #expect(taken.code == .duplicateOriginalName)
        #expect(taken.property == "title")
    }

    @Test func aRelationshipMustLeadToAnEntityOfTheSchema() throws {
        let error = try #require(throws: SchemaError.self) {
            try schema([], [Schema.Relationship(name: "guide", destination: "Guide", isToMany: false)])
        }
        #expect(error.code == .unknownDestination)
    }

    @Test func entityAndPropertyNamesMustBeDistinct() throws {
        let entity = Schema.Entity(name: "Trip", attributes: [], relationships: [])
        let entities = try #require(throws: SchemaError.self) {
            try Schema(entities: [entity, entity], version: version)
        }
        #expect(entities.code == .duplicateEntity)
        let properties = try #require(throws: SchemaError.self) {
            try schema(
                [Schema.Attribute(name: "item", type: .string)],
                [Schema.Relationship(name: "item", destination: "Item", isToMany: false)]
            )
        }
        #expect(properties.code == .duplicateProperty)
    }

    @Test func errorsMatchTheirCodesInCatchClauses() {
        do {
            _ = try schema([Schema.Attribute(name: "key", type: .date, options: [.unique])])
            Issue.record("A unique date is invalid")
        } catch SchemaError.invalidUniqueConstraint {
        } catch {
            Issue.record("Unexpected error \(error)")
        }
    }
}
