import Foundation
import Testing

@testable import Logbook

/// Reading the next batch on another thread gives what the cursor gives, in its order,
/// errors included.
struct BatchReadAheadTests {
    /// A store of `batches` batches of 20 events, rolling every few batches.
    private func store(batches: Int) throws -> TemporaryDirectory {
        let directory = TemporaryDirectory()
        let log = try EventLog(directory: directory.path, configuration: testConfiguration(segmentSize: 4 << 10))
        for batch in 0..<UInt64(batches) {
            _ = try log.append((1...20).map { sampleEvent(batch * 20 + $0) })
        }
        log.close()
        return directory
    }

    private func allBatches(_ readAhead: BatchReadAhead<Void>) throws -> [Batch] {
        var batches: [Batch] = []
        while let (batch, _) = try readAhead.next() { batches.append(batch) }
        return batches
    }

    @Test func givesTheCursorsBatchesAcrossSegmentsThenNil() throws {
        let directory = try store(batches: 12)
        #expect(try segmentPaths(directory.path).count > 2)
        var cursor = LogReader(directory: directory.path).batches()
        var expected: [Batch] = []
        while let batch = try cursor.next() { expected.append(batch) }
        let readAhead = BatchReadAhead(LogReader(directory: directory.path).batches())
        let batches = try allBatches(readAhead)
        #expect(batches.map(\.firstSequence) == expected.map(\.firstSequence))
        #expect(batches.map(\.segment) == expected.map(\.segment))
        #expect(batches.map(\.offset) == expected.map(\.offset))
        #expect(batches.map(\.payload) == expected.map(\.payload))
        #expect(batches.last?.lastSequence == 240)
        #expect(try readAhead.next() == nil)
    }

    @Test func startsAtTheBatchHoldingASequenceNumber() throws {
        let directory = try store(batches: 6)
        let readAhead = BatchReadAhead(LogReader(directory: directory.path).batches(from: 65))
        #expect(try allBatches(readAhead).map(\.firstSequence) == [61, 81, 101])
    }

    @Test func throwsTheCursorsErrorAtTheDamagedBatchAndThenEnds() throws {
        let directory = try store(batches: 8)
        var cursor = LogReader(directory: directory.path).batches()
        var offsets: [(segment: String, offset: Int64)] = []
        while let batch = try cursor.next() { offsets.append((batch.segment, batch.offset)) }
        // Damage the fourth batch, which a later one follows: corruption, not a torn tail.
        let damaged = offsets[3]
        try ByteSurgery.flipByte(in: damaged.segment, at: Int(damaged.offset) + 40)

        var expectedError: LogbookError?
        var expectedCount = 0
        var plain = LogReader(directory: directory.path).batches()
        do {
            while try plain.next() != nil { expectedCount += 1 }
        } catch {
            expectedError = error
        }
        let expected = try #require(expectedError)

        let readAhead = BatchReadAhead(LogReader(directory: directory.path).batches())
        var count = 0
        let error = #expect(throws: LogbookError.self) {
            while try readAhead.next() != nil { count += 1 }
        }
        #expect(count == expectedCount)
        #expect(count == 3)
        #expect(error?.code == .corruption)
        #expect(error?.path == damaged.segment)
        #expect(error?.offset == damaged.offset)
        #expect(error?.description == expected.description)
        #expect(try readAhead.next() == nil)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd"), "lists descriptors in /proc"))
    func finishingAfterOneBatchLeavesNoSegmentOpen() throws {
        let directory = try store(batches: 8)
        let readAhead = BatchReadAhead(LogReader(directory: directory.path).batches())
        #expect(try readAhead.next()?.0.firstSequence == 1)
        readAhead.finish()
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        let open = descriptors.compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)
        }
        #expect(open.filter { $0.hasPrefix(directory.path + "/") } == [])
        #expect(try readAhead.next() == nil)
    }

    @Test func aReaderLeftAfterOneBatchLetsItsReadFinish() throws {
        let directory = try store(batches: 4)
        weak var left: BatchReadAhead<Void>?
        do {
            let readAhead = BatchReadAhead(LogReader(directory: directory.path).batches())
            left = readAhead
            #expect(try readAhead.next()?.0.firstSequence == 1)
        }
        // The read of the second batch keeps the reader until it is done, then lets it go.
        let deadline = Date().addingTimeInterval(10)
        while left != nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
        #expect(left == nil)
        #expect(try readAll(directory.path).count == 80)
    }
}
