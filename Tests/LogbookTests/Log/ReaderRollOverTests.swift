import Foundation
import Synchronization
import Testing

@testable import Logbook

/// Passes every call through, and runs a hook once, inside the first directory listing after it
/// is armed: the moment a reader checks for a later segment.
private final class ListingHookSyscalls: Syscalls {
    private let real = PosixSyscalls()
    private let hook = Mutex<(@Sendable () -> Void)?>(nil)

    func arm(_ body: @escaping @Sendable () -> Void) { hook.withLock { $0 = body } }

    func listDirectory(_ path: String) -> Result<[String], Errno> {
        let armed = hook.withLock { hook in
            defer { hook = nil }
            return hook
        }
        armed?()
        return real.listDirectory(path)
    }

    func open(_ path: String, flags: Int32, mode: mode_t) -> Result<Int32, Errno> {
        real.open(path, flags: flags, mode: mode)
    }
    func close(_ fd: Int32) -> Result<Void, Errno> { real.close(fd) }
    func pread(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Result<Int, Errno> {
        real.pread(fd, into: buffer, at: offset)
    }
    func pwrite(_ fd: Int32, from buffer: UnsafeRawBufferPointer, at offset: Int64) -> Result<Int, Errno> {
        real.pwrite(fd, from: buffer, at: offset)
    }
    func fdatasync(_ fd: Int32) -> Result<Void, Errno> { real.fdatasync(fd) }
    func fsync(_ fd: Int32) -> Result<Void, Errno> { real.fsync(fd) }
    func ftruncate(_ fd: Int32, length: Int64) -> Result<Void, Errno> { real.ftruncate(fd, length: length) }
    func flock(_ fd: Int32, operation: Int32) -> Result<Void, Errno> { real.flock(fd, operation: operation) }
    func fileSize(_ fd: Int32) -> Result<Int64, Errno> { real.fileSize(fd) }
    func makeDirectory(_ path: String) -> Result<Void, Errno> { real.makeDirectory(path) }
    func unlink(_ path: String) -> Result<Void, Errno> { real.unlink(path) }
    func removeDirectory(_ path: String) -> Result<Void, Errno> { real.removeDirectory(path) }
    func rename(_ source: String, to destination: String) -> Result<Void, Errno> {
        real.rename(source, to: destination)
    }
}

struct ReaderRollOverTests {
    /// A reader meets a batch that the writer is still writing; before the reader looks for a
    /// later segment, the writer finishes the batch and rolls over to a new segment. The batch is
    /// whole, not damage: the reader reads it again and goes on into the new segment.
    @Test func aBatchFinishedWhileTheReaderChecksForALaterSegmentIsReadNotReportedAsDamage() throws {
        // The whole log, written by a writer that rolls after the second batch.
        let source = TemporaryDirectory()
        var configuration = LogConfiguration()
        configuration.segmentSize = 300
        let log = try EventLog(directory: source.path, configuration: configuration)
        // Bytes that do not compress, so that each batch has the same size.
        var state: UInt32 = 0x2545_F491
        let events = (1...3).map { _ in
            (0..<100).map { _ in
                state = state &* 1_664_525 &+ 1_013_904_223
                return UInt8(truncatingIfNeeded: state >> 24)
            }
        }
        for event in events { _ = try log.append([event]) }
        log.close()
        let segments = try LogReader(directory: source.path).segments()
        #expect(segments.count == 2, "the writer rolled over after the second batch")
        let first = try Data(contentsOf: URL(fileURLWithPath: segments[0].path))
        let second = try Data(contentsOf: URL(fileURLWithPath: segments[1].path))

        // What a reader sees while the second batch is being written: the first batch and part
        // of the second, in the first segment only.
        let store = TemporaryDirectory()
        let firstPath = store.child(URL(fileURLWithPath: segments[0].path).lastPathComponent)
        let secondPath = store.child(URL(fileURLWithPath: segments[1].path).lastPathComponent)
        let firstBatchEnd = first.count / 2
        try first.prefix(firstBatchEnd + 10).write(to: URL(fileURLWithPath: firstPath))

        let syscalls = ListingHookSyscalls()
        var cursor = LogReader(directory: store.path, syscalls: syscalls).batches()
        let one = try #require(try cursor.next())
        #expect(one.firstSequence == 1)
        syscalls.arm {
            try? first.write(to: URL(fileURLWithPath: firstPath))
            try? second.write(to: URL(fileURLWithPath: secondPath))
        }
        let two = try #require(try cursor.next())
        #expect(two.firstSequence == 2)
        #expect(two.events.map { [UInt8]($0.1) } == [events[1]])
        let three = try #require(try cursor.next())
        #expect(three.firstSequence == 3)
        #expect(try cursor.next() == nil)
    }
}
