import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An error of the benchmark harness, naming what failed and where.
public struct HarnessError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var path: String?

    public init(_ message: String, path: String? = nil) {
        self.message = message
        self.path = path
    }

    public var description: String {
        path.map { "\(message) (\($0))" } ?? message
    }

    /// An error for a failed system call, with `errno`'s text.
    static func syscall(_ name: String, path: String, errno code: Int32 = errno) -> HarnessError {
        HarnessError("\(name) failed: \(String(cString: strerror(code)))", path: path)
    }
}

/// Plain POSIX file helpers, so that nothing measured goes through a buffering layer we do not
/// control.
public enum FileBytes {
    /// Reads a whole file, including files that report a size of zero, such as those in `/proc`.
    public static func read(path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw HarnessError.syscall("open", path: path) }
        defer { _ = close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Posix.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw HarnessError.syscall("read", path: path)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// The regular files under `directory`, recursively, sorted by path.
    public static func regularFiles(in directory: URL) -> [URL] {
        let keys: [URLResourceKey] = [.isRegularFileKey]
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: keys)
        else { return [] }
        var files: [URL] = []
        for case let url as URL in enumerator {
            if (try? url.resourceValues(forKeys: Set(keys)).isRegularFile) == true {
                files.append(url)
            }
        }
        return files.sorted { $0.path < $1.path }
    }

    /// The size of a file in bytes, or 0 if it cannot be read.
    public static func size(of file: URL) -> Int {
        var info = stat()
        guard stat(file.path, &info) == 0 else { return 0 }
        return Int(info.st_size)
    }

    /// The total size of the regular files under `directory`.
    public static func directorySize(_ directory: URL) -> Int {
        regularFiles(in: directory).reduce(0) { $0 + size(of: $1) }
    }

    /// The sizes of the regular files under `directory`, added up by the kind `kind` gives each
    /// file from its path relative to `directory`.
    public static func directorySizes(_ directory: URL, kind: (String) -> String) -> [String: Int] {
        let prefix = directory.standardizedFileURL.path + "/"
        var sizes: [String: Int] = [:]
        for file in regularFiles(in: directory) {
            let path = file.standardizedFileURL.path
            let relative = path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : file.lastPathComponent
            sizes[kind(relative), default: 0] += size(of: file)
        }
        return sizes
    }
}

/// A buffered, write-only file for dumps: a `TextOutputStream` that writes UTF-8.
public final class BufferedFileWriter: TextOutputStream {
    private let descriptor: Int32
    private let path: String
    private var buffer: [UInt8] = []
    private let capacity = 1 << 20
    private var failure: HarnessError?

    /// The bytes written so far, buffered or not.
    public private(set) var byteCount = 0

    /// Creates (or truncates) the file at `url`.
    public init(url: URL) throws {
        path = url.path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw HarnessError.syscall("open", path: path) }
        buffer.reserveCapacity(capacity)
    }

    deinit {
        _ = close(descriptor)
    }

    public func write(_ string: String) {
        var string = string
        string.withUTF8 { write(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Appends raw bytes.
    public func write(bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
        byteCount += bytes.count
        if buffer.count >= capacity {
            flushBuffer()
        }
    }

    /// Writes what is buffered and reports the first failure of any earlier write.
    ///
    /// `TextOutputStream.write` cannot throw, so a failed write is remembered and thrown here.
    public func finish() throws {
        flushBuffer()
        if let failure { throw failure }
    }

    private func flushBuffer() {
        guard failure == nil else {
            buffer.removeAll(keepingCapacity: true)
            return
        }
        var offset = 0
        buffer.withUnsafeBytes { bytes in
            while offset < bytes.count {
                let written = Posix.write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = HarnessError.syscall("write", path: path)
                    return
                }
                offset += written
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// `read` and `write` under names that no member shadows.
enum Posix {
    static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
        #elseif canImport(Musl)
        Musl.read(descriptor, buffer, count)
        #else
        Darwin.read(descriptor, buffer, count)
        #endif
    }

    static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(descriptor, buffer, count)
        #elseif canImport(Musl)
        Musl.write(descriptor, buffer, count)
        #else
        Darwin.write(descriptor, buffer, count)
        #endif
    }
}
