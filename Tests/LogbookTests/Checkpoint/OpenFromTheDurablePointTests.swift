import Foundation
import SampleTrips
import Testing

@testable import Logbook

#if canImport(Glibc)
import Glibc
#endif

/// A container's open checks the last segment from the batch the durable record names: the
/// batches before it are checked when they are read, as the batches of sealed segments are. An
/// open that replays them meets any damage there and stops; an open from a checkpoint that holds
/// them does not read them.
struct OpenFromTheDurablePointTests {
    /// The batches of the store's only segment: offset, first and last sequence numbers.
    private func batches(_ store: CheckpointStore) throws -> (String, [(offset: Int64, first: UInt64, last: UInt64)]) {
        let segment = store.url.appendingPathComponent(SegmentDirectory.fileName(forFirstSequence: 1)).path
        var scanner = try SegmentScanner(
            file: try SystemFile.open(segment, flags: O_RDONLY, syscalls: PosixSyscalls()),
            maximumBatchSize: 64 << 20
        )
        var found: [(offset: Int64, first: UInt64, last: UInt64)] = []
        while case .batch(let header, let offset, _) = try scanner.next(.checksum) {
            found.append((offset, header.firstSequence, header.lastSequence))
        }
        return (segment, found)
    }

    /// Saves `steps` and closes, which records the last batch as durable; with `checkpointAfter`,
    /// writes a checkpoint after that many steps.
    private func makeStore(_ store: CheckpointStore, steps: Int, checkpointAfter: Int? = nil) throws -> TripsSnapshot {
        var history = TripsHistory(seed: 5)
        let container = try store.open()
        for step in 0..<steps {
            try history.save(container, steps: 1)
            if step + 1 == checkpointAfter { try container.checkpoint() }
        }
        return try TripsSnapshot(container)
    }

    /// The store's durable record names its last batch.
    private func expectDurablePointAtTheEnd(_ store: CheckpointStore, _ last: UInt64) throws {
        let point = try #require(try DurableRecord.read(in: store.path, syscalls: PosixSyscalls()))
        #expect(point.sequence == last)
        #expect(point.location != nil)
    }

    @Test func aFlippedByteBeforeTheDurablePointStopsAnOpenThatReplaysIt() throws {
        let store = CheckpointStore()
        _ = try makeStore(store, steps: 6)
        let (segment, found) = try batches(store)
        try #require(found.count >= 4)
        try expectDurablePointAtTheEnd(store, found[found.count - 1].last)
        let damaged = found[1].offset
        try ByteSurgery.flipByte(in: segment, at: Int(damaged) + LogFormat.headerSize + 5)
        let bytes = try ByteSurgery.bytes(of: segment)
        let error = #expect(throws: LogbookError.self) { try store.open() }
        #expect(error?.code == .corruption)
        #expect(error?.path == segment)
        #expect(error?.offset == damaged)
        #expect(error?.description.contains("checksum mismatch") == true, "\(String(describing: error))")
        #expect(try ByteSurgery.bytes(of: segment) == bytes, "nothing is truncated")
    }

    @Test func aFlippedByteBetweenTheCheckpointAndTheDurablePointStopsTheOpen() throws {
        let store = CheckpointStore()
        _ = try makeStore(store, steps: 8, checkpointAfter: 2)
        let (segment, found) = try batches(store)
        let checkpoint = try #require(try store.checkpoints().first)
        let after = try #require(found.firstIndex { $0.first > checkpoint.sequence })
        try #require(after < found.count - 1)
        let damaged = found[after].offset
        try ByteSurgery.flipByte(in: segment, at: Int(damaged) + LogFormat.headerSize + 5)
        let error = #expect(throws: LogbookError.self) { try store.open() }
        #expect(error?.code == .corruption)
        #expect(error?.path == segment)
        #expect(error?.offset == damaged)
    }

    @Test func anOpenFromACheckpointDoesNotReadTheBatchesItHoldsAndVerifyNamesTheirDamage() throws {
        let store = CheckpointStore()
        let expected = try makeStore(store, steps: 8, checkpointAfter: 6)
        let (segment, found) = try batches(store)
        let checkpoint = try #require(try store.checkpoints().first)
        let held = try #require(found.firstIndex { $0.last < checkpoint.sequence && $0.first > 1 })
        let damaged = found[held].offset
        try ByteSurgery.flipByte(in: segment, at: Int(damaged) + LogFormat.headerSize + 5)
        // The open loads the checkpoint and replays the batches after it, none of them damaged.
        let container = try store.open()
        #expect(store.openedFromCheckpoint)
        #expect(try TripsSnapshot(container) == expected)
        // A read of those batches meets the damage, and a full check names it.
        let report = try LogVerifier.verify(directory: store.path)
        #expect(!report.isSound)
        #expect(report.damages.first?.offset == damaged)
        #expect(report.damages.first?.segment == segment)
    }

    @Test func aDurableRecordNamingAnotherBatchThereFallsBackToCheckingTheWholeSegment() throws {
        let store = CheckpointStore()
        let expected = try makeStore(store, steps: 5)
        let (_, found) = try batches(store)
        var point = try #require(try DurableRecord.read(in: store.path, syscalls: PosixSyscalls()))
        // The record's location moved to an earlier batch: the open cannot start there, checks
        // the segment from its start, and finds the recorded batch where it is.
        point.location?.offset = found[1].offset
        try DurableRecord.write(point, in: store.path, syscalls: PosixSyscalls())
        let container = try store.open()
        #expect(try TripsSnapshot(container) == expected)
    }
}
