import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How fast this machine reads one directory's files from start to end.
public struct SequentialReadFigure: Codable, Hashable, Sendable {
    /// The directory read.
    public var directory: String
    /// Regular files read (recursively).
    public var files: Int
    /// Bytes read per pass.
    public var bytes: Int
    /// The fastest of several passes through the page cache, in decimal MB/s.
    public var pageCacheMegabytesPerSecond: Double
    /// One pass with `O_DIRECT`, bypassing the page cache, in decimal MB/s: the device's speed.
    /// `nil` where the file system refuses `O_DIRECT`.
    public var directMegabytesPerSecond: Double?
}

/// Reads every regular file of a directory sequentially in 1 MiB `read` calls.
public enum SequentialRead {
    static let chunkSize = 1 << 20

    /// Measures reading the files under `directory`: `passes` times through the page cache
    /// (after a first pass that warms it), then once with `O_DIRECT` where supported.
    public static func measure(directory: URL, passes: Int = 3) throws -> SequentialReadFigure {
        let files = FileBytes.regularFiles(in: directory)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunkSize, alignment: 4096)
        defer { buffer.deallocate() }
        var bytes = try readAll(files, direct: false, into: buffer)
        var best = Double.infinity
        for _ in 0..<max(passes, 1) {
            let (seconds, count) = try Stopwatch.measure { try readAll(files, direct: false, into: buffer) }
            best = min(best, seconds)
            bytes = count
        }
        var direct: Double?
        if let directFlag = openDirectFlag,
            let (seconds, count) = try? Stopwatch.measure({
                try readAll(files, direct: true, into: buffer, flag: directFlag)
            }),
            seconds > 0
        {
            direct = Double(count) / 1_000_000 / seconds
        }
        return SequentialReadFigure(
            directory: directory.path,
            files: files.count,
            bytes: bytes,
            pageCacheMegabytesPerSecond: best > 0 ? Double(bytes) / 1_000_000 / best : 0,
            directMegabytesPerSecond: direct
        )
    }

    /// `O_DIRECT`, which Swift's Glibc module does not import (glibc defines it only under
    /// `_GNU_SOURCE`); the value differs by architecture, as in `asm-generic/fcntl.h` and
    /// `arch/arm64`.
    static var openDirectFlag: Int32? {
        #if os(Linux) && arch(x86_64)
        return 0o40000
        #elseif os(Linux) && arch(arm64)
        return 0o200000
        #else
        return nil
        #endif
    }

    static func readAll(
        _ files: [URL],
        direct: Bool,
        into buffer: UnsafeMutableRawPointer,
        flag: Int32 = 0
    ) throws -> Int {
        var total = 0
        for file in files {
            let descriptor = open(file.path, O_RDONLY | O_CLOEXEC | (direct ? flag : 0))
            guard descriptor >= 0 else { throw HarnessError.syscall("open", path: file.path) }
            defer { _ = close(descriptor) }
            while true {
                let count = Posix.read(descriptor, buffer, chunkSize)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw HarnessError.syscall("read", path: file.path)
                }
                if count == 0 { break }
                total += count
            }
        }
        return total
    }
}
