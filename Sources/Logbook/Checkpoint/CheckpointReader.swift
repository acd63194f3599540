import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a checkpoint file and checks it on its own: header, directory, every section's bounds
/// and checksum. Never traps on bad input: every problem is a ``LogbookError`` naming the file
/// and the byte offset.
package struct CheckpointReader: Sendable {
    /// A section found in the directory.
    struct Section: Sendable {
        var kind: CheckpointFormat.Kind
        var table: Int
        var range: Range<Int>
    }

    /// The file's path, for messages.
    package let path: String
    /// The header's fields.
    package let header: CheckpointHeader
    /// The file's bytes, mapped from disk when the system calls map files.
    let bytes: CheckpointBytes
    /// The sections, in directory order.
    let sections: [Section]
    /// The chunk checksums of a checkpoint of format version 2; `nil` for version 1.
    let chunks: CheckpointChunks?
    /// Whether the values and heaps are still to be checked, a chunk at a time as they are read.
    let checksOnRead: Bool

    /// How much of the file the reader checks before it is used.
    package enum Checking: Sendable {
        /// Every section and every chunk: what the `logbook` tool uses.
        case whole
        /// All but the values and heaps of a checkpoint of format version 2, whose chunks are
        /// checked the first time a read touches them (see ``CheckpointChunks``): what an open
        /// uses. A checkpoint of version 1 is checked whole.
        case onFirstRead
    }

    /// The file's size in bytes.
    package var size: Int { bytes.count }

    /// Maps the file at `path`, or reads it where `syscalls` maps nothing, and checks its header,
    /// directory and sections, as `checking` says.
    ///
    /// - Throws: ``LogbookError/Code/unsupportedFormat`` for a format version this release does
    ///   not know; ``LogbookError/Code/corruption`` for any other failed check, naming the file
    ///   and the byte offset; ``LogbookError/Code/io`` when the file cannot be read.
    package init(
        path: String,
        syscalls: any Syscalls = PosixSyscalls(),
        checking: Checking = .whole
    ) throws(LogbookError) {
        let file = try SystemFile.open(path, flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK, syscalls: syscalls)
        defer { file.close() }
        let size = try file.size()
        guard size <= Int64(Int.max / 2) else {
            throw LogbookError(.corruption, "damaged checkpoint: \(size) bytes is more than can be read", path: path)
        }
        let bytes: CheckpointBytes
        switch syscalls.mapReadOnly(file.descriptor, length: Int(size)) {
        case .success(let address?):
            bytes = CheckpointBytes(mapped: address, count: Int(size), syscalls: syscalls)
        case .success(nil):
            var read = [UInt8](repeating: 0, count: Int(size))
            let count = try file.read(into: &read, count: read.count, at: 0)
            // A file that shrank while it was read keeps what was read.
            if count < read.count { read.removeSubrange(count...) }
            bytes = CheckpointBytes(copying: read)
        case .failure(let errno):
            throw LogbookError.system("mmap", path: path, errno)
        }
        try self.init(region: bytes, path: path, checking: checking)
    }

    /// Checks the bytes of a checkpoint file.
    package init(bytes: [UInt8], path: String) throws(LogbookError) {
        try self.init(region: CheckpointBytes(copying: bytes), path: path)
    }

    /// Checks the checkpoint in `region`.
    init(region: CheckpointBytes, path: String, checking: Checking = .whole) throws(LogbookError) {
        // The header and the directory are parsed from a copy; the sections stay in place.
        let bytes = region.copy(0..<min(region.count, CheckpointFormat.headerSize))
        func damage(_ what: String, at offset: Int) -> LogbookError {
            LogbookError(.corruption, "damaged checkpoint: \(what)", path: path, offset: Int64(offset))
        }
        var reader = BinaryReader(bytes)
        guard bytes.count >= CheckpointFormat.headerSize, let magic = reader.readLittleEndian(as: UInt32.self),
            let version = reader.readLittleEndian(as: UInt16.self), reader.readLittleEndian(as: UInt16.self) != nil,
            let headerSize = reader.readLittleEndian(as: UInt32.self),
            let sectionCount = reader.readLittleEndian(as: UInt32.self)
        else { throw damage("\(bytes.count) bytes, shorter than a header", at: 0) }
        guard magic == CheckpointFormat.magic else { throw damage("bad magic number", at: 0) }
        guard CheckpointFormat.readableVersions.contains(version) else {
            let readable = CheckpointFormat.readableVersions
            throw LogbookError(
                .unsupportedFormat,
                "checkpoint format version \(version), which this release does not read (it reads \(readable.lowerBound) to \(readable.upperBound))",
                path: path,
                offset: 4
            )
        }
        guard headerSize == CheckpointFormat.headerSize else { throw damage("header size \(headerSize)", at: 8) }
        let directoryEnd = CheckpointFormat.headerSize + CheckpointFormat.directoryEntrySize * Int(sectionCount)
        guard Int(sectionCount) <= region.count / CheckpointFormat.directoryEntrySize, directoryEnd <= region.count
        else { throw damage("\(sectionCount) sections do not fit in \(region.count) bytes", at: 12) }
        guard let sequence = reader.readLittleEndian(as: UInt64.self),
            let batchChecksum = reader.readLittleEndian(as: UInt32.self),
            reader.readLittleEndian(as: UInt32.self) != nil,
            let segment = reader.readLittleEndian(as: UInt64.self),
            let offset = reader.readLittleEndian(as: UInt64.self),
            let logBytes = reader.readLittleEndian(as: UInt64.self),
            let identity = reader.readLittleEndian(as: UInt32.self),
            reader.readLittleEndian(as: UInt32.self) != nil,
            let schemaFingerprint = reader.readBytes(32), let historyFingerprint = reader.readBytes(32),
            let major = reader.readLittleEndian(as: UInt32.self), let minor = reader.readLittleEndian(as: UInt32.self),
            let patch = reader.readLittleEndian(as: UInt32.self), reader.readBytes(16) != nil,
            let stored = reader.readLittleEndian(as: UInt32.self)
        else { throw damage("truncated header", at: 16) }
        let computed = CRC32C.checksum(
            region.buffer(CheckpointFormat.headerSize..<directoryEnd),
            continuing: CRC32C.checksum(Array(bytes[..<CheckpointFormat.headerChecksumOffset]))
        )
        guard stored == computed else {
            throw damage(
                "header checksum mismatch: stored 0x\(String(stored, radix: 16)), computed 0x\(String(computed, radix: 16))",
                at: CheckpointFormat.headerChecksumOffset
            )
        }
        var sections: [Section] = []
        var storedChecksums: [UInt32] = []
        reader = BinaryReader(region.copy(CheckpointFormat.headerSize..<directoryEnd))
        for index in 0..<Int(sectionCount) {
            let entry = CheckpointFormat.headerSize + index * CheckpointFormat.directoryEntrySize
            guard let rawKind = reader.readLittleEndian(as: UInt16.self),
                reader.readLittleEndian(as: UInt16.self) != nil,
                let table = reader.readLittleEndian(as: UInt32.self),
                let start = reader.readLittleEndian(as: UInt64.self),
                let length = reader.readLittleEndian(as: UInt64.self),
                let checksum = reader.readLittleEndian(as: UInt32.self), reader.readLittleEndian(as: UInt32.self) != nil
            else { throw damage("truncated directory", at: entry) }
            guard let kind = CheckpointFormat.Kind(rawValue: rawKind) else {
                throw damage("unknown section kind \(rawKind)", at: entry)
            }
            guard start >= UInt64(directoryEnd), start <= UInt64(region.count), length <= UInt64(region.count) - start
            else { throw damage("section \(index) (\(kind)) lies outside the file", at: entry) }
            let range = Int(start)..<Int(start + length)
            sections.append(Section(kind: kind, table: Int(table), range: range))
            storedChecksums.append(checksum)
        }
        // Version 2 lists the checksum of every chunk; the values and heaps may wait for them.
        var chunks: CheckpointChunks?
        var chunksIndex: Int?
        var later: Set<Int> = []
        if version >= 2 {
            guard let index = sections.firstIndex(where: { $0.kind == .chunks }) else {
                throw damage("no chunks section", at: CheckpointFormat.headerSize)
            }
            if checking == .onFirstRead {
                later = Set(sections.indices.filter { sections[$0].kind == .values || sections[$0].kind == .heap })
            }
            let sum = CRC32C.checksum(region.buffer(sections[index].range))
            guard sum == storedChecksums[index] else {
                throw damage(
                    "checksum mismatch in section \(index) (chunks): stored 0x\(String(storedChecksums[index], radix: 16)), computed 0x\(String(sum, radix: 16))",
                    at: sections[index].range.lowerBound
                )
            }
            chunksIndex = index
            chunks = CheckpointChunks(region: region, section: sections[index].range, ranges: sections.map(\.range))
            guard chunks != nil else {
                throw damage("the chunks section does not match the sections", at: sections[index].range.lowerBound)
            }
        }
        // The chunks section, if any, was checked above.
        let checked = sections.indices.filter { !later.contains($0) && $0 != chunksIndex }
        let sums = Self.checksums(of: checked.map { sections[$0].range }, in: region)
        for (index, sum) in zip(checked, sums) where sum != storedChecksums[index] {
            throw damage(
                "checksum mismatch in section \(index) (\(sections[index].kind)): stored 0x\(String(storedChecksums[index], radix: 16)), computed 0x\(String(sum, radix: 16))",
                at: sections[index].range.lowerBound
            )
        }
        if checking == .whole, let chunks, let (index, offset) = chunks.checkAll() {
            throw damage(
                "checksum mismatch in the chunk at byte \(offset) of section \(index) (\(sections[index].kind))",
                at: offset
            )
        }
        self.chunks = chunks
        self.checksOnRead = !later.isEmpty
        self.path = path
        self.bytes = region
        self.sections = sections
        self.header = CheckpointHeader(
            version: version,
            sequence: sequence,
            batchChecksum: batchChecksum,
            segmentFirstSequence: segment,
            batchOffset: Int64(bitPattern: offset),
            logBytes: logBytes,
            storeIdentity: identity,
            schemaFingerprint: Array(schemaFingerprint),
            historyFingerprint: Array(historyFingerprint),
            schemaVersion: Schema.Version(Int(major), Int(minor), Int(patch))
        )
    }

    /// The CRC32C of each of `ranges` of `region`, computed on two threads: the sections are
    /// dealt out largest first to whichever thread has the fewer bytes so far.
    private static func checksums(of ranges: [Range<Int>], in region: CheckpointBytes) -> [UInt32] {
        var shares: [[Int]] = [[], []]
        var bytes = [0, 0]
        for index in ranges.indices.sorted(by: { ranges[$0].count > ranges[$1].count }) {
            let share = bytes[0] <= bytes[1] ? 0 : 1
            shares[share].append(index)
            bytes[share] += ranges[index].count
        }
        let results = Locked([UInt32](repeating: 0, count: ranges.count))
        let work = shares
        DispatchQueue.concurrentPerform(iterations: work.count) { share in
            var found: [(Int, UInt32)] = []
            for index in work[share] {
                // A stretch at a time, each let go of once read: read again only where a load or
                // a fetch needs it.
                let range = ranges[index]
                var checksum: UInt32 = 0
                for start in stride(from: range.lowerBound, to: range.upperBound, by: CheckpointBytes.stretch) {
                    let stretch = start..<min(start + CheckpointBytes.stretch, range.upperBound)
                    checksum = CRC32C.checksum(region.buffer(stretch), continuing: checksum)
                    region.dropPages(stretch)
                }
                found.append((index, checksum))
            }
            results.withLock { for (index, checksum) in found { $0[index] = checksum } }
        }
        return results.withLock { $0 }
    }

    /// The error for a section whose contents do not make sense.
    func damage(_ what: String, in section: Section, at position: Int) -> LogbookError {
        LogbookError(
            .corruption,
            "damaged checkpoint: \(what) in the \(section.kind) section",
            path: path,
            offset: Int64(section.range.lowerBound + position)
        )
    }

    /// The one section of a kind (and table), or a damage error when it is missing or repeated.
    func section(_ kind: CheckpointFormat.Kind, table: Int = 0) throws(LogbookError) -> Section {
        sections[try sectionIndex(kind, table: table)]
    }

    /// The directory index of the one section of a kind (and table), or a damage error when it
    /// is missing or repeated.
    func sectionIndex(_ kind: CheckpointFormat.Kind, table: Int = 0) throws(LogbookError) -> Int {
        let found = sections.indices.filter { sections[$0].kind == kind && sections[$0].table == table }
        guard found.count == 1 else {
            throw LogbookError(
                .corruption,
                "damaged checkpoint: \(found.count) \(kind) sections for table \(table), expected one",
                path: path,
                offset: Int64(CheckpointFormat.headerSize)
            )
        }
        return found[0]
    }
}
