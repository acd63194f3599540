import Foundation
import InMemoryLogging
import Logging
import Testing

@testable import Logbook

struct RecoveryTests {
    /// Writes `batches` batches of three events into one segment and returns the segment path and
    /// the byte offset where each batch starts. The store is left as a writer killed after its
    /// last append leaves it, without a durable record of those batches.
    private func makeStore(_ directory: TemporaryDirectory, batches: Int = 4) throws -> (String, [Int]) {
        let log = try EventLog(directory: directory.path, configuration: testConfiguration())
        var offsets: [Int] = []
        var next: UInt64 = 1
        let segment = directory.child(SegmentDirectory.fileName(forFirstSequence: 1))
        for _ in 0..<batches {
            offsets.append(FileManager.default.fileExists(atPath: segment) ? try ByteSurgery.size(of: segment) : 0)
            let range = try log.append((next..<(next + 3)).map { sampleEvent($0, length: 40) })
            next = range.upperBound + 1
        }
        log.close()
        try forgetDurablePoint(directory.path)
        return (segment, offsets)
    }

    /// A batch in LZ4 pieces (format 3), cut at any byte by a crash while it was written, is
    /// cut off like any other torn batch, and the batches before it stay.
    @Test func aTornBatchInPiecesIsCutOffAtEveryByteOffset() throws {
        let directory = TemporaryDirectory()
        let (segment, _) = try makeStore(directory, batches: 2)
        let lastStart = try ByteSurgery.size(of: segment)
        do {
            let log = try EventLog(directory: directory.path, configuration: testConfiguration())
            let events = (7..<40).map { Array(String(repeating: "event \($0); ", count: 8).utf8) }
            _ = try log.append(events, inPiecesOf: 256)
            log.close()
            try forgetDurablePoint(directory.path)
        }
        let original = try ByteSurgery.bytes(of: segment)
        let header = try #require(original[lastStart...].withUnsafeBytes { BatchHeader.read(from: $0) })
        #expect(header.version == 3 && header.isInPieces)
        #expect(try readAll(directory.path).count == 39)
        for cut in lastStart..<original.count {
            try ByteSurgery.write(Array(original[..<cut]), to: segment)
            let log = try EventLog(directory: directory.path, configuration: testConfiguration())
            #expect(log.nextSequence == 7, "cut at \(cut)")
            #expect(try ByteSurgery.size(of: segment) == lastStart, "cut at \(cut)")
            if cut > lastStart {
                let kept = try #require(log.recovery.report.quarantinedTail, "cut at \(cut)")
                #expect(try ByteSurgery.bytes(of: kept.quarantinePath) == Array(original[lastStart..<cut]))
            }
            log.close()
            try forgetDurablePoint(directory.path)
            #expect(try readAll(directory.path).map(\.0) == Array(1...6), "cut at \(cut)")
        }
    }

    @Test func truncatedTrailingBatchIsCutOffAtEveryByteOffset() throws {
        let directory = TemporaryDirectory()
        let (segment, offsets) = try makeStore(directory, batches: 3)
        let original = try ByteSurgery.bytes(of: segment)
        let lastStart = try #require(offsets.last)
        for cut in lastStart..<original.count {
            try ByteSurgery.write(Array(original[..<cut]), to: segment)
            let log = try EventLog(directory: directory.path, configuration: testConfiguration())
            #expect(log.nextSequence == 7, "cut at \(cut)")
            #expect(log.recovery.cutTail?.offset == (cut == lastStart ? nil : Int64(lastStart)), "cut at \(cut)")
            #expect(try ByteSurgery.size(of: segment) == lastStart)
            if cut > lastStart {
                let kept = try #require(log.recovery.report.quarantinedTail, "cut at \(cut)")
                #expect(kept.wasTorn && kept.firstSequence == 7 && kept.offset == Int64(lastStart))
                #expect(try ByteSurgery.bytes(of: kept.quarantinePath) == Array(original[lastStart..<cut]))
            }
            #expect(try log.append([sampleEvent(99)]) == 7...7)
            log.close()
            try forgetDurablePoint(directory.path)
            let read = try readAll(directory.path)
            #expect(read.map(\.0) == Array(1...7))
            #expect(read.last?.1 == sampleEvent(99))
        }
    }

