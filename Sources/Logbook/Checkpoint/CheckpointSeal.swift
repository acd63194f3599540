/// Recomputes the checksums of a checkpoint's bytes after an edit made on purpose: the checks of
/// what the checksums do not cover (a cell's shape, an entity's name, a store's identity) are
/// tested on files that pass every checksum.
package enum CheckpointSeal {
    /// Rewrites, in `bytes`, the chunk checksums (format version 2), each section's checksum in
    /// the directory, then the header checksum, from the bytes as they are.
    ///
    /// - Returns: `false`, changing nothing, when the header or directory do not fit `bytes`.
    @discardableResult
    package static func reseal(_ bytes: inout [UInt8]) -> Bool {
        func word(_ offset: Int) -> UInt64 {
            (0..<8).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
        }
        func put(_ value: UInt32, at offset: Int) {
            for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
        }
        guard bytes.count >= CheckpointFormat.headerSize else { return false }
        let count = Int(word(12) & 0xFFFF_FFFF)
        let directoryEnd = CheckpointFormat.headerSize + CheckpointFormat.directoryEntrySize * count
        guard count < bytes.count, directoryEnd <= bytes.count else { return false }
        var sections: [(kind: UInt16, range: Range<Int>)] = []
        for index in 0..<count {
            let entry = CheckpointFormat.headerSize + index * CheckpointFormat.directoryEntrySize
            let start = Int(clamping: word(entry + 8))
            let length = Int(clamping: word(entry + 16))
            guard start <= bytes.count, length <= bytes.count - start else { return false }
            sections.append((UInt16(bytes[entry]) | UInt16(bytes[entry + 1]) << 8, start..<(start + length)))
        }
        let size = CheckpointFormat.chunkSize
        if let chunks = sections.first(where: { $0.kind == CheckpointFormat.Kind.chunks.rawValue })?.range {
            var position = chunks.lowerBound + 8
            for section in sections where section.range != chunks {
                for start in stride(from: section.range.lowerBound, to: section.range.upperBound, by: size)
                where position + 4 <= chunks.upperBound {
                    put(
                        CRC32C.checksum(Array(bytes[start..<min(start + size, section.range.upperBound)])),
                        at: position
                    )
                    position += 4
                }
            }
        }
        for (index, section) in sections.enumerated() {
            let entry = CheckpointFormat.headerSize + index * CheckpointFormat.directoryEntrySize
            put(CRC32C.checksum(Array(bytes[section.range])), at: entry + 24)
        }
        put(
            CRC32C.checksum(
                Array(bytes[CheckpointFormat.headerSize..<directoryEnd]),
                continuing: CRC32C.checksum(Array(bytes[..<CheckpointFormat.headerChecksumOffset]))
            ),
            at: CheckpointFormat.headerChecksumOffset
        )
        return true
    }
}
