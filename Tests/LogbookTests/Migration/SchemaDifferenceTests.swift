import Testing

@testable import Logbook

struct SchemaDifferenceTests {
    private func schema(_ entities: Schema.Entity...) throws -> Schema {
        try Schema(entities: entities, version: Schema.Version(1, 0, 0))
    }

    private func trip(
        attributes: [Schema.Attribute] = [Schema.Attribute(name: "name", type: .string)],
        relationships: [Schema.Relationship] = []
    ) -> Schema.Entity {
        Schema.Entity(name: "Trip", attributes: attributes, relationships: relationships)
    }

    private let stop = Schema.Entity(name: "Stop", attributes: [], relationships: [])
    private let place = Schema.Entity(name: "Place", attributes: [], relationships: [])

    @Test func sameSchemasHaveNoChanges() throws {
        let difference = SchemaDifference(from: try schema(trip()), to: try schema(trip()))
        #expect(difference.changes.isEmpty)
        #expect(difference.isLightweight)
    }

    @Test func attributeChangesAreListedInNameOrderAndJudged() throws {
        let old = try schema(
            trip(attributes: [
                .init(name: "name", type: .string),
                .init(name: "notes", type: .optional(.string)),
                .init(name: "count", type: .int),
                .init(name: "code", type: .string),
                .init(name: "gone", type: .date),
            ])
        )
        let new = try schema(
            trip(attributes: [
                .init(name: "title", type: .string, originalName: "name", options: [.unique]),
                .init(name: "notes", type: .string),
                .init(name: "count", type: .optional(.int)),
                .init(name: "code", type: .optional(.uuid)),
                .init(name: "flag", type: .bool, hasDefaultValue: true),
                .init(name: "extra", type: .optional(.array(.string))),
            ])
        )
        let difference = SchemaDifference(from: old, to: new)
        #expect(
            difference.description == """
                Trip.code: type String → UUID?
                Trip.count: not optional → optional
                Trip.extra: added, optional
                Trip.flag: added, with a default value
                Trip.notes: optional → not optional
                Trip.title: renamed from name
                Trip.title: option unique added
                Trip.gone: removed
                """
        )
        #expect(
            difference.refused.map(\.description) == [
                "Trip.code: type String → UUID?", "Trip.notes: optional → not optional",
            ]
        )
    }

    @Test func relationshipAndEntityChangesAreJudged() throws {
        let old = try schema(
            trip(relationships: [
                .init(name: "stops", destination: "Stop", isToMany: true),
                .init(name: "home", destination: "Stop", isToMany: false),
                .init(name: "next", destination: "Stop", isToMany: false),
            ]),
            stop
        )
        let new = try schema(
            trip(relationships: [
                .init(name: "stops", destination: "Stop", isToMany: true, deleteRule: .cascade, maximumModelCount: 9),
                .init(name: "home", destination: "Place", isToMany: false),
                .init(name: "next", destination: "Stop", isToMany: true),
                .init(name: "base", destination: "Place", isToMany: false),
                .init(name: "visits", destination: "Place", isToMany: true),
            ]),
            stop,
            place
        )
        let difference = SchemaDifference(from: old, to: new)
        #expect(
            difference.description == """
                Place: entity added
                Trip.base: added, optional relationship to Place
                Trip.home: destination Stop → Place
                Trip.next: to-one → to-many
                Trip.stops: delete rule nullify → cascade
                Trip.stops: count limits none...none → none...9
                Trip.visits: added, to-many relationship to Place
                """
        )
        #expect(
            difference.refused.map(\.description) == [
                "Trip.home: destination Stop → Place", "Trip.next: to-one → to-many",
            ]
        )
        let removed = SchemaDifference(from: new, to: try schema(trip()))
        #expect(removed.isLightweight)
        #expect(removed.changes.map(\.description).contains("Place: entity removed"))
    }
}
