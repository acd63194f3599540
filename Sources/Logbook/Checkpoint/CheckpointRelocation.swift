/// A checkpoint written by another copy of the same log: a store kept in a database server
/// shares its checkpoints between hosts, whose directories hold the same batches, but maybe in
/// segments cut at other places.
///
/// The header names where the checkpoint's last batch lies (segment and byte offset) and the
/// log's size; both are the writer's. Relocating rewrites those three fields for this
/// directory's copy of the log and the header checksum with them (see <doc:OnDiskFormat>):
/// every other byte, and every check an open makes, stays as it was.
package enum CheckpointRelocation {
    /// Where the header's fields lie.
    private static let segmentFirstSequenceOffset = 32
    private static let batchOffsetOffset = 40
    private static let logBytesOffset = 48
    private static let sectionCountOffset = 12

    /// The checkpoint's bytes with the location of its last batch, and the log's size, as this
    /// directory has them.
    ///
    /// - Returns: `nil` when the bytes are too short to hold the header and directory they
    ///   announce: such a file is not a checkpoint, and the open's own checks say why.
    package static func relocated(
        _ bytes: [UInt8],
        segmentFirstSequence: UInt64,
        batchOffset: Int64,
        logBytes: UInt64
    ) -> [UInt8]? {
        guard bytes.count >= CheckpointFormat.headerSize else { return nil }
        var count: UInt32 = 0
        for index in 0..<4 { count |= UInt32(bytes[sectionCountOffset + index]) << (8 * index) }
        let directoryEnd = CheckpointFormat.headerSize + CheckpointFormat.directoryEntrySize * Int(count)
        guard count < 1 << 20, bytes.count >= directoryEnd else { return nil }
        var result = bytes
        put(segmentFirstSequence, at: segmentFirstSequenceOffset, in: &result)
        put(UInt64(bitPattern: batchOffset), at: batchOffsetOffset, in: &result)
        put(logBytes, at: logBytesOffset, in: &result)
        let checksum = CRC32C.checksum(
            Array(result[CheckpointFormat.headerSize..<directoryEnd]),
            continuing: CRC32C.checksum(Array(result[..<CheckpointFormat.headerChecksumOffset]))
        )
        for index in 0..<4 {
            result[CheckpointFormat.headerChecksumOffset + index] = UInt8(truncatingIfNeeded: checksum >> (8 * index))
        }
        return result
    }

    private static func put(_ value: UInt64, at offset: Int, in bytes: inout [UInt8]) {
        for index in 0..<8 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }
}
