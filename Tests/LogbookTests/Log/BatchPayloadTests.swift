import Foundation
import Testing

@testable import Logbook

struct BatchPayloadTests {
    private static let lengths = [0, 1, 127, 128, 129, 300, 16_383, 16_384, 20_000]

    @Test func eventsEncodedInPlaceLayOutAsEventsAppendedWhole() {
        let events = Self.lengths.enumerated().map { sampleEvent(UInt64($0.offset + 1), length: $0.element) }
        var inPlace = BatchPayload(capacity: 16)
        for event in events {
            inPlace.appendEvent { writer in writer.writeBytes(event) }
        }
        let whole = BatchPayload(events)
        #expect(inPlace.eventCount == events.count)
        #expect(inPlace.bytes == whole.bytes)
        // The layout the format describes: each event after its length as a LEB128 varint.
        var expected: [UInt8] = []
        for event in events {
            LEB128.append(UInt64(event.count), to: &expected)
            expected += event
        }
        #expect(whole.bytes == expected)
    }

    @Test func anEventWhoseEncodingThrowsLeavesNothingBehind() throws {
        struct Refused: Error {}
        var payload = BatchPayload()
        payload.append(sampleEvent(1, length: 10))
        let before = payload.bytes
        #expect(throws: Refused.self) {
            try payload.appendEvent { writer in
                writer.writeBytes(sampleEvent(2, length: 200))
                throw Refused()
            }
        }
        #expect(payload.bytes == before)
        #expect(payload.eventCount == 1)
    }

    @Test func aPayloadAppendedToTheLogReadsBackEventByEvent() throws {
        let directory = TemporaryDirectory()
        let events = Self.lengths.enumerated().map { sampleEvent(UInt64($0.offset + 1), length: $0.element) }
        do {
            let log = try EventLog(directory: directory.path, configuration: testConfiguration())
            var payload = BatchPayload()
            for event in events { payload.appendEvent { $0.writeBytes(event) } }
            #expect(try log.append(payload) == 1...UInt64(events.count))
            log.close()
        }
        let read = try readAll(directory.path)
        #expect(read.map(\.0) == Array(1...UInt64(events.count)))
        #expect(read.map(\.1) == events)
    }
}
