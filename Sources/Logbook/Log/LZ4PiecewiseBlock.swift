import CLZ4

/// Compresses a contiguous source one piece at a time, as the pieces become ready, into one
/// ordinary LZ4 block: the same format as ``LZ4/compress(_:into:)`` writes, which any reader
/// decompresses in one call.
///
/// A batch's payload is encoded on the saving thread while another thread compresses it. Given
/// the payload whole, that thread could only start once the encoding had ended; given it in
/// pieces, it compresses each piece while the next is encoded.
///
/// liblz4's streaming compressor makes one block per piece, each able to refer to the 64 KiB of
/// source before it. Blocks cannot simply be put one after another: each ends with a sequence
/// of literals alone, which the block format allows only at the very end. Here each block's
/// final literals are held back and joined to the literals that open the next block, so the
/// sequences read on without a break. The literals of a block are copies of its source bytes,
/// and the final literals of one piece and the opening literals of the next are adjacent in the
/// source, so the joined sequence is written from the source.
///
/// The source must stay in place, unchanged, until ``finish()``: liblz4 reads back into the
/// earlier pieces, and the held-back literals are copied from there.
struct LZ4PiecewiseBlock: ~Copyable {
    private let stream: OpaquePointer
    private let source: UnsafeRawPointer
    /// The end of the source compressed so far.
    private(set) var compressedEnd = 0
    /// The block so far, without the literals held back.
    private(set) var output: [UInt8]
    /// The literals held back: the last `heldLiterals` bytes before `compressedEnd`.
    private var heldLiterals = 0
    /// Where a piece's block is made before it joins the output.
    private var scratch: [UInt8] = []
    private var failed = false

    /// Starts a block over the source at `source`, appending to `output`, which may already hold
    /// bytes of the caller's (a batch's header, for example).
    ///
    /// - Returns: `nil` if liblz4 cannot allocate its state.
    init?(source: UnsafeRawPointer, appendingTo output: consuming [UInt8]) {
        guard let stream = LZ4_createStream() else { return nil }
        self.stream = OpaquePointer(stream)
        self.source = source
        self.output = output
    }

    deinit {
        LZ4_freeStream(UnsafeMutablePointer(stream))
    }

    /// Compresses the source from the end of the last piece up to `end`.
    ///
    /// - Returns: `false` once the block cannot be made (a piece liblz4 failed on, or one it
    ///   compressed in a way this does not recognise); the caller then compresses the source
    ///   whole, or stores it as it is.
    @discardableResult
    mutating func compress(upTo end: Int) -> Bool {
        guard !failed else { return false }
        guard end > compressedEnd else { return true }
        let count = end - compressedEnd
        guard count <= Int(LZ4_MAX_INPUT_SIZE) else { return fail() }
        let bound = Int(LZ4_compressBound(Int32(count)))
        if scratch.count < bound { scratch = [UInt8](repeating: 0, count: bound) }
        let written = scratch.withUnsafeMutableBufferPointer { scratch in
            LZ4_compress_fast_continue(
                UnsafeMutablePointer(stream),
                (source + compressedEnd).assumingMemoryBound(to: CChar.self),
                UnsafeMutableRawPointer(scratch.baseAddress)?.assumingMemoryBound(to: CChar.self),
                Int32(count),
                Int32(bound),
                1
            )
        }
        guard written > 0 else { return fail() }
        let joined = scratch.withUnsafeBytes { join(UnsafeRawBufferPointer(rebasing: $0[..<Int(written)]), end: end) }
        return joined ? true : fail()
    }

    /// Ends the block with the literals held back.
    ///
    /// - Returns: the output: the bytes it was started with, then the block; `nil` if the block
    ///   could not be made.
    consuming func finish() -> [UInt8]? {
        guard !failed, compressedEnd > 0 else { return nil }
        writeSequenceHead(literals: heldLiterals, matchNibble: 0)
        appendSource(from: compressedEnd - heldLiterals, count: heldLiterals)
        return output
    }

