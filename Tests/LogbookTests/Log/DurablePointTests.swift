import Foundation
import Testing

@testable import Logbook

/// The durable record: written at close and every so often, and checked by every open, so that
/// a log that lost batches once on disk is damage, never a torn write.
struct DurablePointTests {
    @Test func theRecordNamesTheLastBatchAtCloseAndEverySoManyAppends() throws {
        let directory = TemporaryDirectory()
        var configuration = testConfiguration(durability: .durable)
        configuration.durableRecordAppends = 3
        let log = try EventLog(directory: directory.path, configuration: configuration)
        for n in 1...4 { _ = try log.append([sampleEvent(UInt64(n))]) }
        let everySoOften = try #require(try DurableRecord.read(in: directory.path, syscalls: PosixSyscalls()))
        #expect(everySoOften.sequence == 3)
        log.close()
        let atClose = try #require(try DurableRecord.read(in: directory.path, syscalls: PosixSyscalls()))
        #expect(atClose.sequence == 4)
        #expect(atClose.location?.segmentFirstSequence == 1)
        let reopened = try EventLog(directory: directory.path, configuration: configuration)
        #expect(reopened.recovery.durablePoint == atClose)
        #expect(reopened.recovery.lastBatch == atClose)
    }

    @Test func anOpenThatAppendsNothingWritesNoRecord() throws {
        let directory = TemporaryDirectory()
        do {
            let log = try EventLog(directory: directory.path, configuration: testConfiguration())
            _ = try log.append([sampleEvent(1)])
        }
        try forgetDurablePoint(directory.path)
        let log = try EventLog(directory: directory.path, configuration: testConfiguration())
        log.close()
        #expect(try DurableRecord.read(in: directory.path, syscalls: PosixSyscalls()) == nil)
    }

    @Test func aLogThatEndsAtABatchBoundaryBeforeTheDurablePointStopsTheOpen() throws {
        let directory = TemporaryDirectory()
        let segment = directory.child(SegmentDirectory.fileName(forFirstSequence: 1))
        let log = try EventLog(directory: directory.path, configuration: testConfiguration())
        _ = try log.append([sampleEvent(1), sampleEvent(2)])
        let boundary = try ByteSurgery.size(of: segment)
        _ = try log.append([sampleEvent(3)])
        log.close()
        try ByteSurgery.truncate(segment, to: boundary)
        let error = #expect(throws: LogbookError.self) {
            try EventLog(directory: directory.path, configuration: testConfiguration())
        }
        #expect(error?.code == .corruption)
        #expect(error?.sequence == 3)
        #expect(error?.message.contains("the log ends at sequence 2, before the batch at sequence 3") == true)
        #expect(error?.message.contains("logbook salvage") == true)
        let report = try LogVerifier.verify(directory: directory.path)
        #expect(!report.isSound)
    }

    @Test func aDifferentBatchAtTheDurablePointStopsTheOpen() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(directory: directory.path, configuration: testConfiguration())
        _ = try log.append([sampleEvent(1)])
        log.close()
        var point = try #require(try DurableRecord.read(in: directory.path, syscalls: PosixSyscalls()))
        point.checksum ^= 1
        try DurableRecord.write(point, in: directory.path, syscalls: PosixSyscalls())
        let error = #expect(throws: LogbookError.self) {
            try EventLog(directory: directory.path, configuration: testConfiguration())
        }
        #expect(error?.code == .corruption)
        #expect(error?.message.contains("the log was changed after it was on disk") == true)
        #expect(!(try LogVerifier.verify(directory: directory.path).isSound))
    }

    @Test func aPointInASealedSegmentIsCheckedWhereItLies() throws {
        let directory = TemporaryDirectory()
        var configuration = testConfiguration(segmentSize: 200)
        configuration.verification = .lastSegment
        let log = try EventLog(directory: directory.path, configuration: configuration)
        for n in 1...2 { _ = try log.append([sampleEvent(UInt64(n), length: 120)]) }
        log.close()
        var point = try #require(try DurableRecord.read(in: directory.path, syscalls: PosixSyscalls()))
        #expect(point.location?.segmentFirstSequence == 2)
        // A point in the first segment, which an open that checks the last segment alone skips.
        point = DurablePoint(
            sequence: 1,
            checksum: 0xDEAD_BEEF,
            location: DurablePoint.Location(segmentFirstSequence: 1, offset: 0),
            source: "test"
        )
        try DurableRecord.write(point, in: directory.path, syscalls: PosixSyscalls())
        let error = #expect(throws: LogbookError.self) {
            try EventLog(directory: directory.path, configuration: configuration)
        }
        #expect(error?.code == .corruption)
        #expect(error?.path == directory.child(SegmentDirectory.fileName(forFirstSequence: 1)))
    }

    @Test func aDamagedRecordIsDamage() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(directory: directory.path, configuration: testConfiguration())
        _ = try log.append([sampleEvent(1)])
        log.close()
        let record = directory.child(DurableRecord.fileName)
        try ByteSurgery.flipByte(in: record, at: 9)
        let error = #expect(throws: LogbookError.self) {
            try EventLog(directory: directory.path, configuration: testConfiguration())
        }
        #expect(error?.code == .corruption)
        #expect(error?.path == record)
    }

    @Test func theRecordRoundTrips() throws {
        let point = DurablePoint(
            sequence: 0x0102_0304_0506_0708,
            checksum: 0xCAFE_F00D,
            location: DurablePoint.Location(segmentFirstSequence: 77, offset: 4096),
            source: "test"
        )
        let bytes = DurableRecord.encode(point)
        #expect(bytes.count == DurableRecord.size)
        #expect(Array(bytes[0..<4]) == Array("LBDR".utf8))
        #expect(try DurableRecord.decode(bytes, source: "test").get() == point)
    }
}
