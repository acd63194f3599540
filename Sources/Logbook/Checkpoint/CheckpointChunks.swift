import CMemoryHints

/// The chunk checksums of a checkpoint of format version 2, and which chunks were checked.
///
/// The chunks section holds the CRC32C of every 64 KiB chunk of every other section (see
/// <doc:OnDiskFormat>). An open checks the small sections whole, but the values and heaps, most
/// of the file, a chunk at a time, the first time a read touches the chunk: so that an open
/// reads what it uses, not the whole file. Each chunk has a state byte, written with release
/// ordering once its checksum is compared: two readers that meet on an unchecked chunk both
/// compute its checksum, and agree.
final class CheckpointChunks: @unchecked Sendable {
    /// The checkpoint the chunks lie in.
    let region: CheckpointBytes
    /// Each section's bytes in the file, in directory order.
    private let ranges: [Range<Int>]
    /// The index of each section's first checksum in ``sums``.
    private let firsts: [Int]
    /// The number of each section's chunks.
    private let counts: [Int]
    private let sums: [UInt32]
    private let states: UnsafeMutablePointer<UInt8>

    private static let unchecked: UInt8 = 0
    fileprivate static let sound: UInt8 = 1
    private static let damaged: UInt8 = 2

    /// The chunk checksums in `section` of `region`, for the sections `ranges`; `nil` when the
    /// section's length does not match their chunks.
    init?(region: CheckpointBytes, section: Range<Int>, ranges: [Range<Int>]) {
        let size = CheckpointFormat.chunkSize
        var firsts: [Int] = []
        var counts: [Int] = []
        var total = 0
        for range in ranges {
            firsts.append(total)
            // The chunks section has no checksums of its own chunks: the directory's covers it.
            counts.append(range == section ? 0 : (range.count + size - 1) / size)
            total += counts[counts.count - 1]
        }
        guard section.count == 8 + 4 * total else { return nil }
        let bytes = region.buffer(section)
        guard UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self)) == UInt32(size) else { return nil }
        var sums: [UInt32] = []
        sums.reserveCapacity(total)
        for index in 0..<total {
            sums.append(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 8 + 4 * index, as: UInt32.self)))
        }
        self.region = region
        self.ranges = ranges
        self.firsts = firsts
        self.counts = counts
        self.sums = sums
        states = UnsafeMutablePointer<UInt8>.allocate(capacity: Swift.max(total, 1))
        states.initialize(repeating: Self.unchecked, count: Swift.max(total, 1))
    }

    deinit {
        states.deallocate()
    }

    /// Checks the chunks of section `section` that `range` (bytes of the file, within the
    /// section) touches, those not checked before.
    ///
    /// - Returns: `nil` when they are sound; otherwise the file offset of the first damaged one.
    @inline(__always)
    func check(section: Int, _ range: Range<Int>) -> Int? {
        guard counts[section] > 0 else { return nil }
        let start = ranges[section].lowerBound
        let size = CheckpointFormat.chunkSize
        let first = (range.lowerBound - start) / size
        let last = range.isEmpty ? first : (range.upperBound - 1 - start) / size
        for chunk in first...last {
            let state = logbook_load_acquire(states + firsts[section] + chunk)
            if state == Self.sound { continue }
            if state == Self.damaged || !checkChunk(section: section, chunk) { return start + chunk * size }
        }
        return nil
    }

    /// The chunks of one section, for a reader that checks many ranges of it: the lookups of
    /// ``check(section:_:)`` done once.
    struct SectionChunks {
        /// The checks, kept alive with the states the view points into; `nil` for ``none``.
        let chunks: CheckpointChunks?
        let section: Int
        /// Where the section begins in the file.
        let start: Int
        /// The state of the section's first chunk; `nil` for ``none``.
        let states: UnsafeMutablePointer<UInt8>?
        let count: Int

        /// ``CheckpointChunks/check(section:_:)`` for this section; the sound chunks are found
        /// with one load each.
        @inline(__always)
        func check(_ range: Range<Int>) -> Int? {
            guard count > 0, let states else { return nil }
            let first = (range.lowerBound &- start) / CheckpointFormat.chunkSize
            let last = range.isEmpty ? first : (range.upperBound &- 1 &- start) / CheckpointFormat.chunkSize
            var chunk = first
            while chunk <= last {
                guard chunk < count else { return start &+ chunk &* CheckpointFormat.chunkSize }
                if logbook_load_acquire(states + chunk) != CheckpointChunks.sound {
                    return chunks?.check(section: section, range)
                }
                chunk &+= 1
            }
            return nil
        }

        /// No chunks: nothing to check.
        static var none: SectionChunks {
            SectionChunks(chunks: nil, section: 0, start: 0, states: nil, count: 0)
        }
    }

    /// The chunks of section `section`.
    func chunks(of section: Int) -> SectionChunks {
        SectionChunks(
            chunks: self,
            section: section,
            start: ranges[section].lowerBound,
            states: states + firsts[section],
            count: counts[section]
        )
    }

    /// Checks every chunk of every section.
    ///
    /// - Returns: `nil` when all are sound; otherwise the section index and file offset of the
    ///   first damaged chunk.
    func checkAll() -> (section: Int, offset: Int)? {
        for (section, range) in ranges.enumerated() where counts[section] > 0 {
            if let offset = check(section: section, range) { return (section, offset) }
        }
        return nil
    }

    /// Compares chunk `chunk` of section `section` with its checksum, and records the outcome.
    private func checkChunk(section: Int, _ chunk: Int) -> Bool {
        let range = ranges[section]
        let start = range.lowerBound + chunk * CheckpointFormat.chunkSize
        let end = Swift.min(start + CheckpointFormat.chunkSize, range.upperBound)
        let index = firsts[section] + chunk
        let sound = CRC32C.checksum(region.buffer(start..<end)) == sums[index]
        logbook_store_release(states + index, sound ? Self.sound : Self.damaged)
        return sound
    }
}
