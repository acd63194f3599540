/// The constants and header of a checkpoint file; the layout is specified in <doc:OnDiskFormat>.
package enum CheckpointFormat {
    /// The directory of a store that holds its checkpoints.
    package static let directoryName = "checkpoints"
    /// The extension of a checkpoint's file name.
    package static let fileExtension = ".checkpoint"
    /// The suffix of a checkpoint being written, before it is renamed into place.
    static let temporarySuffix = ".tmp"
    /// `LBCP` in little-endian byte order.
    static let magic: UInt32 = 0x5043_424C
    /// The format version this release writes.
    package static let version: UInt16 = 2
    /// The format versions this release reads: 1, whose sections are checked whole at the open,
    /// and 2, whose values and heaps are checked a chunk at a time when first read.
    package static let readableVersions: ClosedRange<UInt16> = 1...2
    /// The bytes of the header, before the directory.
    static let headerSize = 160
    /// The offset of the header checksum, which covers the bytes before it and the directory.
    static let headerChecksumOffset = 156
    /// The bytes of one directory entry.
    static let directoryEntrySize = 32
    /// The bytes of one value cell.
    static let cellSize = 16
    /// How many checkpoints a writer keeps: the one it wrote and the one before.
    static let kept = 2
    /// The bytes of a chunk: the stretch of a section that one checksum of the chunks section
    /// covers (format version 2).
    static let chunkSize = 64 << 10

    /// The kinds of section.
    enum Kind: UInt16, CaseIterable, Sendable {
        case state = 1
        case schemas = 2
        case aliases = 3
        case chunks = 4
        case entity = 16
        case values = 17
        case heap = 18
        case links = 19

        /// Whether there is one section of the kind per entity.
        var isPerEntity: Bool { rawValue >= 16 }
    }

    /// The file name of the checkpoint at `sequence`: 20 zero-padded digits and the extension.
    package static func fileName(forSequence sequence: UInt64) -> String {
        let digits = String(sequence)
        return String(repeating: "0", count: LogFormat.segmentNameDigits - digits.count) + digits + fileExtension
    }

    /// The sequence number a checkpoint's file name holds, or `nil` for another name.
    package static func sequence(ofFileName name: String) -> UInt64? {
        guard name.hasSuffix(fileExtension) else { return nil }
        let digits = name.dropLast(fileExtension.count)
        guard digits.count == LogFormat.segmentNameDigits, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return nil
        }
        return UInt64(digits)
    }
}

/// The fixed fields of a checkpoint's header.
package struct CheckpointHeader: Sendable, Hashable {
    /// The format version.
    package var version: UInt16
    /// The last sequence number of the batch the checkpoint ends at.
    package var sequence: UInt64
    /// The checksum in the header of that batch.
    package var batchChecksum: UInt32
    /// The first sequence number of the segment that holds that batch.
    package var segmentFirstSequence: UInt64
    /// The byte offset of that batch in its segment.
    package var batchOffset: Int64
    /// The bytes of every segment up to the end of that batch.
    package var logBytes: UInt64
    /// The checksum of the store's first batch, which stands for the store.
    package var storeIdentity: UInt32
    /// The fingerprint of the schema the objects are at.
    package var schemaFingerprint: [UInt8]
    /// The fingerprint of the earlier schemas of the migration plan (see ``Checkpoint/historyFingerprint(of:)``).
    package var historyFingerprint: [UInt8]
    /// The version of the schema the objects are at.
    package var schemaVersion: Schema.Version

    /// The batch the checkpoint ends at, as a durable point the log must reach.
    func point(source: String) -> DurablePoint {
        DurablePoint(
            sequence: sequence,
            checksum: batchChecksum,
            location: DurablePoint.Location(segmentFirstSequence: segmentFirstSequence, offset: batchOffset),
            source: source
        )
    }
}
