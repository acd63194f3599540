import Foundation
import Testing

@testable import Logbook

/// A batch whose checksum matches but whose events would be numbered past 2⁶⁴ − 1.
///
/// Found by the batch reader fuzz target (`Fuzz/`): verification computed the sequence number of
/// each event with `+` and trapped with an arithmetic overflow, and so did `logbook dump`,
/// `replay` and `tail`. The bytes below are the smallest such batch: two one-byte events from
/// sequence number 2⁶⁴ − 1, stored uncompressed, in a segment named for that number.
struct SequenceOverflowTests {
    static let overflowingBatch: [UInt8] = [
        0x4C, 0x47, 0x42, 0x4B, 0x01, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0x02, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x7A, 0x53, 0xD5, 0x76,
        0x01, 0x61, 0x01, 0x62,
    ]

    private func store(_ directory: TemporaryDirectory) throws -> String {
        let segment = directory.child(SegmentDirectory.fileName(forFirstSequence: .max))
        try ByteSurgery.write(Self.overflowingBatch, to: segment)
        return segment
    }

    @Test func theBatchIsSoundButForItsSequenceNumbers() throws {
        let header = try #require(Self.overflowingBatch.withUnsafeBytes { BatchHeader.read(from: $0) })
        #expect(header.firstSequence == .max)
        #expect(header.eventCount == 2)
        let checksum = Self.overflowingBatch.withUnsafeBytes { bytes in
            BatchHeader.checksum(
                header: UnsafeRawBufferPointer(rebasing: bytes[..<LogFormat.headerSize]),
                payload: UnsafeRawBufferPointer(rebasing: bytes[LogFormat.headerSize...])
            )
        }
        #expect(checksum == header.checksum)
    }

    @Test func verificationReportsTheOverflowAsDamage() throws {
        let directory = TemporaryDirectory()
        let segment = try store(directory)
        // As `logbook verify` checks the events of a store that records no schema: each one fails,
        // and verification used to number each failure.
        let report = try LogVerifier.verify(directory: directory.path) { _ in "not a model event" }
        #expect(
            report.damages == [
                LogDamage(segment: segment, offset: 0, byteCount: 36, reason: .sequenceOverflow(first: .max, count: 2))
            ]
        )
        #expect(report.incompleteTail == nil, "a batch whose checksum matches is no torn write")
        #expect(!report.isSound)
    }

    @Test func readingThrowsCorruptionNamingTheSegmentAndOffset() throws {
        let directory = TemporaryDirectory()
        let segment = try store(directory)
        let error = #expect(throws: LogbookError.self) { try readAll(directory.path) }
        #expect(error?.code == .corruption)
        #expect(error?.path == segment)
        #expect(error?.offset == 0)
        #expect(
            error?.message
                == "damaged log: sequence numbers overflow: 2 events from 18446744073709551615 pass 18446744073709551615"
        )
    }

    @Test func openingStopsAndLeavesTheSegmentAsItIs() throws {
        let directory = TemporaryDirectory()
        let segment = try store(directory)
        let error = #expect(throws: LogbookError.self) {
            try EventLog(directory: directory.path, configuration: testConfiguration())
        }
        #expect(error?.code == .corruption)
        #expect(error?.path == segment)
        #expect(try ByteSurgery.bytes(of: segment) == Self.overflowingBatch)
    }
}
