import Foundation
import Testing

@testable import Logbook

struct FaultInjectionTests {
    enum Case: String, CaseIterable, CustomTestStringConvertible {
        case enospc, eio, shortWriteThenENOSPC, shortWriteThenEIO
        var fault: FaultySyscalls.Fault {
            switch self {
            case .enospc: return .fail(.noSpace)
            case .eio: return .fail(.ioError)
            case .shortWriteThenENOSPC: return .shortWrite(37, then: .noSpace)
            case .shortWriteThenEIO: return .shortWrite(5, then: .ioError)
            }
        }
        var testDescription: String { rawValue }
    }

    @Test(arguments: Case.allCases, [false, true])
    func aFailedWriteThrowsAndTheLogHoldsExactlyTheAcknowledgedBatches(fault: Case, rolling: Bool) throws {
        let directory = TemporaryDirectory()
        let syscalls = FaultySyscalls()
        let log = try EventLog(
            directory: directory.path,
            configuration: testConfiguration(
                segmentSize: rolling ? 150 : 1 << 20,
                durability: .durable,
                syscalls: syscalls
            )
        )
        _ = try log.append([sampleEvent(1, length: 100)])
        _ = try log.append([sampleEvent(2, length: 100)])
        syscalls.inject(fault.fault, on: .pwrite)
        let error = #expect(throws: LogbookError.self) { try log.append([sampleEvent(3, length: 100)]) }
        #expect(syscalls.injectedCount == 1)
        #expect(error?.code == .io)
        #expect(error?.description.contains("pwrite failed") == true)
        // The writer stays usable: the partial bytes were cut off.
        #expect(try log.append([sampleEvent(4, length: 100)]) == 3...3)
        log.close()
        let reopened = try EventLog(directory: directory.path, configuration: testConfiguration())
        #expect(reopened.recovery.cutTail == nil)
        #expect(
            try readAll(directory.path).map(\.1) == [
                sampleEvent(1, length: 100), sampleEvent(2, length: 100), sampleEvent(4, length: 100),
            ]
        )
    }

    @Test func aFailedFdatasyncIsFatalForTheWriterAndSaysSo() throws {
        let directory = TemporaryDirectory()
        let syscalls = FaultySyscalls()
        let log = try EventLog(
            directory: directory.path,
            configuration: testConfiguration(durability: .durable, syscalls: syscalls)
        )
        _ = try log.append([sampleEvent(1)])
        syscalls.inject(.fail(.ioError), on: .fdatasync)
        let error = #expect(throws: LogbookError.self) { try log.append([sampleEvent(2)]) }
        #expect(error?.code == .writerFailed)
        #expect(error?.description.contains("accepts no more appends") == true)
        #expect(error?.description.contains("fdatasync failed") == true)
        // No retry: every later append is refused without touching the disk.
        let again = #expect(throws: LogbookError.self) { try log.append([sampleEvent(3)]) }
        #expect(again?.code == .writerFailed)
        log.close()
        // Reopening recovers; the unacknowledged batch may or may not be there, but whole if it is.
        let reopened = try EventLog(directory: directory.path, configuration: testConfiguration())
        let read = try readAll(directory.path)
        #expect(read.first?.1 == sampleEvent(1))
        #expect(read.count == 1 || read.last?.1 == sampleEvent(2))
        #expect(reopened.nextSequence == UInt64(read.count) + 1)
    }

    @Test func aFailedDirectoryFsyncAfterASegmentRollIsFatalForTheWriter() throws {
        let directory = TemporaryDirectory()
        let syscalls = FaultySyscalls()
        let log = try EventLog(
            directory: directory.path,
            configuration: testConfiguration(segmentSize: 150, durability: .durable, syscalls: syscalls)
        )
        _ = try log.append([sampleEvent(1, length: 100)])
        syscalls.inject(.fail(.ioError), on: .fsync)
        let error = #expect(throws: LogbookError.self) { try log.append([sampleEvent(2, length: 100)]) }
        #expect(error?.code == .writerFailed)
        #expect(error?.path == directory.path)
    }

    @Test func aWriteThatCannotBeCutOffLeavesTheWriterFailedAndReopeningRecovers() throws {
        let directory = TemporaryDirectory()
        let syscalls = FaultySyscalls()
        let log = try EventLog(
            directory: directory.path,
            configuration: testConfiguration(durability: .durable, syscalls: syscalls)
        )
        _ = try log.append([sampleEvent(1, length: 100)])
        syscalls.inject(.shortWrite(20, then: .noSpace), on: .pwrite)
        syscalls.inject(.fail(.ioError), on: .ftruncate)
        #expect(throws: LogbookError.self) { try log.append([sampleEvent(2, length: 100)]) }
        let refused = #expect(throws: LogbookError.self) { try log.append([sampleEvent(3)]) }
        #expect(refused?.code == .writerFailed)
        log.close()
        let reopened = try EventLog(directory: directory.path, configuration: testConfiguration())
        #expect(reopened.recovery.cutTail != nil, "the 20 stray bytes are a torn tail")
        #expect(try readAll(directory.path).map(\.1) == [sampleEvent(1, length: 100)])
    }

    @Test func aFailedSegmentCreationThrowsAndTheNextAppendSucceeds() throws {
        let directory = TemporaryDirectory()
        let syscalls = FaultySyscalls()
        let log = try EventLog(
            directory: directory.path,
            configuration: testConfiguration(segmentSize: 150, durability: .durable, syscalls: syscalls)
        )
        _ = try log.append([sampleEvent(1, length: 100)])
        syscalls.inject(.fail(.noSpace), on: .open)
        let error = #expect(throws: LogbookError.self) { try log.append([sampleEvent(2, length: 100)]) }
        #expect(error?.code == .io)
        #expect(error?.description.contains("open failed") == true)
        #expect(try log.append([sampleEvent(3, length: 100)]) == 2...2)
        #expect(try readAll(directory.path).map(\.0) == [1, 2])
    }
}
