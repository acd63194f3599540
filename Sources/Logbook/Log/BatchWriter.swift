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
    package static func frame(
        payload batch: BatchPayload,
        firstSequence: UInt64,
        compress: Bool,
        maximumBatchSize: Int
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
        let compressed = compress ? payload.withUnsafeBytes { LZ4.compress($0) } : nil
        let stored = compressed ?? payload
        var header = BatchHeader(
            version: LogFormat.version,
            flags: compressed == nil ? 0 : LogFormat.flagCompressed,
            firstSequence: firstSequence,
            eventCount: UInt32(eventCount),
            uncompressedLength: UInt32(payload.count),
            storedLength: UInt32(stored.count),
            checksum: 0
        )
        var frame = [UInt8](repeating: 0, count: LogFormat.headerSize + stored.count)
        frame.withUnsafeMutableBytes { bytes in
            header.write(to: bytes)
            let body = UnsafeMutableRawBufferPointer(rebasing: bytes[LogFormat.headerSize...])
            stored.withUnsafeBytes { body.copyMemory(from: $0) }
            header.checksum = BatchHeader.seal(bytes)
        }
        return (header, frame)
    }
}
