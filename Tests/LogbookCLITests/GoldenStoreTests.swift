import Foundation
import Testing

@testable import Logbook

/// Stores written by released versions of the format stay readable forever. Each folder in
/// `Fixtures/` is read here exactly as committed; see `Fixtures/README.md` for how each was made.
struct GoldenStoreTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// What `Fixtures/log-format-1` holds: sequence numbers 25...28 are `--noise` events.
    private func expectedEvent(_ sequence: UInt64) -> [UInt8] {
        (25...28).contains(sequence)
            ? ToolProcess.appendLoopNoiseEvent(sequence) : ToolProcess.appendLoopEvent(sequence)
    }

    @Test func formatOneStoreReadsBackEveryEvent() throws {
        let store = Self.fixtures.appendingPathComponent("log-format-1").path
        var cursor = LogReader(directory: store).batches()
        var sequences: [UInt64] = []
        var compressed: [Bool] = []
        while let batch = try cursor.next() {
            compressed.append(batch.header.isCompressed)
            for (sequence, bytes) in batch.events {
                sequences.append(sequence)
                #expect([UInt8](bytes) == expectedEvent(sequence), "event \(sequence)")
            }
        }
        #expect(sequences == Array(1...31))
        #expect(compressed == [true, true, true, true, true, true, false, false, true])
    }

    @Test func formatOneHeaderBytesArePinned() throws {
        let segment = Self.fixtures.appendingPathComponent("log-format-1/00000000000000000001.log")
        let bytes = [UInt8](try Data(contentsOf: segment))
        let header = try #require(bytes.withUnsafeBytes { BatchHeader.read(from: $0) })
        #expect(
            header
                == BatchHeader(
                    version: 1,
                    flags: 1,
                    firstSequence: 1,
                    eventCount: 4,
                    uncompressedLength: 116,
                    storedLength: 52,
                    checksum: 0x93F9_DF71
                )
        )
        #expect(Array(bytes[0..<4]) == Array("LGBK".utf8))
    }

    @Test func aCopyOfTheFormatOneStoreOpensForWritingAndTakesAppends() throws {
        let copy = TemporaryDirectory()
        let source = Self.fixtures.appendingPathComponent("log-format-1").path
        for name in try FileManager.default.contentsOfDirectory(atPath: source) {
            try FileManager.default.copyItem(atPath: source + "/" + name, toPath: copy.child(name))
        }
        let log = try EventLog(directory: copy.path)
        #expect(log.recovery.cutTail == nil)
        #expect(try log.append([Array("after".utf8)]) == 32...32)
        let verify = try ToolProcess.run(["verify", copy.path])
        #expect(verify.status == 0)
        #expect(verify.stdout.contains("32 events (sequence 1...32)"))
    }
}
