import CLZ4

/// Compresses a contiguous source one piece at a time, as the pieces become ready, into LZ4
/// pieces (``LogFormat/flagPieces``): each piece's block after its length, each block able to
/// refer to the 64 KiB of source before it, which ``LZ4/decompress(pieces:into:)`` reads.
///
/// A batch's payload is encoded on the saving thread while another thread compresses it. Given
/// the payload whole, that thread could only start once the encoding had ended; given it in
/// pieces, it compresses each piece while the next is encoded.
///
/// The source must stay in place, unchanged, until ``finish()``: liblz4 reads back into the
/// earlier pieces.
struct LZ4Pieces: ~Copyable {
    private let stream: OpaquePointer
    private let source: UnsafeRawPointer
    /// The end of the source compressed so far.
    private(set) var compressedEnd = 0
    /// The bytes given at the start, then the pieces so far.
    private var output: [UInt8]
    private var failed = false

    /// Starts pieces over the source at `source`, appending to `output`, which may already hold
    /// bytes of the caller's (room for a batch's header, for example).
    ///
    /// - Returns: `nil` if liblz4 cannot allocate its state.
    init?(source: UnsafeRawPointer, appendingTo output: consuming [UInt8]) {
        guard let stream = LZ4_createStream() else { return nil }
        self.stream = OpaquePointer(stream)
        self.source = source
        self.output = output
    }

    /// Starts pieces over the source at `source` after room for a batch's header, so that
    /// ``BatchWriter`` frames the batch in the same buffer.
    init?(framing source: UnsafeRawPointer) {
        self.init(source: source, appendingTo: [UInt8](repeating: 0, count: LogFormat.headerSize))
    }

    deinit {
        LZ4_freeStream(UnsafeMutablePointer(stream))
    }

    /// Compresses the source from the end of the last piece up to `end` as one more piece.
    ///
    /// - Returns: `false` once a piece could not be compressed; the caller then compresses the
    ///   source whole, or stores it as it is.
    @discardableResult
    mutating func compress(upTo end: Int) -> Bool {
        guard !failed else { return false }
        guard end > compressedEnd else { return true }
        let count = end - compressedEnd
        guard count <= Int(LZ4_MAX_INPUT_SIZE) else { return fail() }
        let bound = Int(LZ4_compressBound(Int32(count)))
        let start = output.count
        // Compressed straight into the output, after room for its length.
        output.append(contentsOf: repeatElement(0, count: LogFormat.pieceLengthSize + bound))
        let written = output.withUnsafeMutableBytes { output in
            let piece = output.baseAddress.map { $0 + start + LogFormat.pieceLengthSize }
            return LZ4_compress_fast_continue(
                UnsafeMutablePointer(stream),
                (source + compressedEnd).assumingMemoryBound(to: CChar.self),
                piece?.assumingMemoryBound(to: CChar.self),
                Int32(count),
                Int32(bound),
                1
            )
        }
        guard written > 0 else { return fail() }
        output.withUnsafeMutableBytes {
            $0.storeBytes(of: UInt32(written).littleEndian, toByteOffset: start, as: UInt32.self)
        }
        output.removeLast(bound - Int(written))
        compressedEnd = end
        return true
    }

    /// Ends the pieces.
    ///
    /// - Returns: the output: the bytes it was started with, then the pieces; `nil` if a piece
    ///   could not be compressed, or nothing was.
    consuming func finish() -> [UInt8]? {
        guard !failed, compressedEnd > 0 else { return nil }
        return output
    }

    private mutating func fail() -> Bool {
        failed = true
        return false
    }
}
