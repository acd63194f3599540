#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The steps that make a file's new contents survive a crash whole or not at all: how
/// checkpoints and external value files are written.
enum DurableFiles {
    /// Creates directory `path` unless it exists, and syncs `parent` when it made it, so that
    /// the new directory's name survives a crash.
    ///
    /// - Throws: ``LogbookError/Code/io`` naming `mkdir` or `fsync` and the path.
    static func makeDirectory(_ path: String, in parent: String, syscalls: any Syscalls) throws(LogbookError) {
        switch syscalls.makeDirectory(path) {
        case .success:
            try SegmentDirectory.syncDirectory(parent, syscalls: syscalls)
        case .failure(let errno) where errno == .exists:
            return
        case .failure(let errno):
            throw LogbookError.system("mkdir", path: path, errno)
        }
    }

    /// Writes `bytes` to `temporary`, syncs it, renames it to `path`, and syncs the directory
    /// that holds `path`: a reader finds either the former file or the whole new one.
    ///
    /// - Throws: ``LogbookError/Code/io`` naming the call and the path when a step fails; the
    ///   temporary file is removed when it can be.
    static func replace(
        _ path: String,
        with bytes: ArraySlice<UInt8>,
        through temporary: String,
        syscalls: any Syscalls
    ) throws(LogbookError) {
        try replace(path, through: temporary, syscalls: syscalls) { (file) throws(LogbookError) in
            try file.writeAll(bytes, at: 0)
        }
    }

    /// ``replace(_:with:through:syscalls:)`` with the contents that `write` writes into the
    /// temporary file, in as many pieces as it likes.
    static func replace(
        _ path: String,
        through temporary: String,
        syscalls: any Syscalls,
        writing write: (SystemFile) throws(LogbookError) -> Void
    ) throws(LogbookError) {
        let file = try SystemFile.open(temporary, flags: O_WRONLY | O_CREAT | O_TRUNC, syscalls: syscalls)
        do throws(LogbookError) {
            try write(file)
            try file.sync()
        } catch {
            file.close()
            _ = syscalls.unlink(temporary)
            throw error
        }
        file.close()
        if case .failure(let errno) = syscalls.rename(temporary, to: path) {
            _ = syscalls.unlink(temporary)
            throw LogbookError.system("rename", path: path, errno)
        }
        try SegmentDirectory.syncDirectory(SegmentDirectory.parent(of: path), syscalls: syscalls)
    }
}
