internal import CLZ4Bench
import Foundation
import SampleTripsData

/// The LZ4 decompression speed of one payload on this machine.
public struct LZ4Figure: Codable, Hashable, Sendable {
    /// What was decompressed, for the report.
    public var source: String
    /// LZ4 blocks decompressed per pass.
    public var blocks: Int
    /// Bytes out of one pass.
    public var uncompressedBytes: Int
    /// Bytes into one pass.
    public var compressedBytes: Int
    /// The fastest pass, in seconds.
    public var seconds: Double

    /// Decimal megabytes of decompressed output per second.
    public var megabytesPerSecond: Double {
        seconds > 0 ? Double(uncompressedBytes) / 1_000_000 / seconds : 0
    }

    /// Uncompressed over compressed size.
    public var ratio: Double {
        compressedBytes > 0 ? Double(uncompressedBytes) / Double(compressedBytes) : 0
    }
}

/// Measures `LZ4_decompress_safe`, the bounds-checked decompressor a store reader uses, and
/// `LZ4_decompress_safe_usingDict` for the batches a store keeps in LZ4 pieces.
public enum LZ4Reference {
    /// Compresses the generated data set in blocks of `tripsPerBlock` trips (one save each) with
    /// `LZ4_compress_default`, then times decompressing all blocks.
    public static func generatedPayload(
        _ dataSet: SampleTripsDataSet,
        tripsPerBlock: Int,
        minimumSeconds: Double = 1
    ) throws -> LZ4Figure {
        precondition(tripsPerBlock > 0, "a block holds at least one trip")
        let trips = dataSet.trips()
        var blocks: [Block] = []
        var start = 0
        while start < trips.count {
            let end = min(start + tripsPerBlock, trips.count)
            let payload = TripPayload.encode(trips[start..<end], firstObject: start * 7)
            blocks.append(try Block(compressing: payload))
            start = end
        }
        return try measure(
            blocks,
            source:
                "generated payload, \(blocks.count) block\(blocks.count == 1 ? "" : "s") of up to \(tripsPerBlock) trips",
            minimumSeconds: minimumSeconds
        )
    }

    /// Times decompressing the LZ4 batches of a Logbook store's segment files, read directly
    /// (see ``SegmentReader``).
    ///
    /// - Returns: `nil` when the directory has no compressed batch.
    public static func storePayload(_ store: URL, minimumSeconds: Double = 1) throws -> LZ4Figure? {
        var blocks: [Block] = []
        for segment in SegmentReader.segmentFiles(in: store) {
            let bytes = try FileBytes.read(path: segment.path)
            for batch in SegmentReader.batches(in: bytes) where batch.isCompressed {
                blocks.append(
                    Block(
                        compressed: Array(bytes[batch.payload]),
                        uncompressedLength: batch.uncompressedLength,
                        inPieces: batch.isInPieces
                    )
                )
            }
        }
        guard !blocks.isEmpty else { return nil }
        let inPieces = blocks.filter(\.inPieces).count
        let source =
            "segments of \(store.path)"
            + (inPieces == 0
                ? "" : ", \(inPieces) of \(blocks.count) batches in pieces (LZ4_decompress_safe_usingDict)")
        return try measure(blocks, source: source, minimumSeconds: minimumSeconds)
    }

    // MARK: - Internals

    struct Block {
        var compressed: [UInt8]
        var uncompressedLength: Int
        /// Whether `compressed` is LZ4 pieces, each block after its `u32` length, each able to
        /// refer to what the blocks before it decompressed to.
        var inPieces = false

        init(compressed: [UInt8], uncompressedLength: Int, inPieces: Bool = false) {
            self.compressed = compressed
            self.uncompressedLength = uncompressedLength
            self.inPieces = inPieces
        }

        /// Decompresses the block into `destination`, as Logbook's reader does.
        ///
        /// - Returns: the number of bytes produced, or -1 when the bytes are not valid.
        func decompress(into destination: UnsafeMutableRawBufferPointer) -> Int {
            compressed.withUnsafeBytes { source in
                guard let input = source.baseAddress, let output = destination.baseAddress else { return -1 }
                guard inPieces else {
                    return Int(
                        LZ4_decompress_safe(
                            input.assumingMemoryBound(to: CChar.self),
                            output.assumingMemoryBound(to: CChar.self),
                            Int32(source.count),
                            Int32(uncompressedLength)
                        )
                    )
                }
                var read = 0
                var produced = 0
                while read + 4 <= source.count {
                    let length = Int(UInt32(littleEndian: source.loadUnaligned(fromByteOffset: read, as: UInt32.self)))
                    read += 4
                    guard length > 0, length <= source.count - read else { return -1 }
                    let dictionary = min(produced, 64 << 10)
                    let decoded = LZ4_decompress_safe_usingDict(
                        (input + read).assumingMemoryBound(to: CChar.self),
                        (output + produced).assumingMemoryBound(to: CChar.self),
                        Int32(length),
                        Int32(uncompressedLength - produced),
                        (output + (produced - dictionary)).assumingMemoryBound(to: CChar.self),
                        Int32(dictionary)
                    )
                    guard decoded > 0 else { return -1 }
                    read += length
                    produced += Int(decoded)
                }
                return read == source.count ? produced : -1
            }
        }

        init(compressing payload: [UInt8]) throws {
            guard payload.count <= Int(LZ4_MAX_INPUT_SIZE) else {
                throw HarnessError("an LZ4 block cannot hold \(payload.count) bytes")
            }
            var output = [UInt8](repeating: 0, count: Int(LZ4_compressBound(Int32(payload.count))))
            let written = payload.withUnsafeBytes { source in
                output.withUnsafeMutableBytes { destination in
                    LZ4_compress_default(
                        source.baseAddress?.assumingMemoryBound(to: CChar.self),
                        destination.baseAddress?.assumingMemoryBound(to: CChar.self),
                        Int32(source.count),
                        Int32(destination.count)
                    )
                }
            }
            guard written > 0 else { throw HarnessError("LZ4_compress_default failed") }
            output.removeSubrange(Int(written)...)
            compressed = output
            uncompressedLength = payload.count
        }
    }

    static func measure(_ blocks: [Block], source: String, minimumSeconds: Double) throws -> LZ4Figure {
        let capacity = blocks.map(\.uncompressedLength).max() ?? 0
        var output = [UInt8](repeating: 0, count: max(capacity, 1))
        var best = Double.infinity
        var total = 0.0
        var passes = 0
        while passes < 3 || (total < minimumSeconds && passes < 10_000) {
            let (seconds, failure) = Stopwatch.measure { () -> Int? in
                output.withUnsafeMutableBytes { destination in
                    for (index, block) in blocks.enumerated()
                    where block.decompress(into: destination) != block.uncompressedLength {
                        return index
                    }
                    return nil
                }
            }
            if let failure {
                throw HarnessError("liblz4 rejected block \(failure) of \(source)")
            }
            best = min(best, seconds)
            total += seconds
            passes += 1
        }
        return LZ4Figure(
            source: source,
            blocks: blocks.count,
            uncompressedBytes: blocks.reduce(0) { $0 + $1.uncompressedLength },
            compressedBytes: blocks.reduce(0) { $0 + $1.compressed.count },
            seconds: best
        )
    }
}
