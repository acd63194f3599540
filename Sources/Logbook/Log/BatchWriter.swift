/// Frames a batch of encoded events: header, checksum and (when it helps) LZ4 compression.
///
/// The payload is the events one after another, each preceded by its length as an unsigned
/// LEB128 varint. The frame is built in one buffer so that the log can write it with a single
/// `pwrite`.
package enum BatchWriter {
    /// Builds the frame of a batch.
    ///
    /// - Parameters:
    ///   - events: the encoded events, opaque bytes at this layer.
    ///   - firstSequence: the sequence number the first event receives.
    ///   - compress: whether to try LZ4; the payload is stored compressed only when smaller.
    ///   - maximumBatchSize: the largest uncompressed payload accepted.
    /// - Throws: ``LogbookError/Code/batchTooLarge`` when the payload passes the maximum.
    package static func frame(
        events: [[UInt8]],
        firstSequence: UInt64,
        compress: Bool,
        maximumBatchSize: Int
    ) throws(LogbookError) -> (header: BatchHeader, bytes: [UInt8]) {
        try frame(
            payload: BatchPayload(events),
            firstSequence: firstSequence,
            compress: compress,
            maximumBatchSize: maximumBatchSize
        )
    }

    /// Builds the frame of a batch whose payload is already laid out.
    ///
    /// - Parameter compressedPieces: When given, the payload's LZ4 pieces after
    ///   ``LogFormat/headerSize`` bytes for the header, made while the payload was encoded (see
    ///   ``PayloadFeed``); the frame is built in them, as a batch of format version 3 with
    ///   ``LogFormat/flagPieces``, if compressing is on and the pieces are smaller than the
    ///   payload; otherwise the payload is stored as it is, without compressing it again.
    package static func frame(
        payload batch: BatchPayload,
        firstSequence: UInt64,
        compress: Bool,
        maximumBatchSize: Int,
        compressedPieces: [UInt8]? = nil
    ) throws(LogbookError) -> (header: BatchHeader, bytes: [UInt8]) {
        let payload = batch.bytes
        let eventCount = batch.eventCount
        guard payload.count <= maximumBatchSize, payload.count <= LogFormat.absoluteMaximumBatchSize,
            eventCount <= Int(UInt32.max)
        else {
            throw LogbookError(
                .batchTooLarge,
                "a batch of \(eventCount) events takes \(payload.count) bytes, more than the maximum batch size of \(maximumBatchSize) bytes",
                sequence: firstSequence
            )
        }
        // The frame is built in place: the payload compressed straight after the header, or
        // copied there when compressing does not make it smaller. Compressing into a buffer of
        // its own first cost every batch an allocation of the payload's size, a zero-filled
        // frame, and one more copy of the stored bytes.
        // The flag from the events themselves, as a reader checks it, whichever path laid them out.
        guard
            case .success(var ranges) = Batch.splitEvents(
                in: payload,
                count: eventCount,
                transaction: batch.hasTransaction
            )
        else {
            preconditionFailure("a batch payload being written frames its events wrongly")
        }
        if batch.hasTransaction { ranges.removeFirst() }
        let schemaRecord = Batch.firstSchemaRecord(in: payload, ranges) != nil ? LogFormat.flagSchemaRecord : 0
        let transaction = batch.hasTransaction ? LogFormat.flagTransaction : 0
        let external = batch.hasExternalReferences ? LogFormat.flagExternal : 0
        var version = batch.hasTransaction ? LogFormat.transactionVersion : LogFormat.version
        if batch.hasExternalReferences { version = LogFormat.externalVersion }
        var header = BatchHeader(
            version: version,
            flags: schemaRecord | transaction | external,
            firstSequence: firstSequence,
            eventCount: UInt32(eventCount),
            uncompressedLength: UInt32(payload.count),
            storedLength: UInt32(payload.count),
            checksum: 0
        )
        if compress, var frame = compressedPieces, frame.count > LogFormat.headerSize,
            frame.count - LogFormat.headerSize < payload.count
        {
            header.version = max(header.version, LogFormat.piecesVersion)
            header.flags |= LogFormat.flagCompressed | LogFormat.flagPieces
            header.storedLength = UInt32(frame.count - LogFormat.headerSize)
            frame.withUnsafeMutableBytes { written in
                header.write(to: written)
                header.checksum = BatchHeader.seal(written)
            }
            return (header, frame)
        }
        let frame = [UInt8](unsafeUninitializedCapacity: LogFormat.headerSize + payload.count) { buffer, initialized in
            let bytes = UnsafeMutableRawBufferPointer(buffer)
            let body = UnsafeMutableRawBufferPointer(rebasing: bytes[LogFormat.headerSize...])
            // Only if it comes out smaller than the payload: one byte less room.
            let room = UnsafeMutableRawBufferPointer(rebasing: body.dropLast())
            // Pieces that came out no smaller say the payload does not compress: it is not
            // compressed again whole.
            let compressed: Int? =
                compress && compressedPieces == nil && payload.count > 1
                ? payload.withUnsafeBytes { LZ4.compress($0, into: room) } : nil
            if let compressed {
                header.flags |= LogFormat.flagCompressed
                header.storedLength = UInt32(compressed)
            } else {
                payload.withUnsafeBytes { body.copyMemory(from: $0) }
            }
            initialized = LogFormat.headerSize + Int(header.storedLength)
            let written = UnsafeMutableRawBufferPointer(rebasing: bytes[..<initialized])
            header.write(to: written)
            header.checksum = BatchHeader.seal(written)
        }
        return (header, frame)
    }
}
