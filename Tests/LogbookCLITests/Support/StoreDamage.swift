import Foundation

@testable import Logbook

/// A small deterministic random number generator (SplitMix64), so that every run of a damage
/// test does the same damage.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

/// Ways to damage a store directory, the kinds a disk, a crash or a careless copy can do.
enum StoreDamage: CaseIterable, CustomStringConvertible {
    case flipBytes
    case truncate
    case zeroRange
    case appendGarbage
    case deleteMiddleSegment
    case duplicateSegment
    /// Flips bytes inside batches and then recomputes every checksum, so that the damage gets
    /// past the checksum and reaches decompression and event decoding.
    case flipBytesBehindValidChecksums

    var description: String {
        switch self {
        case .flipBytes: "flip bytes"
        case .truncate: "truncate"
        case .zeroRange: "zero a range"
        case .appendGarbage: "append garbage"
        case .deleteMiddleSegment: "delete a middle segment"
        case .duplicateSegment: "duplicate a segment"
        case .flipBytesBehindValidChecksums: "flip bytes behind valid checksums"
        }
    }

    /// Damages the store in `directory` and says what was done.
    func apply(to directory: String, using random: inout SplitMix64) throws -> String {
        let segments = try SegmentDirectory.segments(in: directory, syscalls: PosixSyscalls())
        guard let chosen = segments.randomElement(using: &random) else { return "nothing: no segment" }
        let path = chosen.path
        let name = (path as NSString).lastPathComponent
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        switch self {
        case .flipBytes:
            guard !bytes.isEmpty else { return "nothing: \(name) is empty" }
            var offsets: [Int] = []
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let offset = Int.random(in: 0..<bytes.count, using: &random)
                bytes[offset] ^= UInt8.random(in: 1...255, using: &random)
                offsets.append(offset)
            }
            try write(bytes, to: path)
            return "flipped bytes of \(name) at \(offsets)"
        case .truncate:
            let length = Int.random(in: 0...max(0, bytes.count - 1), using: &random)
            try write(Array(bytes.prefix(length)), to: path)
            return "cut \(name) to \(length) of \(bytes.count) bytes"
        case .zeroRange:
            guard !bytes.isEmpty else { return "nothing: \(name) is empty" }
            let start = Int.random(in: 0..<bytes.count, using: &random)
            let end = min(bytes.count, start + Int.random(in: 1...64, using: &random))
            bytes.replaceSubrange(start..<end, with: repeatElement(0, count: end - start))
            try write(bytes, to: path)
            return "zeroed \(name) bytes \(start)..<\(end)"
        case .appendGarbage:
            let garbage = (0..<Int.random(in: 1...100, using: &random)).map { _ in
                UInt8.random(in: 0...255, using: &random)
            }
            // Sometimes the garbage starts like a batch, so that the reader looks further into it.
            let prefix = Bool.random(using: &random) ? Array("LGBK".utf8) : []
            try write(bytes + prefix + garbage, to: path)
            return "appended \(prefix.count + garbage.count) bytes to \(name)"
        case .deleteMiddleSegment:
            guard segments.count >= 3 else { return "nothing: fewer than three segments" }
            let middle = segments[Int.random(in: 1..<(segments.count - 1), using: &random)]
            try FileManager.default.removeItem(atPath: middle.path)
            return "deleted \((middle.path as NSString).lastPathComponent)"
        case .duplicateSegment:
            let last = segments[segments.count - 1].firstSequence
            let sequence = Bool.random(using: &random) ? last + 1_000 : chosen.firstSequence + 1
            guard !segments.contains(where: { $0.firstSequence == sequence }) else {
                return "nothing: \(sequence) is taken"
            }
            let copy = SegmentDirectory.join(directory, SegmentDirectory.fileName(forFirstSequence: sequence))
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            return "copied \(name) to \((copy as NSString).lastPathComponent)"
        case .flipBytesBehindValidChecksums:
            let frames = bytes.withUnsafeBytes { BatchHeader.frames(in: $0) }
            guard let frame = frames.randomElement(using: &random), frame.count > LogFormat.headerSize else {
                return "nothing: \(name) frames no batch"
            }
            // Leave the magic number alone, so that the batch is still found.
            let target = Int.random(in: (frame.lowerBound + 4)..<frame.upperBound, using: &random)
            bytes[target] ^= UInt8.random(in: 1...255, using: &random)
            bytes.withUnsafeMutableBytes { raw in
                for frame in frames { BatchHeader.seal(UnsafeMutableRawBufferPointer(rebasing: raw[frame])) }
            }
            try write(bytes, to: path)
            return "flipped byte \(target) of \(name) and fixed the checksums"
        }
    }

    private func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}
