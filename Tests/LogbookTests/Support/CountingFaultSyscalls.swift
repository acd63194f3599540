import Foundation
import Synchronization

@testable import Logbook

/// A system-call layer that counts every call that changes a file or a directory and fails the
/// `n`th of them, the way SQLite's I/O error tests fail the Nth operation: run a workload once to
/// count its points, then once per point with the fault there.
final class CountingFaultSyscalls: Syscalls {
    enum Fault: Sendable, CustomStringConvertible {
        /// Fail with this errno.
        case fail(Errno)
        /// A write transfers half its bytes; the call after it fails with `ENOSPC`.
        case shortWrite

        var description: String {
            switch self {
            case .fail(let errno): "\(errno)"
            case .shortWrite: "short write"
            }
        }
    }

    /// One counted call, for reports.
    struct Point: Sendable, CustomStringConvertible {
        var number: Int
        var call: String
        var description: String { "#\(number) \(call)" }
    }

    private struct State {
        var count = 0
        var points: [Point] = []
        var failAt: Int?
        var fault: Fault = .fail(.ioError)
        var fired = false
        var failNextWrite = false
    }

    private let real = PosixSyscalls()
    private let state = Mutex(State())

    /// A layer that fails call `n` (1-based) with `fault`, or none when `n` is `nil`.
    init(failing n: Int? = nil, with fault: Fault = .fail(.ioError)) {
        state.withLock {
            $0.failAt = n
            $0.fault = fault
        }
    }

    /// The calls counted so far.
    var points: [Point] { state.withLock { $0.points } }
    /// Whether the planned fault fired.
    var fired: Bool { state.withLock { $0.fired } }

    /// Counts a call and returns the fault planned for it.
    private func count(_ call: String) -> Fault? {
        state.withLock { state in
            state.count += 1
            state.points.append(Point(number: state.count, call: call))
            guard state.count == state.failAt else { return nil }
            state.fired = true
            return state.fault
        }
    }

    private func failure(_ fault: Fault?) -> Errno? {
        switch fault {
        case .fail(let errno)?: errno
        case .shortWrite?: .ioError
        case nil: nil
        }
    }

    func open(_ path: String, flags: Int32, mode: mode_t) -> Result<Int32, Errno> {
        if flags & O_CREAT != 0 || flags & (O_WRONLY | O_RDWR) != 0,
            let errno = failure(count("open \((path as NSString).lastPathComponent)"))
        {
            return .failure(errno)
        }
        return real.open(path, flags: flags, mode: mode)
    }

    func close(_ fd: Int32) -> Result<Void, Errno> { real.close(fd) }

    func pread(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Result<Int, Errno> {
        real.pread(fd, into: buffer, at: offset)
    }

    func pwrite(_ fd: Int32, from buffer: UnsafeRawBufferPointer, at offset: Int64) -> Result<Int, Errno> {
        if state.withLock({ state in
            defer { state.failNextWrite = false }
            return state.failNextWrite
        }) {
            return .failure(.noSpace)
        }
        switch count("pwrite \(buffer.count) bytes at \(offset)") {
        case .fail(let errno)?:
            return .failure(errno)
        case .shortWrite?:
            state.withLock { $0.failNextWrite = true }
            return real.pwrite(fd, from: UnsafeRawBufferPointer(rebasing: buffer[..<(buffer.count / 2)]), at: offset)
        case nil:
            return real.pwrite(fd, from: buffer, at: offset)
        }
    }

    func fdatasync(_ fd: Int32) -> Result<Void, Errno> {
        if let errno = failure(count("fdatasync")) { return .failure(errno) }
        return real.fdatasync(fd)
    }

    func fsync(_ fd: Int32) -> Result<Void, Errno> {
        if let errno = failure(count("fsync")) { return .failure(errno) }
        return real.fsync(fd)
    }

    func ftruncate(_ fd: Int32, length: Int64) -> Result<Void, Errno> {
        if let errno = failure(count("ftruncate to \(length)")) { return .failure(errno) }
        return real.ftruncate(fd, length: length)
    }

    func flock(_ fd: Int32, operation: Int32) -> Result<Void, Errno> { real.flock(fd, operation: operation) }
    func fileSize(_ fd: Int32) -> Result<Int64, Errno> { real.fileSize(fd) }

    func makeDirectory(_ path: String) -> Result<Void, Errno> {
        if let errno = failure(count("mkdir \((path as NSString).lastPathComponent)")) { return .failure(errno) }
        return real.makeDirectory(path)
    }

    func listDirectory(_ path: String) -> Result<[String], Errno> { real.listDirectory(path) }

    func unlink(_ path: String) -> Result<Void, Errno> {
        if let errno = failure(count("unlink \((path as NSString).lastPathComponent)")) { return .failure(errno) }
        return real.unlink(path)
    }

    func removeDirectory(_ path: String) -> Result<Void, Errno> {
        if let errno = failure(count("rmdir \((path as NSString).lastPathComponent)")) { return .failure(errno) }
        return real.removeDirectory(path)
    }

    func rename(_ source: String, to destination: String) -> Result<Void, Errno> {
        if let errno = failure(count("rename \((source as NSString).lastPathComponent)")) { return .failure(errno) }
        return real.rename(source, to: destination)
    }
}
