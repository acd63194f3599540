import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The thin layer through which the log makes every system call.
///
/// Each requirement performs exactly one call and reports its outcome as a `Result`; retrying on
/// `EINTR` and looping on partial transfers happen one level up, in ``SystemFile``, so that a
/// replacement layer in tests can inject short writes, `ENOSPC`, `EIO` or a failing `fsync` at any
/// point and exercise the same code paths a real kernel would.
package protocol Syscalls: Sendable {
    func open(_ path: String, flags: Int32, mode: mode_t) -> Result<Int32, Errno>
    func close(_ fd: Int32) -> Result<Void, Errno>
    func pread(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Result<Int, Errno>
    func pwrite(_ fd: Int32, from buffer: UnsafeRawBufferPointer, at offset: Int64) -> Result<Int, Errno>
    func fdatasync(_ fd: Int32) -> Result<Void, Errno>
    func fsync(_ fd: Int32) -> Result<Void, Errno>
    func ftruncate(_ fd: Int32, length: Int64) -> Result<Void, Errno>
    func flock(_ fd: Int32, operation: Int32) -> Result<Void, Errno>
    func fileSize(_ fd: Int32) -> Result<Int64, Errno>
    /// The type bits of an open file's mode (`st_mode & S_IFMT`), from `fstat`.
    func fileType(_ fd: Int32) -> Result<mode_t, Errno>
    func makeDirectory(_ path: String) -> Result<Void, Errno>
    func listDirectory(_ path: String) -> Result<[String], Errno>
    func unlink(_ path: String) -> Result<Void, Errno>
    func removeDirectory(_ path: String) -> Result<Void, Errno>
    /// Renames `source` to `destination` atomically; a destination that is an empty directory is
    /// replaced.
    func rename(_ source: String, to destination: String) -> Result<Void, Errno>
    /// Maps the first `length` bytes of an open file for reading (`mmap` with `PROT_READ` and
    /// `MAP_PRIVATE`); `nil` when this layer does not map files, so that the caller reads them.
    /// The mapping outlives the descriptor; ``unmap(_:length:)`` ends it.
    func mapReadOnly(_ fd: Int32, length: Int) -> Result<UnsafeRawPointer?, Errno>
    /// Ends a mapping ``mapReadOnly(_:length:)`` made.
    func unmap(_ address: UnsafeRawPointer, length: Int)
    /// Lets the pages of a read-only file mapping go from the process's memory
    /// (`madvise(MADV_DONTNEED)`): they are read again from the file, through the page cache,
    /// when next touched. `address` and `length` are multiples of the page size.
    func dropPages(_ address: UnsafeRawPointer, length: Int)
}

extension Syscalls {
    /// The real `fstat`: the layers that tests put in place to change or fail what a file holds
    /// leave a file's type alone.
    package func fileType(_ fd: Int32) -> Result<mode_t, Errno> {
        PosixSyscalls().fileType(fd)
    }

    /// Layers that tests put in place read files through ``pread(_:into:at:)``, where they
    /// inject their faults: they map nothing.
    package func mapReadOnly(_ fd: Int32, length: Int) -> Result<UnsafeRawPointer?, Errno> {
        .success(nil)
    }

    package func unmap(_ address: UnsafeRawPointer, length: Int) {}

    package func dropPages(_ address: UnsafeRawPointer, length: Int) {}
}

/// The real system calls.
package struct PosixSyscalls: Syscalls {
    package init() {}

    package func open(_ path: String, flags: Int32, mode: mode_t) -> Result<Int32, Errno> {
        let fd = path.withCString { system_open($0, flags | O_CLOEXEC, mode) }
        return fd >= 0 ? .success(fd) : .failure(.current)
    }

    package func close(_ fd: Int32) -> Result<Void, Errno> {
        check(system_close(fd))
    }

    package func mapReadOnly(_ fd: Int32, length: Int) -> Result<UnsafeRawPointer?, Errno> {
        guard length > 0 else { return .success(nil) }
        let address = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, 0)
        guard let address, address != MAP_FAILED else { return .failure(.current) }
        return .success(UnsafeRawPointer(address))
    }

    package func unmap(_ address: UnsafeRawPointer, length: Int) {
        munmap(UnsafeMutableRawPointer(mutating: address), length)
    }

    package func dropPages(_ address: UnsafeRawPointer, length: Int) {
        _ = madvise(UnsafeMutableRawPointer(mutating: address), length, MADV_DONTNEED)
    }

    package func pread(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Result<Int, Errno>
    {
        let count = system_pread(fd, buffer.baseAddress, buffer.count, off_t(offset))
        return count >= 0 ? .success(count) : .failure(.current)
    }

    package func pwrite(_ fd: Int32, from buffer: UnsafeRawBufferPointer, at offset: Int64) -> Result<Int, Errno> {
        let count = system_pwrite(fd, buffer.baseAddress, buffer.count, off_t(offset))
        return count >= 0 ? .success(count) : .failure(.current)
    }

    package func fdatasync(_ fd: Int32) -> Result<Void, Errno> {
        #if canImport(Darwin)
        return check(system_fsync(fd))
        #else
        return check(system_fdatasync(fd))
        #endif
    }

    package func fsync(_ fd: Int32) -> Result<Void, Errno> {
        check(system_fsync(fd))
    }

    package func ftruncate(_ fd: Int32, length: Int64) -> Result<Void, Errno> {
        check(system_ftruncate(fd, off_t(length)))
    }

    package func flock(_ fd: Int32, operation: Int32) -> Result<Void, Errno> {
        check(system_flock(fd, operation))
    }

    package func fileSize(_ fd: Int32) -> Result<Int64, Errno> {
        var info = stat()
        guard system_fstat(fd, &info) == 0 else { return .failure(.current) }
        return .success(Int64(info.st_size))
    }

    package func fileType(_ fd: Int32) -> Result<mode_t, Errno> {
        var info = stat()
        guard system_fstat(fd, &info) == 0 else { return .failure(.current) }
        return .success(info.st_mode & S_IFMT)
    }

    package func makeDirectory(_ path: String) -> Result<Void, Errno> {
        check(path.withCString { system_mkdir($0, 0o755) })
    }

    package func listDirectory(_ path: String) -> Result<[String], Errno> {
        guard let directory = path.withCString({ opendir($0) }) else { return .failure(.current) }
        defer { closedir(directory) }
        var names: [String] = []
        // The name is read where it lies, up to its NUL: an entry's record may end before the
        // `d_name` array's declared 256 bytes, so copying the whole array reads past it.
        guard let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) else { return .success([]) }
        while let entry = readdir(directory) {
            let start = UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self)
            let name = String(cString: start)
            if name != "." && name != ".." { names.append(name) }
        }
        return .success(names)
    }

    package func unlink(_ path: String) -> Result<Void, Errno> {
        check(path.withCString { system_unlink($0) })
    }

    package func removeDirectory(_ path: String) -> Result<Void, Errno> {
        check(path.withCString { system_rmdir($0) })
    }

    package func rename(_ source: String, to destination: String) -> Result<Void, Errno> {
        check(source.withCString { from in destination.withCString { to in system_rename(from, to) } })
    }

    private func check(_ result: Int32) -> Result<Void, Errno> {
        result == 0 ? .success(()) : .failure(.current)
    }
}

