import Foundation
import SampleTrips
import Testing

@testable import Logbook

struct ProjectionTests {
    private let schema: Schema
    private let trip: Int
    private let item: Int
    private let lodging: Int

    init() throws {
        schema = Schema(versionedSchema: SampleTripsSchemaV3.self)
        let projection = Projection(schema: schema)
        trip = try #require(projection.table(named: "Trip"))
        item = try #require(projection.table(named: "BucketListItem"))
        lodging = try #require(projection.table(named: "LivingAccommodation"))
    }

    private func value(_ projection: Projection, _ table: Int, _ id: UInt64, _ name: String) -> AttributeValue? {
        guard let index = projection.tables[table].entity.attributes.firstIndex(where: { $0.name == name }) else {
            return nil
        }
        return projection.row(table, id)?.values[index]
    }

    private func related(_ projection: Projection, _ table: Int, _ id: UInt64, _ name: String) -> [UInt64]? {
        guard let index = projection.tables[table].entity.relationships.firstIndex(where: { $0.name == name }) else {
            return nil
        }
        return projection.row(table, id)?.relationships[index]
    }

    private func insertTrip(_ id: UInt64, _ name: String, destination: String = "Lisbon") -> Event {
        .insert(
            .init(
                entity: "Trip",
                id: id,
                attributes: [.init("name", .string(name)), .init("destination", .string(destination))],
                toOne: []
            )
        )
    }

    private func insertItem(_ id: UInt64, trip: UInt64?) -> Event {
        .insert(
            .init(
                entity: "BucketListItem",
                id: id,
                attributes: [.init("title", .string("item \(id)"))],
                toOne: [.init("trip", trip)]
            )
        )
    }

    @Test func theRecordedSideIsTheToOneSideAndTheProjectionFillsInTheInverse() throws {
        var projection = Projection(schema: schema)
        let bucketList = try #require(
            schema.entity(named: "Trip")?.relationships.firstIndex { $0.name == "bucketList" }
        )
        #expect(projection.links[trip][bucketList].isRecorded == false)
        try projection.apply(insertTrip(1, "Lisbon"))
        try projection.apply(insertItem(2, trip: 1))
        try projection.apply(insertItem(3, trip: 1))
        #expect(related(projection, trip, 1, "bucketList") == [2, 3])
        try projection.apply(
            .update(.init(entity: "BucketListItem", id: 2, attributes: [], toOne: [.init("trip", nil)]))
        )
        #expect(related(projection, trip, 1, "bucketList") == [3])
        #expect(related(projection, item, 2, "trip") == [])
    }

    @Test func anInsertCollidingOnAUniqueNameIsMergedIntoTheExistingObject() throws {
        var projection = Projection(schema: schema)
        try projection.apply(insertTrip(1, "Summer", destination: "Lisbon"))
        try projection.apply(insertItem(2, trip: 1))
        let survivor = try projection.apply(insertTrip(5, "Summer", destination: "Kyoto"))
        #expect(survivor == 1)
        #expect(projection.resolve(5) == 1)
        #expect(projection.tables[trip].count == 1)
        #expect(value(projection, trip, 1, "destination") == .string("Kyoto"), "the later insert wins attributes")
        // Later events about the merged-away trip reach the survivor: to-many relationships unite.
        try projection.apply(insertItem(6, trip: 5))
        #expect(related(projection, trip, 1, "bucketList") == [2, 6])
        #expect(related(projection, item, 6, "trip") == [1])
        #expect(projection.nextIdentifier == 7)
    }

    @Test func aOneToOneTargetTakesTheNewerValueAndTheOldPartnerLetsGo() throws {
        var projection = Projection(schema: schema)
        try projection.apply(insertTrip(1, "Summer"))
        try projection.apply(
            .insert(.init(entity: "LivingAccommodation", id: 2, attributes: [], toOne: [.init("trip", 1)]))
        )
        try projection.apply(
            .insert(.init(entity: "LivingAccommodation", id: 3, attributes: [], toOne: [.init("trip", 1)]))
        )
        #expect(related(projection, trip, 1, "livingAccommodation") == [3])
        #expect(related(projection, lodging, 2, "trip") == [], "the older accommodation is kept, unlinked")
        #expect(related(projection, lodging, 3, "trip") == [1])
    }

    @Test func deletingAnObjectClearsTheInverseSideOfItsRelationships() throws {
        var projection = Projection(schema: schema)
        try projection.apply(insertTrip(1, "Summer"))
        try projection.apply(insertItem(2, trip: 1))
        try projection.apply(.delete(entity: "Trip", id: 1))
        #expect(projection.row(trip, 1) == nil)
        #expect(related(projection, item, 2, "trip") == [])
        #expect(projection.tables[trip].lookup(unique: 0, .string("Summer")) == nil)
        // The name is free again.
        try projection.apply(insertTrip(3, "Summer"))
        #expect(projection.row(trip, 3) != nil)
    }

    @Test func originalNamesAreFoundAndUnknownNamesAreIgnored() throws {
        var projection = Projection(schema: schema)
        let start = Date(timeIntervalSince1970: 1_780_000_000)
        try projection.apply(
            .insert(
                .init(
                    entity: "Trip",
                    id: 1,
                    attributes: [
                        .init("name", .string("Old")), .init("start_date", .date(start)),
                        .init("removedLongAgo", .int(3)),
                    ],
                    toOne: [.init("formerRelationship", 9)]
                )
            )
        )
        try projection.apply(.insert(.init(entity: "EntityRemovedLater", id: 2, attributes: [], toOne: [])))
        #expect(value(projection, trip, 1, "startDate") == .date(start))
        #expect(projection.objectCount == 1)
    }

    @Test func linkAndUnlinkMaintainBothSides() throws {
        var projection = Projection(schema: schema)
        try projection.apply(insertTrip(1, "A"))
        try projection.apply(insertTrip(2, "B"))
        try projection.apply(insertItem(3, trip: nil))
        try projection.apply(.link(.init(entity: "Trip", id: 1, relationship: "bucketList", targets: [3])))
        #expect(related(projection, item, 3, "trip") == [1])
        // Linking the item to another trip moves it: an item has one trip.
        try projection.apply(.link(.init(entity: "Trip", id: 2, relationship: "bucketList", targets: [3])))
        #expect(related(projection, trip, 1, "bucketList") == [])
        #expect(related(projection, trip, 2, "bucketList") == [3])
        try projection.apply(.unlink(.init(entity: "Trip", id: 2, relationship: "bucketList", targets: [3])))
        #expect(related(projection, item, 3, "trip") == [])
    }
}

