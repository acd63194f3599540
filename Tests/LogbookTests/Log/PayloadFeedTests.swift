import Dispatch
import Testing

@testable import Logbook

struct PayloadFeedTests {
    /// A payload of `count` text events, about 60 bytes each.
    static func payload(events count: Int) -> BatchPayload {
        BatchPayload((0..<count).map { Array("insert \($0): Trip to Lisbon \($0 % 97), tram 28 and pastéis".utf8) })
    }

    /// Runs the appending side on another thread, and returns what it made.
    static func compressOnAnotherThread(
        _ feed: PayloadFeed,
        feeding: () -> Void
    ) -> (payload: BatchPayload, pieces: [UInt8]?) {
        let work = BackgroundWork(on: DispatchQueue(label: "test append")) {
            let (payload, pieces) = feed.compressAsEncoded()
            return Result(payload: payload, pieces: pieces)
        }
        feeding()
        guard let result = try? work.value() else { preconditionFailure("the feed's work does not throw") }
        return (result.payload, result.pieces)
    }

    struct Result: Sendable {
        var payload: BatchPayload
        var pieces: [UInt8]?
    }

    /// The pieces after the header's room, decompressed as a reader does, and how many there are.
    static func read(_ pieces: [UInt8], length: Int) throws -> (bytes: [UInt8], count: Int) {
        let stored = Array(pieces.dropFirst(LogFormat.headerSize))
        var restored = [UInt8](repeating: 0, count: length)
        let decompressed = stored.withUnsafeBytes { stored in
            restored.withUnsafeMutableBytes { LZ4.decompress(pieces: stored, into: $0) }
        }
        #expect(decompressed)
        var offset = 0
        var count = 0
        while offset + 4 <= stored.count {
            offset += 4 + stored[offset..<(offset + 4)].reversed().reduce(0) { $0 << 8 | Int($1) }
            count += 1
        }
        return (restored, count)
    }

    @Test func piecesPublishedWhileEncodingDecompressToThePayload() throws {
        let payload = Self.payload(events: 6_000)
        let bytes = payload.bytes
        #expect(bytes.count > 4 * PayloadFeed.pieceBytes)
        let feed = PayloadFeed()
        let result = Self.compressOnAnotherThread(feed) {
            bytes.withUnsafeBytes { raw in
                guard let start = raw.baseAddress else { return }
                for end in stride(from: PayloadFeed.pieceBytes, to: raw.count, by: PayloadFeed.pieceBytes) {
                    feed.publish(payloadStart: start, upTo: end)
                }
            }
            feed.finish(payload)
        }
        #expect(result.payload.bytes == bytes)
        let pieces = try #require(result.pieces)
        #expect(Array(pieces.prefix(LogFormat.headerSize)) == [UInt8](repeating: 0, count: LogFormat.headerSize))
        let (restored, count) = try Self.read(pieces, length: bytes.count)
        let isPayload = restored == bytes
        #expect(isPayload)
        // The appending thread compresses whatever is published when it wakes, so a piece may
        // span several publications; the bytes after the last one are a piece of their own.
        #expect((2...((bytes.count + PayloadFeed.pieceBytes - 1) / PayloadFeed.pieceBytes)).contains(count))
    }

    @Test func aPayloadNeverPublishedIsCompressedInOnePieceWhenFinished() throws {
        let payload = Self.payload(events: 300)
        let bytes = payload.bytes
        let feed = PayloadFeed()
        let result = Self.compressOnAnotherThread(feed) { feed.finish(payload) }
        let (restored, count) = try Self.read(try #require(result.pieces), length: bytes.count)
        #expect(restored == bytes)
        #expect(count == 1)
    }
}
