#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A segment file: its path and the sequence number of its first event, taken from its name.
package struct SegmentFile: Hashable, Sendable, Comparable {
    package var path: String
    package var firstSequence: UInt64

    package static func < (lhs: SegmentFile, rhs: SegmentFile) -> Bool {
        lhs.firstSequence < rhs.firstSequence
    }
}

/// Names and finds the files of a store directory.
package enum SegmentDirectory {
    /// The file name of the segment whose first event has `sequence`: 20 zero-padded digits, so
    /// that `ls` lists segments in order.
    package static func fileName(forFirstSequence sequence: UInt64) -> String {
        let digits = String(sequence)
        return String(repeating: "0", count: LogFormat.segmentNameDigits - digits.count) + digits
            + LogFormat.segmentExtension
    }

    /// The first sequence number a segment file name stands for, or `nil` if the name is not a
    /// segment's.
    package static func firstSequence(ofFileName name: String) -> UInt64? {
        guard name.hasSuffix(LogFormat.segmentExtension) else { return nil }
        let digits = name.dropLast(LogFormat.segmentExtension.count)
        guard digits.count == LogFormat.segmentNameDigits, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return nil
        }
        return UInt64(digits)
    }

    /// The segment files of a store, in sequence order.
    package static func segments(in directory: String, syscalls: any Syscalls) throws(LogbookError) -> [SegmentFile] {
        switch syscalls.listDirectory(directory) {
        case .success(let names):
            return names.compactMap { name in
                firstSequence(ofFileName: name).map { SegmentFile(path: join(directory, name), firstSequence: $0) }
            }.sorted()
        case .failure(let errno) where errno == .noEntry:
            throw LogbookError(.notAStore, "no store at this path", path: directory, cause: errno)
        case .failure(let errno):
            throw LogbookError.system("opendir", path: directory, errno)
        }
    }

    /// Opens a segment file, refusing anything that is not a regular file.
    ///
    /// A symbolic link is not followed (`O_NOFOLLOW`): it could lead out of the store, to
    /// `/dev/zero` say, which would read as an endless run of zeros. A FIFO or a device is opened
    /// without waiting for a writer (`O_NONBLOCK`, which changes nothing for a regular file) and
    /// closed again at once.
    ///
    /// - Throws: ``LogbookError/Code/corruption`` naming the file and what it is, when it is not
    ///   a regular file; ``LogbookError/Code/io`` when the open fails otherwise.
    package static func open(
        _ segment: SegmentFile,
        writable: Bool,
        syscalls: any Syscalls
    ) throws(LogbookError) -> SystemFile {
        let flags = (writable ? O_RDWR : O_RDONLY) | O_NOFOLLOW | O_NONBLOCK
        let file: SystemFile
        do throws(LogbookError) {
            file = try SystemFile.open(segment.path, flags: flags, syscalls: syscalls)
        } catch {
            if let errno = error.cause as? Errno, errno == .tooManySymbolicLinks {
                throw notASegment(segment.path, "a symbolic link")
            }
            if let errno = error.cause as? Errno, errno == .isADirectory {
                throw notASegment(segment.path, "a directory")
            }
            throw error
        }
        switch syscalls.fileType(file.descriptor) {
        case .success(let type) where type == S_IFREG:
            return file
        case .success(let type):
            file.close()
            throw notASegment(segment.path, describe(fileType: type))
        case .failure(let errno):
            file.close()
            throw LogbookError.system("fstat", path: segment.path, errno)
        }
    }

    private static func notASegment(_ path: String, _ what: String) -> LogbookError {
        LogbookError(
            .corruption,
            "not a segment: the file is \(what), not a regular file; it is neither read nor followed",
            path: path
        )
    }

    private static func describe(fileType type: mode_t) -> String {
        switch type {
        case S_IFIFO: return "a FIFO"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFDIR: return "a directory"
        case S_IFSOCK: return "a socket"
        case S_IFLNK: return "a symbolic link"
        default: return "of type 0o\(String(type, radix: 8))"
        }
    }

    /// Flushes a directory's entries, so that a created file's name survives a crash.
    package static func syncDirectory(_ directory: String, syscalls: any Syscalls) throws(LogbookError) {
        let handle = try SystemFile.open(directory, flags: O_RDONLY | O_DIRECTORY, syscalls: syscalls)
        defer { handle.close() }
        try handle.sync()
    }

    /// The directory that holds `path`: `"."` for a bare name, `"/"` for a name at the root.
    package static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// The last component of `path`, without trailing slashes.
    package static func lastComponent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    package static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