    @Test func theCutIsReportedThroughTheLogger() throws {
        let directory = TemporaryDirectory()
        let (segment, offsets) = try makeStore(directory)
        try ByteSurgery.truncate(segment, to: try ByteSurgery.size(of: segment) - 5)
        let handler = InMemoryLogHandler()
        var configuration = testConfiguration()
        configuration.logger = Logger(label: "test", factory: { _ in handler })
        _ = try EventLog(directory: directory.path, configuration: configuration)
        let entries = handler.entries
        #expect(entries.count == 1)
        #expect(entries.first?.level == .warning)
        #expect(entries.first?.message.description.contains("torn batch") == true)
        #expect(entries.first?.metadata["quarantine"] != nil)
        #expect(entries.first?.metadata["offset"] == "\(offsets[3])")
        #expect(entries.first?.metadata["segment"] == "\(segment)")
    }

    @Test(arguments: [
        ("header", 9),  // a byte of the first sequence number
        ("payload", LogFormat.headerSize + 3),
    ])
    func flippedByteInAMiddleBatchStopsTheOpenNamingSegmentAndOffset(place: String, within: Int) throws {
        let directory = TemporaryDirectory()
        let (segment, offsets) = try makeStore(directory)
        let before = try ByteSurgery.bytes(of: segment)
        try ByteSurgery.flipByte(in: segment, at: offsets[1] + within)
        let damaged = try ByteSurgery.bytes(of: segment)
        let error = #expect(throws: LogbookError.self) {
            try EventLog(directory: directory.path, configuration: testConfiguration())
        }
        #expect(error?.code == .corruption)
        #expect(error?.path == segment)
        #expect(error?.offset == Int64(offsets[1]))
        #expect(error?.description.contains("checksum mismatch") == true)
        #expect(error?.description.contains("byte offset \(offsets[1])") == true)
        #expect(try ByteSurgery.bytes(of: segment) == damaged, "nothing is truncated")
        #expect(damaged != before)
        // A reader stops at the same place with the same error.
        let readError = #expect(throws: LogbookError.self) { try readAll(directory.path) }
        #expect(readError?.offset == Int64(offsets[1]))
    }

    @Test(arguments: [9, LogFormat.Offset.storedLength, LogFormat.Offset.storedLength + 3, LogFormat.headerSize + 3])
    func flippedByteInTheLastBatchStopsTheOpenUnlessQuarantineIsAllowed(within: Int) throws {
        let directory = TemporaryDirectory()
        let (segment, offsets) = try makeStore(directory)
        try ByteSurgery.flipByte(in: segment, at: offsets[3] + within)
        let damaged = try ByteSurgery.bytes(of: segment)
        let error = #expect(throws: LogbookError.self) {
            try EventLog(directory: directory.path, configuration: testConfiguration())
        }
        #expect(error?.code == .corruption)
        #expect(error?.offset == Int64(offsets[3]))
        #expect(error?.description.contains("logbook salvage") == true)
        #expect(try ByteSurgery.bytes(of: segment) == damaged, "nothing is truncated")
        var configuration = testConfiguration()
        configuration.damagedTailPolicy = .quarantine
        let log = try EventLog(directory: directory.path, configuration: configuration)
        #expect(log.nextSequence == 10)
        #expect(log.recovery.cutTail?.offset == Int64(offsets[3]))
        #expect(try ByteSurgery.size(of: segment) == offsets[3])
        let kept = try #require(log.recovery.report.quarantinedTail)
        #expect(!kept.wasTorn)
        #expect(try ByteSurgery.bytes(of: kept.quarantinePath) == Array(damaged[offsets[3]...]))
    }

    @Test func damageInASealedSegmentStopsTheOpenEvenWhenItIsTheSegmentsLastBatch() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(directory: directory.path, configuration: testConfiguration(segmentSize: 200))
        for n in 1...6 { _ = try log.append([sampleEvent(UInt64(n), length: 120)]) }
        log.close()
        let segments = try segmentPaths(directory.path)
        #expect(segments.count == 6)
        let sealedSize = try ByteSurgery.size(of: segments[2])
        try ByteSurgery.truncate(segments[2], to: sealedSize - 1)
        let error = #expect(throws: LogbookError.self) {
            try EventLog(directory: directory.path, configuration: testConfiguration(segmentSize: 200))
        }
        #expect(error?.code == .corruption)
        #expect(error?.path == segments[2])
        #expect(error?.offset == 0)
        #expect(try ByteSurgery.size(of: segments[2]) == sealedSize - 1, "nothing is truncated")
    }

    @Test func aMissingSegmentIsASequenceGap() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(directory: directory.path, configuration: testConfiguration(segmentSize: 200))
        for n in 1...4 { _ = try log.append([sampleEvent(UInt64(n), length: 120)]) }
        log.close()
        let segments = try segmentPaths(directory.path)
        try FileManager.default.removeItem(atPath: segments[1])
        let error = #expect(throws: LogbookError.self) {
            try EventLog(directory: directory.path, configuration: testConfiguration())
        }
        #expect(error?.code == .corruption)
        #expect(error?.path == segments[2])
        #expect(error?.description.contains("sequence gap: expected 2, found 3") == true)
        let readError = #expect(throws: LogbookError.self) { try readAll(directory.path) }
        #expect(readError?.description.contains("sequence gap") == true)
    }

    @Test func anUnknownFormatVersionWithAValidChecksumStopsTheOpen() throws {
        let directory = TemporaryDirectory()
        let (segment, offsets) = try makeStore(directory)
        // Rewrite the last batch as the version after this release's and fix up its checksum:
        // a batch from the future.
        var bytes = try ByteSurgery.bytes(of: segment)
        let start = offsets[3]
        bytes[start + LogFormat.Offset.version] = UInt8(LogFormat.readableVersions.upperBound + 1)
        bytes.withUnsafeMutableBytes { raw in
            let frame = UnsafeMutableRawBufferPointer(rebasing: raw[start...])
            let checksum = BatchHeader.checksum(
                header: UnsafeRawBufferPointer(rebasing: frame[..<LogFormat.headerSize]),
                payload: UnsafeRawBufferPointer(rebasing: frame[LogFormat.headerSize...])
            )
            frame.storeBytes(of: checksum.littleEndian, toByteOffset: LogFormat.Offset.checksum, as: UInt32.self)
        }
        try ByteSurgery.write(bytes, to: segment)
        let error = #expect(throws: LogbookError.self) {
            try EventLog(directory: directory.path, configuration: testConfiguration())
        }
        #expect(error?.code == .unsupportedFormat)
        #expect(
            error?.description.contains("unknown batch format version 6 (this release reads versions 1 to 5)") == true
        )
        #expect(error?.offset == Int64(start))
        #expect(try ByteSurgery.bytes(of: segment) == bytes, "nothing is truncated")
    }

    @Test func garbageAfterTheLastBatchIsCutButASoundBatchAfterGarbageIsNot() throws {
        let directory = TemporaryDirectory()
        let (segment, offsets) = try makeStore(directory)
        let original = try ByteSurgery.bytes(of: segment)
        // Zeros after the last batch, as a crash on some file systems leaves them: torn.
        try ByteSurgery.write(original + [UInt8](repeating: 0, count: 4096), to: segment)
        let log = try EventLog(directory: directory.path, configuration: testConfiguration())
        #expect(log.nextSequence == 13)
        log.close()
        #expect(try ByteSurgery.bytes(of: segment) == original)
        // Damage in batch 2 with sound batches 3 and 4 after it: corruption, not a tail.
        try ByteSurgery.overwrite(segment, at: offsets[2] + 2, with: [0, 0, 0, 0])
        #expect(throws: LogbookError.self) {
            try EventLog(directory: directory.path, configuration: testConfiguration())
        }
    }

    @Test func aStoreTornInsideItsFirstBatchOpensEmptyAndAcceptsAppends() throws {
        let directory = TemporaryDirectory()
        let (segment, _) = try makeStore(directory, batches: 1)
        try ByteSurgery.truncate(segment, to: 10)
        let log = try EventLog(directory: directory.path, configuration: testConfiguration())
        #expect(log.nextSequence == 1)
        #expect(try log.append([sampleEvent(1)]) == 1...1)
        #expect(try readAll(directory.path).map(\.1) == [sampleEvent(1)])
    }

    @Test func lastSegmentVerificationSkipsSealedSegmentsUntilTheyAreRead() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(directory: directory.path, configuration: testConfiguration(segmentSize: 200))
        for n in 1...4 { _ = try log.append([sampleEvent(UInt64(n), length: 120)]) }
        log.close()
        let segments = try segmentPaths(directory.path)
        try ByteSurgery.flipByte(in: segments[0], at: 40)
        var configuration = testConfiguration(segmentSize: 200)
        configuration.verification = .lastSegment
        let reopened = try EventLog(directory: directory.path, configuration: configuration)
        #expect(reopened.nextSequence == 5)
        let error = #expect(throws: LogbookError.self) { try readAll(directory.path) }
        #expect(error?.path == segments[0])
    }
}
