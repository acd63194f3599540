#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file descriptor with the retry and looping rules every caller needs.
///
/// `read`, `pwrite`, `fsync`, `fdatasync` and `flock` are retried on `EINTR`; `close` never is
/// (on Linux the descriptor is gone even when `close` reports `EINTR`). Writes loop until every
/// byte is written or a call fails. Errors name the call and the file.
package struct SystemFile {
    package let descriptor: Int32
    package let path: String
    package let syscalls: any Syscalls

    /// Opens `path` with the given `open(2)` flags.
    package static func open(
        _ path: String,
        flags: Int32,
        mode: mode_t = 0o644,
        syscalls: any Syscalls
    ) throws(LogbookError) -> SystemFile {
        switch retryingOnInterrupt({ syscalls.open(path, flags: flags, mode: mode) }) {
        case .success(let fd):
            return SystemFile(descriptor: fd, path: path, syscalls: syscalls)
        case .failure(let errno):
            throw LogbookError.system("open", path: path, errno)
        }
    }

    /// Closes the descriptor. Errors are ignored: there is nothing a caller could do about them
    /// after every write of interest has been synced.
    package func close() {
        _ = syscalls.close(descriptor)
    }

    /// The file's current size in bytes.
    package func size() throws(LogbookError) -> Int64 {
        switch syscalls.fileSize(descriptor) {
        case .success(let size): return size
        case .failure(let errno): throw LogbookError.system("fstat", path: path, errno)
        }
    }

    /// Reads up to `buffer.count` bytes at `offset`, fewer only at the end of the file.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(LogbookError) -> Int {
        var done = 0
        while done < buffer.count {
            let rest = UnsafeMutableRawBufferPointer(rebasing: buffer[done...])
            switch retryingOnInterrupt({ syscalls.pread(descriptor, into: rest, at: offset + Int64(done)) }) {
            case .success(0): return done
            case .success(let count): done += count
            case .failure(let errno):
                throw LogbookError.system("pread", path: path, errno, offset: offset + Int64(done))
            }
        }
        return done
    }

    /// Reads up to `count` bytes at `offset` into the start of `bytes`, fewer only at the end of
    /// the file.
    package func read(into bytes: inout [UInt8], count: Int, at offset: Int64) throws(LogbookError) -> Int {
        precondition(count <= bytes.count, "the buffer holds the bytes asked for")
        let result = bytes.withUnsafeMutableBytes { raw in
            Result { () throws(LogbookError) in
                try read(into: UnsafeMutableRawBufferPointer(rebasing: raw[..<count]), at: offset)
            }
        }
        return try result.get()
    }

    /// Writes every byte of `bytes` at `offset`, looping over short writes.
    package func writeAll(_ bytes: ArraySlice<UInt8>, at offset: Int64) throws(LogbookError) {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(LogbookError) in try writeAll(raw, at: offset) }
        }
        try result.get()
    }

    /// Writes every byte of `buffer` at `offset`, looping over short writes.
    package func writeAll(_ buffer: UnsafeRawBufferPointer, at offset: Int64) throws(LogbookError) {
        var done = 0
        while done < buffer.count {
            let rest = UnsafeRawBufferPointer(rebasing: buffer[done...])
            switch retryingOnInterrupt({ syscalls.pwrite(descriptor, from: rest, at: offset + Int64(done)) }) {
            case .success(let count) where count > 0:
                done += count
            case .success:
                throw LogbookError(
                    .io,
                    "pwrite wrote no bytes",
                    path: path,
                    offset: offset + Int64(done),
                    cause: Errno.noSpace
                )
            case .failure(let errno):
                throw LogbookError.system("pwrite", path: path, errno, offset: offset + Int64(done))
            }
        }
    }

    /// Flushes the file's data (and the metadata needed to read it back) to the device.
    package func syncData() throws(LogbookError) {
        if case .failure(let errno) = retryingOnInterrupt({ syscalls.fdatasync(descriptor) }) {
            throw LogbookError.system("fdatasync", path: path, errno)
        }
    }

    /// Flushes the file, or the directory, with all of its metadata.
    package func sync() throws(LogbookError) {
        if case .failure(let errno) = retryingOnInterrupt({ syscalls.fsync(descriptor) }) {
            throw LogbookError.system("fsync", path: path, errno)
        }
    }

    /// Cuts the file to `length` bytes.
    package func truncate(to length: Int64) throws(LogbookError) {
        if case .failure(let errno) = retryingOnInterrupt({ syscalls.ftruncate(descriptor, length: length) }) {
            throw LogbookError.system("ftruncate", path: path, errno, offset: length)
        }
    }

    /// Tries to take an exclusive advisory lock without waiting.
    ///
    /// - Returns: `false` when another open file description holds the lock.
    package func tryLockExclusive() throws(LogbookError) -> Bool {
        switch retryingOnInterrupt({ syscalls.flock(descriptor, operation: LOCK_EX | LOCK_NB) }) {
        case .success: return true
        case .failure(let errno) where errno == .wouldBlock: return false
        case .failure(let errno): throw LogbookError.system("flock", path: path, errno)
        }
    }
}

/// Calls `body` again for as long as it fails with `EINTR`.
package func retryingOnInterrupt<T>(_ body: () -> Result<T, Errno>) -> Result<T, Errno> {
    while true {
        let result = body()
        if case .failure(let errno) = result, errno == .interrupted { continue }
        return result
    }
}
