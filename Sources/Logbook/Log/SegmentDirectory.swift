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
