import Foundation
import Testing

@testable import Logbook

/// Identifiers in events are at most 2⁶³ − 1.
///
/// An insert of identifier 2⁶⁴ − 1 decoded, and replaying it trapped: the projection sets its next
/// identifier to the largest one seen plus one. Found while writing the event decoder fuzz target
/// (`Fuzz/`) and confirmed with it; the bytes below are that input.
struct IdentifierBoundTests {
    /// An insert of a `Trip` with identifier 2⁶⁴ − 1, no attributes and no references.
    static let insertOfTheLargestIdentifier: [UInt8] = [
        0x02, 0x01, 0x04, 0x54, 0x72, 0x69, 0x70, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x00,
        0x00,
    ]

    private func insert(id: UInt64) -> [UInt8] {
        EventCodec.encode(
            EventEnvelope(schemaNumber: 1, event: .insert(.init(entity: "Trip", id: id, attributes: [], toOne: [])))
        )
    }

    @Test func anIdentifierAboveTheBoundIsRefusedByTheDecoderAndTheValidator() throws {
        #expect(Self.insertOfTheLargestIdentifier == insert(id: .max))
        for id in [UInt64.max, EventCodec.maximumIdentifier + 1] {
            let bytes = insert(id: id)
            let error = #expect(throws: LogbookError.self) { try EventCodec.decode(bytes) }
            #expect(error?.code == .corruption)
            let expected = "undecodable event: invalid identifier at byte \(bytes.count - 2) of the event"
            #expect(error?.message == expected)
            #expect(EventCodec.validate(bytes[...]) == expected)
        }
    }

    @Test func targetIdentifiersAreBoundToo() throws {
        let link = EventCodec.encode(
            EventEnvelope(
                schemaNumber: 1,
                event: .link(.init(entity: "Trip", id: 1, relationship: "bucketList", targets: [2, .max]))
            )
        )
        let error = #expect(throws: LogbookError.self) { try EventCodec.decode(link) }
        #expect(error?.message == "undecodable event: invalid target identifier at byte \(link.count) of the event")
        #expect(EventCodec.validate(link[...]) == error?.message)
    }

    @Test func theLargestIdentifierStillDecodesAndLeavesTheAllocatorRoom() throws {
        let envelope = try EventCodec.decode(insert(id: EventCodec.maximumIdentifier))
        #expect(EventCodec.validate(insert(id: EventCodec.maximumIdentifier)[...]) == nil)
        let schema = try Schema(
            entities: [Schema.Entity(name: "Trip", attributes: [], relationships: [])],
            version: Schema.Version(1, 0, 0)
        )
        var projection = Projection(schema: schema)
        try projection.apply(envelope.event)
        #expect(projection.nextIdentifier == EventCodec.maximumIdentifier + 1)
        #expect(projection.allocateIdentifier() == EventCodec.maximumIdentifier + 1)
    }

    @Test func replayingAStoreWithTheInputThrowsNamingTheEvent() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(directory: directory.path, configuration: testConfiguration())
        _ = try log.append([insert(id: 1), Self.insertOfTheLargestIdentifier])
        log.close()
        let error = #expect(throws: LogbookError.self) {
            try EventStream.forEach(LogReader(directory: directory.path)) { _, _ in }
        }
        #expect(error?.code == .corruption)
        #expect(error?.sequence == 2)
        #expect(error?.path == directory.child(SegmentDirectory.fileName(forFirstSequence: 1)))
    }
}
