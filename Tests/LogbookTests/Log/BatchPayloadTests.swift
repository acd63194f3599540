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

    /// Events written in place into a payload's buffer, fresh or taken back from an earlier
    /// payload, lay out as appended events do, and a buffer with room is written into, not
    /// replaced.
    @Test func eventsWrittenInPlaceIntoAReusedBufferLayOutAsEventsAppendedWhole() {
        let events = Self.lengths.enumerated().map { sampleEvent(UInt64($0.offset + 1), length: $0.element) }
        let encoded = BatchPayload(events).bytes
        func writeInPlace(_ payload: inout BatchPayload) {
            payload.appendEncodedEvents(count: events.count, byteCount: encoded.count, extra: 64) { buffer in
                _ = buffer.update(fromContentsOf: encoded)
            }
        }
        var first = BatchPayload(reusing: [])
        writeInPlace(&first)
        #expect(first.bytes == encoded)
        #expect(first.eventCount == events.count)
        #expect(first.bytes.capacity >= encoded.count + 64)

        var buffer = first.takeBuffer()
        #expect(first.isEmpty && first.bytes.isEmpty)
        let address = buffer.withUnsafeBufferPointer { $0.baseAddress }
        buffer[0] = 0xFF
        var second = BatchPayload(reusing: consume buffer)
        second.appendEvent { $0.writeBytes([7, 7]) }
        writeInPlace(&second)
        #expect(second.bytes == [2, 7, 7] + encoded)
        #expect(second.eventCount == events.count + 1)
        #expect(second.bytes.withUnsafeBufferPointer { $0.baseAddress } == address, "the buffer was written into")

        var third = BatchPayload(reusing: [1, 2, 3])
        writeInPlace(&third)
        #expect(third.bytes == encoded, "a buffer without room is replaced, its bytes dropped")
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
