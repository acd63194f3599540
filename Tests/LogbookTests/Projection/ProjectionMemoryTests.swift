import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// A projection whose table cannot grow: every way of applying an insert leaves it as it was,
/// the decoded event throwing ``LogbookError/Code/outOfMemory`` and the paths of a replay that
/// skip the decoding declining, so that the replay falls back on the decoded event.
struct ProjectionMemoryTests {
    private static func trip(_ id: UInt64, _ name: String) -> Event {
        .insert(
            .init(
                entity: "Trip",
                id: id,
                attributes: [.init("name", .string(name)), .init("destination", .string("Lisbon"))],
                toOne: []
            )
        )
    }

    /// A projection holding trips 1 and 2, whose trips' values may take no more room than they
    /// have: room for exactly those two.
    private static func fullProjection() throws -> (projection: Projection, trips: Int) {
        var projection = Projection(schema: Schema(versionedSchema: SampleTripsSchemaV3.self))
        let trips = try #require(projection.table(named: "Trip"))
        projection.valueBytesLimit = 2 * projection.tables[trips].width * MemoryLayout<AttributeValue>.stride
        try projection.apply(trip(1, "Sintra"))
        try projection.apply(trip(2, "Porto"))
        // The first growth asked for a column's least capacity, sixteen values, which the limit
        // refused; each growth then took exactly what its insert needed.
        #expect(projection.tables[trips].values.capacity == 2 * projection.tables[trips].width)
        return (projection, trips)
    }

    @Test func aDecodedInsertThatFindsNoRoomThrowsNamingTheEntityAndChangesNothing() throws {
        var (projection, trips) = try Self.fullProjection()
        let before = projection.tables[trips].rowsByIdentifier
        let error = #expect(throws: LogbookError.self) { try projection.apply(Self.trip(3, "Lisbon")) }
        #expect(error?.code == .outOfMemory)
        #expect(error?.message.contains("attribute values of Trip") == true, "\(String(describing: error))")
        #expect(error?.message.contains("the values of 3 objects") == true, "\(String(describing: error))")
        #expect(projection.tables[trips].rowsByIdentifier == before)
        #expect(projection.tables[trips].count == 2)
        let name = try #require(projection.tables[trips].attributeIndex["name"])
        #expect(projection.uniqueHolder(trips, attribute: name, .string("Lisbon")) == .some(nil))

        // An upsert onto a trip it already holds needs a slot while it runs, and finds none.
        #expect(throws: LogbookError.self) { try projection.apply(Self.trip(4, "Sintra")) }
        #expect(projection.tables[trips].rowsByIdentifier == before)
        // An update and a delete take no new room.
        try projection.apply(
            .update(.init(entity: "Trip", id: 1, attributes: [.init("destination", .string("Faro"))], toOne: []))
        )
        try projection.apply(.delete(entity: "Trip", id: 2))
        #expect(projection.tables[trips].count == 1)
        // The freed slot takes the next insert without growing.
        try projection.apply(Self.trip(5, "Lisbon"))
        #expect(projection.tables[trips].count == 2)
    }

    @Test func theBytesOfAnInsertThatFindsNoRoomAreDeclinedAndChangeNothing() throws {
        var (projection, trips) = try Self.fullProjection()
        let before = projection.tables[trips].rowsByIdentifier
        let bytes = EventCodec.encode(EventEnvelope(schemaNumber: 1, event: Self.trip(3, "Lisbon")))
        #expect(!bytes.withUnsafeBytes { projection.applyInsert($0, sequence: 9) })
        #expect(projection.tables[trips].rowsByIdentifier == before)
        #expect(projection.lastSequence == 0, "a declined insert does not count as applied")
    }

    @Test func aRecordedInsertThatFindsNoRoomIsDeclinedAndKeepsItsValues() throws {
        var (projection, trips) = try Self.fullProjection()
        let before = projection.tables[trips].rowsByIdentifier
        let name = try #require(projection.tables[trips].attributeIndex["name"])
        let inserts = DirectInserts()
        inserts.begin(table: trips, id: 3)
        inserts.attribute(name, .string("Lisbon in spring, a name longer than fifteen bytes"))
        inserts.end()
        #expect(projection.applyInsert(inserts, at: 0, sequence: 9, takingValues: true) == nil)
        #expect(projection.tables[trips].rowsByIdentifier == before)
        #expect(inserts.values[0] == .string("Lisbon in spring, a name longer than fifteen bytes"), "nothing taken")
    }

    /// A save's reservation for its batch: every insert's table grows once, up front, and a
    /// table that cannot leaves the others' room reserved and nothing applied.
    @Test func aBatchReservesRoomForEachTableItInsertsInto() throws {
        var projection = Projection(schema: Schema(versionedSchema: SampleTripsSchemaV3.self))
        let trips = try #require(projection.table(named: "Trip"))
        let items = try #require(projection.table(named: "BucketListItem"))
        let inserts = DirectInserts()
        for id in 1...3 {
            inserts.begin(table: trips, id: UInt64(id))
            inserts.end()
        }
        for id in 4...10 {
            inserts.begin(table: items, id: UInt64(id))
            inserts.end()
        }
        try projection.reserveRoom(for: inserts, [])
        #expect(projection.tables[trips].values.capacity >= 3 * projection.tables[trips].width)
        #expect(projection.tables[items].values.capacity >= 7 * projection.tables[items].width)
        for index in inserts.heads.indices {
            projection.applyInsertWithRoom(inserts, at: index, sequence: nil, takingValues: true)
        }
        #expect(projection.tables[trips].count == 3)
        #expect(projection.tables[items].count == 7)

        projection.valueBytesLimit = 8 * projection.tables[items].width * MemoryLayout<AttributeValue>.stride
        let more = DirectInserts()
        for id in 11...12 {
            more.begin(table: items, id: UInt64(id))
            more.end()
        }
        let error = #expect(throws: LogbookError.self) { try projection.reserveRoom(for: more, []) }
        #expect(error?.message.contains("attribute values of BucketListItem") == true, "\(String(describing: error))")
        #expect(projection.tables[items].count == 7)
    }
}
