import CLZ4

/// LZ4 block compression through the bounds-checked calls of liblz4.
package enum LZ4 {
    /// Compresses `source` with the block format.
    ///
    /// - Returns: the compressed bytes, or `nil` when they would not be smaller than `source`
    ///   (the caller then stores the bytes as they are).
    package static func compress(_ source: UnsafeRawBufferPointer) -> [UInt8]? {
        guard source.count > 1 else { return nil }
        // Not zero-filled first: only the bytes the compressor writes are kept.
        var written: Int?
        let output = [UInt8](unsafeUninitializedCapacity: source.count - 1) { destination, initialized in
            written = compress(source, into: UnsafeMutableRawBufferPointer(destination))
            initialized = written ?? 0
        }
        return written == nil ? nil : output
    }

    /// Compresses `source` with the block format into `destination`, only if the result fits:
    /// with a destination one byte shorter than `source`, only if compressing makes it smaller.
    ///
    /// - Returns: the number of bytes written at the start of `destination`, or `nil` when the
    ///   compressed block would not fit.
    package static func compress(
        _ source: UnsafeRawBufferPointer,
        into destination: UnsafeMutableRawBufferPointer
    ) -> Int? {
        guard source.count > 0, source.count <= Int(LZ4_MAX_INPUT_SIZE), destination.count > 0 else { return nil }
        let written = LZ4_compress_default(
            source.baseAddress?.assumingMemoryBound(to: CChar.self),
            destination.baseAddress?.assumingMemoryBound(to: CChar.self),
            Int32(source.count),
            Int32(min(destination.count, Int(Int32.max)))
        )
        return written > 0 ? Int(written) : nil
    }

    /// Decompresses `source` into `destination`, which must be exactly the declared size.
    ///
    /// - Returns: `true` when `source` is a valid block that decompresses to exactly
    ///   `destination.count` bytes; `false` on any malformed input or size mismatch.
    package static func decompress(
        _ source: UnsafeRawBufferPointer,
        into destination: UnsafeMutableRawBufferPointer
    ) -> Bool {
        guard source.count <= Int(Int32.max), destination.count <= Int(Int32.max) else { return false }
        if destination.count == 0 { return source.count == 0 }
        guard let input = source.baseAddress, let output = destination.baseAddress else { return false }
        return block(input, count: source.count, into: output, capacity: destination.count, after: 0)
            == destination.count
    }

    /// Decompresses LZ4 pieces (``LogFormat/flagPieces``) into `destination`, which must be
    /// exactly the declared size: each piece's length, then the piece, which may refer to the
    /// 64 KiB decompressed before it.
    ///
    /// - Returns: `true` when the pieces account for every byte of `source` and decompress to
    ///   exactly `destination.count` bytes; `false` on any malformed input or size mismatch.
    package static func decompress(
        pieces source: UnsafeRawBufferPointer,
        into destination: UnsafeMutableRawBufferPointer
    ) -> Bool {
        guard source.count <= Int(Int32.max), destination.count <= Int(Int32.max) else { return false }
        if destination.count == 0 { return source.count == 0 }
        guard let input = source.baseAddress, let output = destination.baseAddress else { return false }
        let window = 64 << 10
        var read = 0
        var produced = 0
        while read < source.count {
            guard source.count - read >= LogFormat.pieceLengthSize else { return false }
            let length = Int(UInt32(littleEndian: source.loadUnaligned(fromByteOffset: read, as: UInt32.self)))
            read += LogFormat.pieceLengthSize
            // Every piece decompresses to at least one byte, so the pieces are bounded by the source.
            guard length > 0, length <= source.count - read else { return false }
            let decoded = block(
                input + read,
                count: length,
                into: output + produced,
                capacity: destination.count - produced,
                after: min(produced, window)
            )
            guard decoded > 0 else { return false }
            read += length
            produced += decoded
        }
        return produced == destination.count
    }

    /// Decompresses one block of `count` bytes into `capacity` bytes at `output`, with the
    /// `dictionary` bytes just before `output` (decompressed before it) as its dictionary.
    ///
    /// - Returns: the number of bytes produced, or a negative number for a malformed block.
    private static func block(
        _ input: UnsafeRawPointer,
        count: Int,
        into output: UnsafeMutableRawPointer,
        capacity: Int,
        after dictionary: Int
    ) -> Int {
        // liblz4 decompresses with an empty dictionary as `LZ4_decompress_safe` does.
        Int(
            LZ4_decompress_safe_usingDict(
                input.assumingMemoryBound(to: CChar.self),
                output.assumingMemoryBound(to: CChar.self),
                Int32(count),
                Int32(capacity),
                (output - dictionary).assumingMemoryBound(to: CChar.self),
                Int32(dictionary)
            )
        )
    }
}
