#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A segment file: its path and the sequence number of its first event, taken from its name.
///
/// A compaction base (`<first>-<horizon>.base`, see `OnDiskFormat`) is listed as a segment too,
/// with its ``horizon``.
package struct SegmentFile: Hashable, Sendable, Comparable {
    package var path: String
    package var firstSequence: UInt64
    /// For a compaction base, the last sequence number of its base events: the history up to
    /// and including it was deleted. `nil` for a segment.
    package var horizon: UInt64? = nil

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

    /// The file name of a compaction base whose events are `first ... horizon`.
    package static func baseFileName(first: UInt64, horizon: UInt64) -> String {
        func padded(_ value: UInt64) -> String {
            let digits = String(value)
            return String(repeating: "0", count: LogFormat.segmentNameDigits - digits.count) + digits
        }
        return padded(first) + "-" + padded(horizon) + LogFormat.baseExtension
    }

    /// The first sequence number and horizon a base file name stands for, or `nil` if the name
    /// is not a base's.
    package static func baseRange(ofFileName name: String) -> (first: UInt64, horizon: UInt64)? {
        guard name.hasSuffix(LogFormat.baseExtension) else { return nil }
        let parts = name.dropLast(LogFormat.baseExtension.count).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2,
            parts.allSatisfy({ $0.count == LogFormat.segmentNameDigits && $0.allSatisfy { $0.isASCII && $0.isNumber } }
            ),
            let first = UInt64(parts[0]), let horizon = UInt64(parts[1]), first >= 1, first <= horizon
        else { return nil }
        return (first, horizon)
    }

    /// The files of a store directory, sorted out: the segments to read, in sequence order (the
    /// newest base first, when there is one), and the files a deleted history replaced.
    package struct Layout: Sendable {
        package var segments: [SegmentFile]
        /// Segments and older bases the newest base replaced, and temporary files of a switch
        /// cut short: ignored by readers, removed by the next writer.
        package var replaced: [String]
        /// The fence's path, when the store has one.
        package var fence: String?
        /// The horizon of the newest base, if any.
        package var horizon: UInt64? { segments.first?.horizon }
    }

    /// The files of a store directory (see ``Layout``).
    package static func layout(in directory: String, syscalls: any Syscalls) throws(LogbookError) -> Layout {
        let names: [String]
        switch syscalls.listDirectory(directory) {
        case .success(let listed): names = listed
        case .failure(let errno) where errno == .noEntry:
            throw LogbookError(.notAStore, "no store at this path", path: directory, cause: errno)
        case .failure(let errno):
            throw LogbookError.system("opendir", path: directory, errno)
        }
        var logs: [SegmentFile] = []
        var bases: [SegmentFile] = []
        var layout = Layout(segments: [], replaced: [])
        for name in names {
            if let first = firstSequence(ofFileName: name) {
                logs.append(SegmentFile(path: join(directory, name), firstSequence: first))
            } else if let range = baseRange(ofFileName: name) {
                let base = SegmentFile(path: join(directory, name), firstSequence: range.first, horizon: range.horizon)
                bases.append(base)
            } else if name.hasSuffix(LogFormat.baseExtension + LogFormat.temporarySuffix)
                || name == fileName(forFirstSequence: 0) + LogFormat.temporarySuffix
            {
                layout.replaced.append(join(directory, name))
            }
        }
        guard let base = bases.max(by: { ($0.horizon ?? 0) < ($1.horizon ?? 0) }), let horizon = base.horizon else {
            layout.segments = logs.sorted()
            return layout
        }
        // Beside a base, the segment named by sequence 0 is the fence.
        layout.fence = logs.first { $0.firstSequence == 0 }?.path
        layout.replaced += bases.filter { $0 != base }.map(\.path)
        layout.replaced += logs.filter { $0.firstSequence <= horizon && $0.firstSequence > 0 }.map(\.path)
        layout.segments = [base] + logs.filter { $0.firstSequence > horizon }.sorted()
        return layout
    }

    /// The segment files of a store, in sequence order: after a deleted history, its base first
    /// and the segments after it (see ``layout(in:syscalls:)``).
    package static func segments(in directory: String, syscalls: any Syscalls) throws(LogbookError) -> [SegmentFile] {
        try layout(in: directory, syscalls: syscalls).segments
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
