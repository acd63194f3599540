import Foundation

/// Reads the batches of a Logbook store's segment files directly, for the reference figures.
///
/// The format is Logbook's on-disk format, versions 1 to 3 (`Sources/Logbook/Logbook.docc/OnDiskFormat.md`):
/// each segment file, named by 20 decimal digits and `.log`, is a sequence of batches, each a
/// 32-byte little-endian header followed by `storedLength` payload bytes:
///
/// | offset | field |
/// |---|---|
/// | 0 | `u32` magic, ASCII "LGBK" |
/// | 4 | `u16` version, 1, 2 or 3 |
/// | 6 | `u16` flags, bit 0: the payload is compressed with LZ4; bit 1 (version 2): it holds a schema record; bit 2 (version 3): the compressed payload is in pieces, each an LZ4 block after its `u32` length |
/// | 8 | `u64` first sequence number |
/// | 16 | `u32` event count |
/// | 20 | `u32` uncompressed length |
/// | 24 | `u32` stored length |
/// | 28 | `u32` CRC32C |
///
/// The benchmark package cannot see the library's `package` reader, so this is a second, minimal
/// one: it stops at the first header that does not parse (a torn tail or damage alike) and does
/// not check checksums. `logbook verify` is the tool for soundness; this is only for measuring.
package enum SegmentReader {
    package static let headerSize = 32
    package static let magic: UInt32 = 0x4B42_474C
    package static let versions: ClosedRange<UInt16> = 1...3
    package static let flagLZ4: UInt16 = 1
    package static let flagPieces: UInt16 = 4

    /// One batch of a segment: its header fields and where its payload is.
    package struct Batch: Hashable, Sendable {
        package var flags: UInt16
        package var firstSequence: UInt64
        package var eventCount: UInt32
        package var uncompressedLength: Int
        /// The payload's byte range in the segment.
        package var payload: Range<Int>

        package var isCompressed: Bool { flags & SegmentReader.flagLZ4 != 0 }
        /// Whether the compressed payload is LZ4 pieces rather than one block.
        package var isInPieces: Bool { flags & SegmentReader.flagPieces != 0 }
    }

    /// The segment files of a store directory, in sequence order.
    package static func segmentFiles(in store: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: store.path)) ?? []
        return
            names
            .filter { name in
                name.hasSuffix(".log") && name.count == 24 && name.prefix(20).allSatisfy { $0.isASCII && $0.isNumber }
            }
            .sorted()
            .map { store.appendingPathComponent($0) }
    }

    /// The well-formed batches at the start of `segment`, stopping at the first that is not.
    package static func batches(in segment: [UInt8]) -> [Batch] {
        var batches: [Batch] = []
        var offset = 0
        segment.withUnsafeBytes { bytes in
            while bytes.count - offset >= headerSize {
                func load<T: FixedWidthInteger>(_ at: Int, as type: T.Type) -> T {
                    T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + at, as: T.self))
                }
                guard load(0, as: UInt32.self) == magic, versions.contains(load(4, as: UInt16.self)) else { return }
                let stored = Int(load(24, as: UInt32.self))
                let start = offset + headerSize
                guard stored <= bytes.count - start else { return }
                batches.append(
                    Batch(
                        flags: load(6, as: UInt16.self),
                        firstSequence: load(8, as: UInt64.self),
                        eventCount: load(16, as: UInt32.self),
                        uncompressedLength: Int(load(20, as: UInt32.self)),
                        payload: start..<(start + stored)
                    )
                )
                offset = start + stored
            }
        }
        return batches
    }
}
