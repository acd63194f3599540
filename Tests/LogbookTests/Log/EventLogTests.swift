import Foundation
import Testing

@testable import Logbook

struct EventLogTests {
    @Test func appendReturnsConsecutiveSequenceNumbersFromOne() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(directory: directory.path, configuration: testConfiguration())
        #expect(try log.append([sampleEvent(1)]) == 1...1)
        #expect(try log.append([sampleEvent(2), sampleEvent(3), sampleEvent(4)]) == 2...4)
        #expect(log.nextSequence == 5)
    }

    @Test(arguments: [LogDurability.durable, .relaxed])
    func manyBatchesAcrossSegmentRollsReadBackAfterReopening(durability: LogDurability) throws {
        let directory = TemporaryDirectory()
        var expected: [(UInt64, [UInt8])] = []
        do {
            let log = try EventLog(
                directory: directory.path,
                configuration: testConfiguration(segmentSize: 4096, durability: durability)
            )
            var next: UInt64 = 1
            for batchIndex in 0..<120 {
                let events = (0..<(batchIndex % 7 + 1)).map { offset in sampleEvent(next + UInt64(offset)) }
                let range = try log.append(events)
                #expect(range.lowerBound == next)
                for (offset, event) in events.enumerated() { expected.append((next + UInt64(offset), event)) }
                next = range.upperBound + 1
            }
        }
        let segments = try segmentPaths(directory.path)
        #expect(segments.count > 3, "a 4 KiB segment size rolls several times")
        for path in segments {
            #expect(try ByteSurgery.size(of: path) <= 4096)
        }
        let reopened = try EventLog(directory: directory.path, configuration: testConfiguration(segmentSize: 4096))
        #expect(reopened.nextSequence == UInt64(expected.count) + 1)
        let read = try readAll(directory.path)
        #expect(read.map(\.0) == expected.map(\.0))
        #expect(read.map(\.1) == expected.map(\.1))
    }

    @Test func readingFromTheMiddleStartsAtTheBatchHoldingThatSequence() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(directory: directory.path, configuration: testConfiguration(segmentSize: 2048))
        for batch in 0..<50 {
            let first = UInt64(batch * 4 + 1)
            _ = try log.append((first..<(first + 4)).map { sampleEvent($0) })
        }
        for start: UInt64 in [1, 2, 97, 150, 200] {
            let read = try readAll(directory.path, from: start)
            #expect(read.map(\.0) == Array(start...200))
            #expect(read.first?.1 == sampleEvent(start))
        }
        #expect(try readAll(directory.path, from: 201).isEmpty)
    }

    @Test func segmentsAreNamedByTheirFirstSequenceNumberPaddedToTwentyDigits() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(directory: directory.path, configuration: testConfiguration(segmentSize: 256))
        _ = try log.append([sampleEvent(1, length: 200)])
        _ = try log.append([sampleEvent(2, length: 200), sampleEvent(3, length: 10)])
        let names = try segmentPaths(directory.path).map { ($0 as NSString).lastPathComponent }
        #expect(names == ["00000000000000000001.log", "00000000000000000002.log"])
    }

    @Test func aBatchLargerThanTheSegmentSizeGetsASegmentOfItsOwn() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(directory: directory.path, configuration: testConfiguration(segmentSize: 100))
        _ = try log.append([sampleEvent(1, length: 10)])
        var generator = SystemRandomNumberGenerator()
        let large = (0..<1000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        _ = try log.append([large])
        _ = try log.append([sampleEvent(3, length: 10)])
        #expect(try segmentPaths(directory.path).count == 3)
        #expect(
            try readAll(directory.path).map(\.1) == [sampleEvent(1, length: 10), large, sampleEvent(3, length: 10)]
        )
    }

    @Test func compressiblePayloadsAreStoredCompressedAndNoiseIsStoredAsIs() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(directory: directory.path, configuration: testConfiguration())
        let compressible = [UInt8](repeating: 0x41, count: 10_000)
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<10_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        _ = try log.append([compressible])
        _ = try log.append([noise])
        var cursor = LogReader(directory: directory.path).batches()
        let first = try #require(try cursor.next())
        let second = try #require(try cursor.next())
        #expect(first.header.isCompressed)
        #expect(first.header.storedLength < 200)
        #expect(!second.header.isCompressed)
        #expect(second.header.storedLength == second.header.uncompressedLength)
        #expect([UInt8](first.event(at: 0)) == compressible)
        #expect([UInt8](second.event(at: 0)) == noise)
    }

    @Test func emptyEventsAndAnEmptyStoreReadBack() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(directory: directory.path, configuration: testConfiguration())
        #expect(try readAll(directory.path).isEmpty)
        _ = try log.append([[], [1], []])
        #expect(try readAll(directory.path).map(\.1) == [[], [1], []])
    }

    @Test func anAppendOverTheMaximumBatchSizeThrowsAndWritesNothing() throws {
        let directory = TemporaryDirectory()
        var configuration = testConfiguration()
        configuration.maximumBatchSize = 1000
        let log = try EventLog(directory: directory.path, configuration: configuration)
        _ = try log.append([sampleEvent(1)])
        let error = #expect(throws: LogbookError.self) { try log.append([[UInt8](repeating: 0, count: 2000)]) }
        #expect(error?.code == .batchTooLarge)
        #expect(error?.description.contains("maximum batch size of 1000 bytes") == true)
        _ = try log.append([sampleEvent(2)])
        #expect(try readAll(directory.path).map(\.0) == [1, 2])
    }

    @Test func aSecondWriterIsRefusedWithAnErrorNamingTheStoreUntilTheFirstCloses() throws {
        let directory = TemporaryDirectory()
        let first = try EventLog(directory: directory.path, configuration: testConfiguration())
        let error = #expect(throws: LogbookError.self) {
            try EventLog(directory: directory.path, configuration: testConfiguration())
        }
        #expect(error?.code == .storeLocked)
        #expect(error?.description.contains(directory.path) == true)
        first.close()
        let second = try EventLog(directory: directory.path, configuration: testConfiguration())
        _ = try second.append([sampleEvent(1)])
    }

    @Test func theLockIsReleasedWhenTheLogIsDeinitialised() throws {
        let directory = TemporaryDirectory()
        do {
            let log = try EventLog(directory: directory.path, configuration: testConfiguration())
            _ = try log.append([sampleEvent(1)])
        }
        let again = try EventLog(directory: directory.path, configuration: testConfiguration())
        #expect(again.nextSequence == 2)
    }

    @Test func appendingAfterCloseThrows() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(directory: directory.path, configuration: testConfiguration())
        log.close()
        #expect(throws: LogbookError.self) { try log.append([sampleEvent(1)]) }
    }

    @Test func openingAMissingStoreWithoutCreateThrowsNotAStore() throws {
        let directory = TemporaryDirectory()
        var configuration = testConfiguration()
        configuration.createIfMissing = false
        let error = #expect(throws: LogbookError.self) {
            try EventLog(directory: directory.child("missing"), configuration: configuration)
        }
        #expect(error?.code == .notAStore)
        #expect(!FileManager.default.fileExists(atPath: directory.child("missing")))
    }

    @Test func aReaderSeesBatchesAppendedAfterItReachedTheEnd() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(directory: directory.path, configuration: testConfiguration(segmentSize: 300))
        _ = try log.append([sampleEvent(1, length: 100)])
        var cursor = log.reader().batches()
        #expect(try cursor.next()?.firstSequence == 1)
        #expect(try cursor.next() == nil)
        _ = try log.append([sampleEvent(2, length: 100)])
        _ = try log.append([sampleEvent(3, length: 250)])  // rolls to a new segment
        #expect(try cursor.next()?.firstSequence == 2)
        #expect(try cursor.next()?.firstSequence == 3)
        #expect(try cursor.next() == nil)
    }
}
