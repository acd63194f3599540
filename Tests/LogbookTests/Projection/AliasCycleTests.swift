import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// Aliases never loop, whatever the log says.
///
/// Found while writing the event decoder fuzz target (`Fuzz/`) and confirmed with it: seven events
/// that no writer makes (identifiers merged away and then inserted again) left identifier 3 an
/// alias of 1, 1 of 2 and 2 of 3, and the delete at the end never returned from resolving its
/// identifier. `payload` is that input, a batch payload; `events` says what it holds.
struct AliasCycleTests {
    static let payload: [UInt8] = [
        0x12, 0x02, 0x01, 0x04, 0x54, 0x72, 0x69, 0x70, 0x01, 0x01, 0x04, 0x6E, 0x61, 0x6D, 0x65, 0x08,
        0x01, 0x61, 0x00, 0x12, 0x02, 0x01, 0x04, 0x54, 0x72, 0x69, 0x70, 0x02, 0x01, 0x04, 0x6E, 0x61,
        0x6D, 0x65, 0x08, 0x01, 0x62, 0x00, 0x12, 0x02, 0x01, 0x04, 0x54, 0x72, 0x69, 0x70, 0x03, 0x01,
        0x04, 0x6E, 0x61, 0x6D, 0x65, 0x08, 0x01, 0x61, 0x00, 0x12, 0x02, 0x01, 0x04, 0x54, 0x72, 0x69,
        0x70, 0x01, 0x01, 0x04, 0x6E, 0x61, 0x6D, 0x65, 0x08, 0x01, 0x62, 0x00, 0x12, 0x02, 0x01, 0x04,
        0x54, 0x72, 0x69, 0x70, 0x03, 0x01, 0x04, 0x6E, 0x61, 0x6D, 0x65, 0x08, 0x01, 0x7A, 0x00, 0x12,
        0x02, 0x01, 0x04, 0x54, 0x72, 0x69, 0x70, 0x02, 0x01, 0x04, 0x6E, 0x61, 0x6D, 0x65, 0x08, 0x01,
        0x7A, 0x00, 0x08, 0x04, 0x01, 0x04, 0x54, 0x72, 0x69, 0x70, 0x01,
    ]

    static let events: [Event] = [
        insertTrip(1, "a"), insertTrip(2, "b"),
        insertTrip(3, "a"),  // merged into 1
        insertTrip(1, "b"),  // 1, merged into 2 while its row lives on
        insertTrip(3, "z"),  // 3, inserted again under its own name
        insertTrip(2, "z"),  // would make 2 an alias of 3, which resolves through 1 to 2
        .delete(entity: "Trip", id: 1),
    ]

    private static func insertTrip(_ id: UInt64, _ name: String) -> Event {
        .insert(.init(entity: "Trip", id: id, attributes: [.init("name", .string(name))], toOne: []))
    }

    @Test func thePayloadHoldsTheEvents() throws {
        let ranges = try Batch.splitEvents(in: Self.payload, count: Self.events.count).get()
        let decoded = try ranges.map { try EventCodec.decode(Self.payload[$0]).event }
        #expect(decoded == Self.events)
    }

    @Test func replayingTheEventsEndsAndNoAliasLoops() throws {
        var projection = Projection(schema: Schema(versionedSchema: SampleTripsSchemaV3.self))
        let trip = try #require(projection.table(named: "Trip"))
        for event in Self.events { try projection.apply(event) }
        #expect(projection.resolve(2) == 2, "2 was not made an alias of 3")
        #expect(projection.resolve(3) == 2)
        #expect(projection.resolve(1) == 2)
        #expect(projection.tables[trip].identifiersInOrder().map(\.id) == [1, 3], "the delete of 1 reached 2")
    }
}
