/// The fixed-size header in front of every batch.
///
/// The checksum covers the header bytes before the checksum field and then the stored payload,
/// so a flipped bit anywhere in a batch is caught.
package struct BatchHeader: Hashable, Sendable {
    package var version: UInt16
    package var flags: UInt16
    package var firstSequence: UInt64
    package var eventCount: UInt32
    package var uncompressedLength: UInt32
    package var storedLength: UInt32
    package var checksum: UInt32

    package var isCompressed: Bool { flags & LogFormat.flagCompressed != 0 }

    /// Whether the payload is stored as LZ4 pieces (``LogFormat/flagPieces``).
    package var isInPieces: Bool { flags & LogFormat.flagPieces != 0 }

    /// Whether the header says the payload holds a schema record (``LogFormat/flagSchemaRecord``).
    package var flagsSchemaRecord: Bool { flags & LogFormat.flagSchemaRecord != 0 }

    /// Whether the payload may hold a schema record: always for a version 1 batch, which does
    /// not say; for a later one, when it flags one.
    package var mayHoldSchemaRecord: Bool { version < LogFormat.schemaRecordFlagVersion || flagsSchemaRecord }

    /// The sequence number of the last event, or `firstSequence - 1` for an empty batch.
    package var lastSequence: UInt64 { firstSequence &+ UInt64(eventCount) &- 1 }
    /// Whether the batch refers to values kept in files beside the log (`.externalStorage`).
    package var refersToExternalValues: Bool { flags & LogFormat.flagExternal != 0 }

    /// The bytes the batch takes in a segment, header included.
    package var frameSize: Int { LogFormat.headerSize + Int(storedLength) }

    /// Writes the header into the first ``LogFormat/headerSize`` bytes of `bytes`.
    package func write(to bytes: UnsafeMutableRawBufferPointer) {
        precondition(bytes.count >= LogFormat.headerSize, "a batch header needs \(LogFormat.headerSize) bytes")
        bytes.storeBytes(of: LogFormat.magic.littleEndian, toByteOffset: LogFormat.Offset.magic, as: UInt32.self)
        bytes.storeBytes(of: version.littleEndian, toByteOffset: LogFormat.Offset.version, as: UInt16.self)
        bytes.storeBytes(of: flags.littleEndian, toByteOffset: LogFormat.Offset.flags, as: UInt16.self)
        bytes.storeBytes(
            of: firstSequence.littleEndian,
            toByteOffset: LogFormat.Offset.firstSequence,
            as: UInt64.self
        )
        bytes.storeBytes(of: eventCount.littleEndian, toByteOffset: LogFormat.Offset.eventCount, as: UInt32.self)
        bytes.storeBytes(
            of: uncompressedLength.littleEndian,
            toByteOffset: LogFormat.Offset.uncompressedLength,
            as: UInt32.self
        )
        bytes.storeBytes(of: storedLength.littleEndian, toByteOffset: LogFormat.Offset.storedLength, as: UInt32.self)
        bytes.storeBytes(of: checksum.littleEndian, toByteOffset: LogFormat.Offset.checksum, as: UInt32.self)
    }

    /// Reads a header, checking only the magic number.
    ///
    /// - Returns: `nil` when `bytes` is shorter than a header or does not start with the magic.
    package static func read(from bytes: UnsafeRawBufferPointer) -> BatchHeader? {
        guard bytes.count >= LogFormat.headerSize else { return nil }
        func load<T: FixedWidthInteger>(_ offset: Int, as type: T.Type) -> T {
            T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
        }
        guard load(LogFormat.Offset.magic, as: UInt32.self) == LogFormat.magic else { return nil }
        return BatchHeader(
            version: load(LogFormat.Offset.version, as: UInt16.self),
            flags: load(LogFormat.Offset.flags, as: UInt16.self),
            firstSequence: load(LogFormat.Offset.firstSequence, as: UInt64.self),
            eventCount: load(LogFormat.Offset.eventCount, as: UInt32.self),
            uncompressedLength: load(LogFormat.Offset.uncompressedLength, as: UInt32.self),
            storedLength: load(LogFormat.Offset.storedLength, as: UInt32.self),
            checksum: load(LogFormat.Offset.checksum, as: UInt32.self)
        )
    }

    /// Computes the checksum of a whole frame (header and stored payload, the header's length
    /// fields already written) and stores it in the header's checksum field.
    ///
    /// - Returns: the checksum.
    @discardableResult
    package static func seal(_ frame: UnsafeMutableRawBufferPointer) -> UInt32 {
        let checksum = checksum(
            header: UnsafeRawBufferPointer(rebasing: frame[..<LogFormat.headerSize]),
            payload: UnsafeRawBufferPointer(rebasing: frame[LogFormat.headerSize...])
        )
        frame.storeBytes(of: checksum.littleEndian, toByteOffset: LogFormat.Offset.checksum, as: UInt32.self)
        return checksum
    }

    /// Where each batch of a segment's bytes starts and ends, going by the lengths in the
    /// headers alone (checksums unchecked), up to the first bytes that do not frame a batch.
    package static func frames(in bytes: UnsafeRawBufferPointer) -> [Range<Int>] {
        var frames: [Range<Int>] = []
        var offset = 0
        while let header = read(from: UnsafeRawBufferPointer(rebasing: bytes[offset...])),
            header.frameSize <= bytes.count - offset
        {
            frames.append(offset..<(offset + header.frameSize))
            offset += header.frameSize
        }
        return frames
    }

    /// The checksum of a batch: the header bytes before the checksum field, then the payload.
    package static func checksum(header: UnsafeRawBufferPointer, payload: UnsafeRawBufferPointer) -> UInt32 {
        let covered = UnsafeRawBufferPointer(rebasing: header[..<LogFormat.Offset.checksum])
        return CRC32C.checksum(payload, continuing: CRC32C.checksum(covered))
    }
}
