/// Constants of the on-disk log format, versions 2 to 5 (and version 1, which this release
/// still reads).
///
/// The human specification, with the grammar and a worked example, is the DocC article
/// `OnDiskFormat`; every number here is described there. Nothing else in the code base spells
/// these numbers.
enum LogFormat {
    /// The four bytes that open every batch: ASCII "LGBK", read as a little-endian `UInt32`.
    static let magic: UInt32 = 0x4B42_474C
    /// The batch format version this release writes for a batch stored whole: compressed in
    /// one block, or not at all.
    static let version: UInt16 = 2
    /// The batch format version this release writes for a batch stored in pieces
    /// (``flagPieces``), the first to know that flag.
    static let piecesVersion: UInt16 = 3
    /// The batch format versions this release reads. Version 1 differs only in having no
    /// ``flagSchemaRecord``: a reader looks inside every version 1 batch for schema records.
    /// Version 3 differs from version 2 only in knowing ``flagPieces``.
    /// Version 4 differs from version 3 only in knowing ``flagTransaction``.
    /// Version 5 differs from version 4 only in knowing ``flagExternal``.
    static let readableVersions: ClosedRange<UInt16> = 1...5
    /// The size of a batch header in bytes.
    static let headerSize = 32
    /// Byte offsets of the header fields. All integers are little-endian.
    enum Offset {
        static let magic = 0
        static let version = 4
        static let flags = 6
        static let firstSequence = 8
        static let eventCount = 16
        static let uncompressedLength = 20
        static let storedLength = 24
        static let checksum = 28
    }
    /// Flag bit: the payload is an LZ4 block.
    static let flagCompressed: UInt16 = 1
    /// Flag bit, from version 2: at least one event of the payload begins with the byte
    /// ``schemaRecordKind``. A reader that looks for schema records skips the payload of a
    /// batch without it, unread.
    static let flagSchemaRecord: UInt16 = 2
    /// The first format version with ``flagSchemaRecord``.
    static let schemaRecordFlagVersion: UInt16 = 2
    /// Flag bit, from version 3, only with ``flagCompressed``: the stored payload is LZ4 blocks,
    /// each after its length as a little-endian `UInt32`, which decompress one after another
    /// into the payload, each able to refer to the 64 KiB decompressed before it. A batch is
    /// compressed this way while its payload is encoded (`PayloadFeed`).
    static let flagPieces: UInt16 = 4
    /// Flag bit, from version 4: the payload begins with a transaction record (the save's time
    /// and author), framed like an event but not one: it takes no sequence number and is not
    /// counted in the event count.
    static let flagTransaction: UInt16 = 8
    /// The batch format version this release writes for a batch with a transaction record
    /// (``flagTransaction``), stored whole or in pieces: every batch a save or a migration
    /// appends.
    static let transactionVersion: UInt16 = 4
    /// Flag bit, from version 5: an event of the payload holds a reference to a value kept in a
    /// file beside the log (the event codec's value tag 15).
    static let flagExternal: UInt16 = 16
    /// The batch format version this release writes for a batch with ``flagExternal``, and only
    /// for such a batch.
    static let externalVersion: UInt16 = 5
    /// The size of the length in front of each piece of a batch stored in pieces.
    static let pieceLengthSize = 4
    /// The first byte of a schema record: the event codec's kind 1 (`EventCodec.Kind.schema`).
    static let schemaRecordKind: UInt8 = 1

    /// Every flag bit that a batch of `version` may set.
    static func knownFlags(version: UInt16) -> UInt16 {
        switch version {
        case externalVersion...: flagCompressed | flagSchemaRecord | flagPieces | flagTransaction | flagExternal
        case transactionVersion...: flagCompressed | flagSchemaRecord | flagPieces | flagTransaction
        case piecesVersion...: flagCompressed | flagSchemaRecord | flagPieces
        case schemaRecordFlagVersion...: flagCompressed | flagSchemaRecord
        default: flagCompressed
        }
    }
    /// The first sequence number of a new store.
    static let firstSequence: UInt64 = 1
    /// Digits in a segment file name.
    static let segmentNameDigits = 20
    /// The extension of a segment file.
    static let segmentExtension = ".log"
    /// The extension of a compaction base, named `<first>-<horizon>.base` (see `OnDiskFormat`).
    static let baseExtension = ".base"
    /// The suffix of a file being written that readers ignore.
    static let temporarySuffix = ".tmp"
    /// The batch format version of the fence's header: never written for a batch, so that a
    /// release that reads up to version 5 refuses a store whose history was deleted.
    static let fenceVersion: UInt16 = 6
    /// The most events in one batch of a compaction base.
    static let baseBatchEvents = 4_096
    /// The name of the lock file a writer holds.
    static let lockFileName = "LOCK"
    /// The hard ceiling on a batch's uncompressed or stored length, whatever the configuration.
    static let absoluteMaximumBatchSize = Int(UInt32.max)
}