// MARK: - The libc entry points, named so that they cannot be confused with the protocol's.

private func system_open(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}
private func system_close(_ fd: Int32) -> Int32 { close(fd) }
private func system_pread(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ offset: off_t) -> Int {
    pread(fd, buffer, count, offset)
}
private func system_pwrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ offset: off_t) -> Int {
    pwrite(fd, buffer, count, offset)
}
#if !canImport(Darwin)
private func system_fdatasync(_ fd: Int32) -> Int32 { fdatasync(fd) }
#endif
private func system_fsync(_ fd: Int32) -> Int32 { fsync(fd) }
private func system_ftruncate(_ fd: Int32, _ length: off_t) -> Int32 { ftruncate(fd, length) }
private func system_flock(_ fd: Int32, _ operation: Int32) -> Int32 { flock(fd, operation) }
private func system_fstat(_ fd: Int32, _ info: inout stat) -> Int32 { fstat(fd, &info) }
private func system_mkdir(_ path: UnsafePointer<CChar>, _ mode: mode_t) -> Int32 { mkdir(path, mode) }
private func system_unlink(_ path: UnsafePointer<CChar>) -> Int32 { unlink(path) }
private func system_rmdir(_ path: UnsafePointer<CChar>) -> Int32 { rmdir(path) }
private func system_rename(_ source: UnsafePointer<CChar>, _ destination: UnsafePointer<CChar>) -> Int32 {
    rename(source, destination)
}
