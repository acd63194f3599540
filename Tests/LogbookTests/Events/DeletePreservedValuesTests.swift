import Foundation
import Testing

@testable import Logbook

/// A delete event with the values of its `.preserveValueOnDeletion` attributes (format version 4).
struct DeletePreservedValuesTests {
    @Test func aDeleteWithoutPreservedValuesKeepsTheBytesOfEarlierReleases() throws {
        let bytes = EventCodec.encode(EventEnvelope(schemaNumber: 1, event: .delete(entity: "Trip", id: 7)))
        // kind 4, schema 1, "Trip", 7: nothing after the identifier.
        #expect(bytes == [4, 1, 4] + Array("Trip".utf8) + [7])
        #expect(try EventCodec.decode(bytes).event == .delete(entity: "Trip", id: 7, preserved: []))
        #expect(EventCodec.validate(bytes[...]) == nil)
    }

    @Test func preservedValuesRoundTripAndValidate() throws {
        let event = Event.delete(
            entity: "Trip",
            id: 7,
            preserved: [Event.Field("name", .string("Lisbon")), Event.Field("cost", .null)]
        )
        let bytes = EventCodec.encode(EventEnvelope(schemaNumber: 2, event: event))
        #expect(try EventCodec.decode(bytes) == EventEnvelope(schemaNumber: 2, event: event))
        #expect(EventCodec.validate(bytes[...]) == nil)
    }

    @Test func anEmptyOrTruncatedListOfPreservedValuesIsRefused() throws {
        let head: [UInt8] = [4, 1, 4] + Array("Trip".utf8) + [7]
        for bytes in [head + [0], head + [1], head + [2, 4] + Array("name".utf8) + [8, 1, 65]] {
            #expect(throws: LogbookError.self) { try EventCodec.decode(bytes) }
            #expect(EventCodec.validate(bytes[...]) != nil)
        }
    }
}
