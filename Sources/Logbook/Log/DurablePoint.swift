#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A batch the store knows reached the disk: the last sequence number of the batch and the
/// checksum in its header, and, when known, where it lies.
///
/// A log that ends before a durable point, or whose batch there has another checksum, lost
/// bytes that were once on disk: that is damage, never a torn write. The durable record
/// (``DurableRecord``) is one source of durable points; a checkpoint, which names the batch it
/// ends at by its sequence number and checksum, is another, and feeds the same check
/// (``DurablePointCheck``).
package struct DurablePoint: Hashable, Sendable, CustomStringConvertible {
    /// Where the batch lies, when the source knows it.
    package struct Location: Hashable, Sendable {
        /// The first sequence number of the segment that holds the batch: its file name.
        package var segmentFirstSequence: UInt64
        /// The byte offset of the batch in that segment.
        package var offset: Int64
    }

    /// The last sequence number of the batch.
    package var sequence: UInt64
    /// The checksum stored in the batch's header.
    package var checksum: UInt32
    /// Where the batch lies, if known; without it, the segment that holds `sequence` is searched.
    package var location: Location?
    /// What recorded the point, for messages: the durable record's path, or a checkpoint's.
    package var source: String

    /// Two points are the same batch whatever recorded them.
    package static func == (lhs: DurablePoint, rhs: DurablePoint) -> Bool {
        lhs.sequence == rhs.sequence && lhs.checksum == rhs.checksum && lhs.location == rhs.location
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(sequence)
        hasher.combine(checksum)
        hasher.combine(location)
    }

    package var description: String {
        "sequence \(sequence) (batch checksum 0x\(String(checksum, radix: 16)), recorded in \(source))"
    }
}

/// The durable record of a store: the file `durable` beside the segments, holding the last batch
/// a writer knew to be on disk.
///
/// The writer replaces it (a temporary file written and synced, renamed over the old one, and
/// the directory synced) when it closes and every so often while it appends, so that an open
/// can tell a log that lost acknowledged batches from one whose last write was torn. The layout
/// is in <doc:OnDiskFormat>.
package enum DurableRecord {
    /// The record's file name in the store directory.
    package static let fileName = "durable"
    /// The temporary file a new record is written to before it is renamed into place.
    static let temporaryName = "durable.tmp"
    /// `LBDR` in little-endian byte order.
    static let magic: UInt32 = 0x5244_424C
    static let version: UInt16 = 1
    /// The size of the record in bytes.
    static let size = 40

    /// The record's bytes for `point`, which must have a location.
    static func encode(_ point: DurablePoint) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: size)
        func store<T: FixedWidthInteger>(_ value: T, at offset: Int) {
            withUnsafeBytes(of: value.littleEndian) { raw in
                for (index, byte) in raw.enumerated() { bytes[offset + index] = byte }
            }
        }
        store(magic, at: 0)
        store(version, at: 4)
        store(point.sequence, at: 8)
        store(point.location?.segmentFirstSequence ?? 0, at: 16)
        store(UInt64(bitPattern: point.location?.offset ?? 0), at: 24)
        store(point.checksum, at: 32)
        store(CRC32C.checksum(Array(bytes[0..<36])), at: 36)
        return bytes
    }

    /// Why a record's bytes hold no point.
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// The point a record's bytes hold, or why they hold none.
    static func decode(_ bytes: [UInt8], source: String) -> Result<DurablePoint, Problem> {
        guard bytes.count == size else {
            return .failure(Problem(description: "\(bytes.count) bytes, expected \(size)"))
        }
        func load<T: FixedWidthInteger>(_ offset: Int, as type: T.Type) -> T {
            var value = T.zero
            withUnsafeMutableBytes(of: &value) { raw in
                for index in 0..<raw.count { raw[index] = bytes[offset + index] }
            }
            return T(littleEndian: value)
        }
        guard load(0, as: UInt32.self) == magic else { return .failure(Problem(description: "bad magic number")) }
        guard load(4, as: UInt16.self) == version else {
            return .failure(Problem(description: "unknown record version \(load(4, as: UInt16.self))"))
        }
        guard load(36, as: UInt32.self) == CRC32C.checksum(Array(bytes[0..<36])) else {
            return .failure(Problem(description: "checksum mismatch"))
        }
        let location = DurablePoint.Location(
            segmentFirstSequence: load(16, as: UInt64.self),
            offset: Int64(bitPattern: load(24, as: UInt64.self))
        )
        return .success(
            DurablePoint(
                sequence: load(8, as: UInt64.self),
                checksum: load(32, as: UInt32.self),
                location: location,
                source: source
            )
        )
    }

    /// The durable point recorded in `directory`, or `nil` when there is no record.
    ///
    /// - Throws: ``LogbookError/Code/corruption`` when the record is damaged, naming it;
    ///   ``LogbookError/Code/io`` when it cannot be read.
    package static func read(in directory: String, syscalls: any Syscalls) throws(LogbookError) -> DurablePoint? {
        let path = SegmentDirectory.join(directory, fileName)
        let file: SystemFile
        do throws(LogbookError) {
            file = try SystemFile.open(path, flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK, syscalls: syscalls)
        } catch {
            if let errno = error.cause as? Errno, errno == .noEntry { return nil }
            throw error
        }
        defer { file.close() }
        var bytes = [UInt8](repeating: 0, count: size + 1)
        let count = try file.read(into: &bytes, count: bytes.count, at: 0)
        switch decode(Array(bytes.prefix(count)), source: path) {
        case .success(let point):
            return point
        case .failure(let reason):
            throw LogbookError(
                .corruption,
                "damaged durable record: \(reason); remove the file to open the log without the check of how far it was durable, after `logbook verify`",
                path: path
            )
        }
    }

    /// Replaces the record in `directory` with `point`: a temporary file is written and synced,
    /// renamed over the record, and the directory synced.
    package static func write(_ point: DurablePoint, in directory: String, syscalls: any Syscalls) throws(LogbookError)
    {
        let temporary = SegmentDirectory.join(directory, temporaryName)
        let file = try SystemFile.open(temporary, flags: O_WRONLY | O_CREAT | O_TRUNC, syscalls: syscalls)
        do throws(LogbookError) {
            try file.writeAll(encode(point)[...], at: 0)
            try file.sync()
        } catch {
            file.close()
            throw error
        }
        file.close()
        let path = SegmentDirectory.join(directory, fileName)
        if case .failure(let errno) = syscalls.rename(temporary, to: path) {
            throw LogbookError.system("rename", path: path, errno)
        }
        try SegmentDirectory.syncDirectory(directory, syscalls: syscalls)
    }

    /// Removes the record, for a log cut below it on purpose; the next close records a new one.
    static func remove(in directory: String, syscalls: any Syscalls) throws(LogbookError) {
        let path = SegmentDirectory.join(directory, fileName)
        switch syscalls.unlink(path) {
        case .success:
            try SegmentDirectory.syncDirectory(directory, syscalls: syscalls)
        case .failure(let errno) where errno == .noEntry:
            return
        case .failure(let errno):
            throw LogbookError.system("unlink", path: path, errno)
        }
    }
}
