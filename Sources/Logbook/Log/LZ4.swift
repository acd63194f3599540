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
        let produced = LZ4_decompress_safe(
            source.baseAddress?.assumingMemoryBound(to: CChar.self),
            destination.baseAddress?.assumingMemoryBound(to: CChar.self),
            Int32(source.count),
            Int32(destination.count)
        )
        return Int(produced) == destination.count
    }
}
