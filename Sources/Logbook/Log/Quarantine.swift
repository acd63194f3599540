#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The store's `quarantine` directory: the bytes an open cut off the end of a segment, kept so
/// that nothing an open removes is lost.
///
/// Each file is named `<segment file name>-<offset>.tail` after the segment and the byte offset
/// the bytes were cut at, with `-2`, `-3`… before `.tail` when that name is taken. It holds the
/// cut bytes exactly. Putting one back is appending it to its segment when the segment's size
/// is that offset again (see <doc:Recovery>).
package enum Quarantine {
    /// The directory's name in the store.
    package static let directoryName = "quarantine"
    /// The extension of a quarantined tail.
    static let tailExtension = ".tail"

    /// A quarantined tail found in a store.
    package struct Tail: Sendable, Hashable {
        /// The tail file's path.
        package var path: String
        /// The file name of the segment it was cut from.
        package var segmentName: String
        /// The byte offset in that segment where it was cut.
        package var offset: Int64
        /// Its size in bytes.
        package var byteCount: Int64
    }

    /// Copies bytes `offset..<end` of `file`, a segment of the store in `directory`, into a new
    /// file of the quarantine directory, and syncs the file and the directories it was created
    /// in before returning, so that the bytes are on disk before the segment is cut.
    ///
    /// - Returns: the path of the quarantined copy.
    static func keep(
        _ file: SystemFile,
        from offset: Int64,
        to end: Int64,
        storeDirectory directory: String,
        syscalls: any Syscalls
    ) throws(LogbookError) -> String {
        let quarantine = SegmentDirectory.join(directory, directoryName)
        switch syscalls.makeDirectory(quarantine) {
        case .success:
            try SegmentDirectory.syncDirectory(directory, syscalls: syscalls)
        case .failure(let errno) where errno == .exists:
            break
        case .failure(let errno):
            throw LogbookError.system("mkdir", path: quarantine, errno)
        }
        let base = SegmentDirectory.lastComponent(of: file.path) + "-\(offset)"
        var attempt = 1
        var copy: SystemFile
        while true {
            let name = base + (attempt == 1 ? "" : "-\(attempt)") + tailExtension
            let path = SegmentDirectory.join(quarantine, name)
            do throws(LogbookError) {
                copy = try SystemFile.open(path, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, syscalls: syscalls)
                break
            } catch {
                guard let errno = error.cause as? Errno, errno == .exists, attempt < 1000 else { throw error }
                attempt += 1
            }
        }
        do throws(LogbookError) {
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            var position = offset
            while position < end {
                let length = Int(min(Int64(buffer.count), end - position))
                let read = try file.read(into: &buffer, count: length, at: position)
                guard read > 0 else { break }
                try copy.writeAll(buffer[..<read], at: position - offset)
                position += Int64(read)
            }
            try copy.sync()
        } catch {
            copy.close()
            _ = syscalls.unlink(copy.path)
            throw error
        }
        copy.close()
        try SegmentDirectory.syncDirectory(quarantine, syscalls: syscalls)
        return copy.path
    }

    /// The quarantined tails of the store in `directory`, by segment and offset; none when the
    /// store has no quarantine directory.
    package static func tails(in directory: String, syscalls: any Syscalls = PosixSyscalls()) -> [Tail] {
        let quarantine = SegmentDirectory.join(directory, directoryName)
        guard case .success(let names) = syscalls.listDirectory(quarantine) else { return [] }
        var tails: [Tail] = []
        for name in names where name.hasSuffix(tailExtension) {
            let stem = name.dropLast(tailExtension.count)
            let segmentLength = LogFormat.segmentNameDigits + LogFormat.segmentExtension.count
            guard stem.count > segmentLength + 1 else { continue }
            let segmentName = String(stem.prefix(segmentLength))
            let rest = stem.dropFirst(segmentLength + 1).split(separator: "-")
            guard SegmentDirectory.firstSequence(ofFileName: segmentName) != nil,
                stem.dropFirst(segmentLength).first == "-", let first = rest.first, let offset = Int64(first)
            else { continue }
            let path = SegmentDirectory.join(quarantine, name)
            var size: Int64 = 0
            if let file = try? SystemFile.open(path, flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK, syscalls: syscalls) {
                size = (try? file.size()) ?? 0
                file.close()
            }
            tails.append(Tail(path: path, segmentName: segmentName, offset: offset, byteCount: size))
        }
        return tails.sorted { ($0.segmentName, $0.offset, $0.path) < ($1.segmentName, $1.offset, $1.path) }
    }
}
