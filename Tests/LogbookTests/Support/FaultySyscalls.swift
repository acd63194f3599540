import Foundation
import Synchronization

@testable import Logbook

/// A system-call layer that passes calls through to the real one and fails chosen calls, the
/// way SQLite's I/O error tests and LevelDB's fault-injection environment do.
final class FaultySyscalls: Syscalls {
    enum Operation: String, Sendable, CaseIterable {
        case open, pwrite, fdatasync, fsync, ftruncate, rename
    }

    enum Fault: Sendable {
        /// Fail with this errno.
        case fail(Errno)
        /// Write only this many bytes, then fail the next write with this errno.
        case shortWrite(Int, then: Errno)
    }

    private struct State {
        var counts: [Operation: Int] = [:]
        var planned: [Operation: (at: Int, fault: Fault)] = [:]
        var pendingWriteFailure: Errno?
        var injected = 0
        var largestWrite = 0
    }

    private let real = PosixSyscalls()
    private let state = Mutex(State())

    /// Makes the `n`th future call (1-based) of `operation` fail.
    func inject(_ fault: Fault, at n: Int = 1, on operation: Operation) {
        state.withLock { $0.planned[operation] = ($0.counts[operation, default: 0] + n, fault) }
    }

    /// How many faults have fired.
    var injectedCount: Int { state.withLock { $0.injected } }

    /// The most bytes one `pwrite` was asked to write since the layer was made, or since
    /// ``forgetLargestWrite()``.
    var largestWrite: Int { state.withLock { $0.largestWrite } }

    func forgetLargestWrite() {
        state.withLock { $0.largestWrite = 0 }
    }

    private func fault(for operation: Operation) -> Fault? {
        state.withLock { state in
            state.counts[operation, default: 0] += 1
            guard let plan = state.planned[operation], plan.at == state.counts[operation] else { return nil }
            state.planned[operation] = nil
            state.injected += 1
            return plan.fault
        }
    }

    func open(_ path: String, flags: Int32, mode: mode_t) -> Result<Int32, Errno> {
        if case .fail(let errno) = fault(for: .open) { return .failure(errno) }
        return real.open(path, flags: flags, mode: mode)
    }

    func close(_ fd: Int32) -> Result<Void, Errno> { real.close(fd) }

    func pread(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Result<Int, Errno> {
        real.pread(fd, into: buffer, at: offset)
    }

    func pwrite(_ fd: Int32, from buffer: UnsafeRawBufferPointer, at offset: Int64) -> Result<Int, Errno> {
        state.withLock { $0.largestWrite = max($0.largestWrite, buffer.count) }
        if let errno = state.withLock({ state -> Errno? in
            defer { state.pendingWriteFailure = nil }
            return state.pendingWriteFailure
        }) {
            return .failure(errno)
        }
        switch fault(for: .pwrite) {
        case .fail(let errno)?:
            return .failure(errno)
        case .shortWrite(let count, let errno)?:
            state.withLock { $0.pendingWriteFailure = errno }
            return real.pwrite(
                fd,
                from: UnsafeRawBufferPointer(rebasing: buffer[..<min(count, buffer.count)]),
                at: offset
            )
        case nil:
            return real.pwrite(fd, from: buffer, at: offset)
        }
    }

    func fdatasync(_ fd: Int32) -> Result<Void, Errno> {
        if case .fail(let errno) = fault(for: .fdatasync) { return .failure(errno) }
        return real.fdatasync(fd)
    }

    func fsync(_ fd: Int32) -> Result<Void, Errno> {
        if case .fail(let errno) = fault(for: .fsync) { return .failure(errno) }
        return real.fsync(fd)
    }

    func ftruncate(_ fd: Int32, length: Int64) -> Result<Void, Errno> {
        if case .fail(let errno) = fault(for: .ftruncate) { return .failure(errno) }
        return real.ftruncate(fd, length: length)
    }

    func flock(_ fd: Int32, operation: Int32) -> Result<Void, Errno> { real.flock(fd, operation: operation) }
    func fileSize(_ fd: Int32) -> Result<Int64, Errno> { real.fileSize(fd) }
    func makeDirectory(_ path: String) -> Result<Void, Errno> { real.makeDirectory(path) }
    func listDirectory(_ path: String) -> Result<[String], Errno> { real.listDirectory(path) }
    func unlink(_ path: String) -> Result<Void, Errno> { real.unlink(path) }
    func removeDirectory(_ path: String) -> Result<Void, Errno> { real.removeDirectory(path) }

    func rename(_ source: String, to destination: String) -> Result<Void, Errno> {
        if case .fail(let errno) = fault(for: .rename) { return .failure(errno) }
        return real.rename(source, to: destination)
    }
}