// MARK: - Slots of deleted objects

extension ProjectionTests {
    @Test func aDeletedObjectsSlotServesTheNextInsertWithNothingOfTheOldObjectLeft() throws {
        var projection = Projection(schema: schema)
        try projection.apply(insertTrip(1, "Summer"))
        try projection.apply(insertItem(2, trip: 1))
        try projection.apply(insertTrip(3, "Winter", destination: "Oslo"))
        try projection.apply(.delete(entity: "Trip", id: 1))
        #expect(related(projection, item, 2, "trip") == [], "the delete cleared the inverse")
        // The next trip takes the freed slot: no value, no item and no index entry of trip 1.
        try projection.apply(
            .insert(.init(entity: "Trip", id: 4, attributes: [.init("destination", .string("Kyoto"))], toOne: []))
        )
        #expect(projection.tables[trip].count == 2)
        #expect(value(projection, trip, 4, "name") == .null)
        #expect(value(projection, trip, 4, "destination") == .string("Kyoto"))
        #expect(related(projection, trip, 4, "bucketList") == [])
        #expect(projection.row(trip, 1) == nil)
        #expect(value(projection, trip, 3, "destination") == .string("Oslo"))
        let name = try #require(projection.tables[trip].entity.attributes.firstIndex { $0.name == "name" })
        #expect(projection.tables[trip].lookup(unique: name, .string("Summer")) == nil)
        // A new trip may take the name the deleted one had.
        #expect(try projection.apply(insertTrip(5, "Summer")) == 5)
        #expect(projection.tables[trip].identifiersInOrder().map(\.id) == [3, 4, 5])
    }

    @Test func anUpsertLeavesNoSlotBehind() throws {
        var projection = Projection(schema: schema)
        try projection.apply(insertTrip(1, "Summer"))
        for id in UInt64(2)...50 { try projection.apply(insertTrip(id, "Summer", destination: "Kyoto \(id)")) }
        #expect(projection.tables[trip].count == 1)
        #expect(projection.tables[trip].identifiersInOrder().map(\.id) == [1])
        #expect(value(projection, trip, 1, "destination") == .string("Kyoto 50"))
    }
}