    // MARK: - Joining

    /// Appends a piece's block, whose source ends at `end`, to the output.
    private mutating func join(_ block: UnsafeRawBufferPointer, end: Int) -> Bool {
        guard let shape = Self.shape(of: block) else { return false }
        let pieceStart = compressedEnd
        // The piece's last literals are its last bytes: checked, since they are written from the
        // source rather than from the block.
        let last = shape.lastLiterals
        guard last.count <= end - pieceStart,
            UnsafeRawBufferPointer(rebasing: block[last.start..<(last.start + last.count)])
                .elementsEqual(UnsafeRawBufferPointer(start: source + (end - last.count), count: last.count))
        else { return false }
        if shape.isLiteralsOnly {
            guard last.count == end - pieceStart else { return false }
            heldLiterals += last.count
        } else {
            // The held literals, then the piece's first literals, then the rest of its first
            // sequence and every later one but the last.
            let literals = heldLiterals + shape.firstLiteralCount
            writeSequenceHead(literals: literals, matchNibble: block[0] & 0x0F)
            appendSource(from: pieceStart - heldLiterals, count: literals)
            let middle = block[shape.afterFirstLiterals..<shape.lastStart]
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: middle))
            heldLiterals = last.count
        }
        compressedEnd = end
        return true
    }

    private mutating func writeSequenceHead(literals: Int, matchNibble: UInt8) {
        output.append(UInt8(min(literals, 15)) << 4 | matchNibble)
        guard literals >= 15 else { return }
        var rest = literals - 15
        while rest >= 255 {
            output.append(255)
            rest -= 255
        }
        output.append(UInt8(rest))
    }

    private mutating func appendSource(from start: Int, count: Int) {
        output.append(contentsOf: UnsafeRawBufferPointer(start: source + start, count: count))
    }

    private mutating func fail() -> Bool {
        failed = true
        return false
    }

    // MARK: - Reading a block's sequences

    /// Where a block's first sequence's literals end and its last sequence begins.
    struct Shape {
        /// The number of literals of the first sequence.
        var firstLiteralCount: Int
        /// The offset after the first sequence's literals.
        var afterFirstLiterals: Int
        /// The offset of the last sequence, which holds literals only.
        var lastStart: Int
        /// The last sequence's literals: their offset in the block and their number.
        var lastLiterals: (start: Int, count: Int)

        /// Whether the block is one sequence of literals.
        var isLiteralsOnly: Bool { lastStart == 0 }
    }

    /// Walks a block's sequences, without decompressing it.
    ///
    /// - Returns: `nil` when the block does not end with a sequence of literals alone, as a
    ///   block liblz4 made always does.
    static func shape(of block: UnsafeRawBufferPointer) -> Shape? {
        var position = 0
        var first: (count: Int, end: Int)?
        while position < block.count {
            let start = position
            let token = block[position]
            position += 1
            guard let literals = length(Int(token >> 4), in: block, at: &position) else { return nil }
            let literalsStart = position
            position += literals
            guard position <= block.count else { return nil }
            if first == nil { first = (literals, position) }
            if position == block.count {
                guard let first else { return nil }
                return Shape(
                    firstLiteralCount: first.count,
                    afterFirstLiterals: first.end,
                    lastStart: start,
                    lastLiterals: (literalsStart, literals)
                )
            }
            // The match's offset, then any more bytes of its length.
            position += 2
            guard position <= block.count, length(Int(token & 0x0F), in: block, at: &position) != nil else {
                return nil
            }
        }
        return nil
    }

    /// A length from its nibble and, when the nibble is 15, the bytes that follow it.
    private static func length(_ nibble: Int, in block: UnsafeRawBufferPointer, at position: inout Int) -> Int? {
        guard nibble == 15 else { return nibble }
        var length = nibble
        while true {
            guard position < block.count else { return nil }
            let byte = block[position]
            position += 1
            length += Int(byte)
            if byte != 255 { return length }
        }
    }
}
