import Foundation
import Testing

@testable import Logbook

/// Verification decodes payloads on every core, a group of batches at a time; its report must be
/// exactly that of a walk that decodes one batch at a time, in order, whatever the damage.
struct ParallelVerificationTests {
    /// An event that can be checked on its own: sample bytes, then their sum.
    static func event(_ n: UInt64) -> [UInt8] {
        var bytes = sampleEvent(n)
        bytes.append(bytes.reduce(0, &+))
        return bytes
    }

    static let checkEvent: @Sendable (UnsafeRawBufferPointer) -> String? = { bytes in
        guard let sum = bytes.last else { return "empty event" }
        return bytes.dropLast().reduce(0, &+) == sum ? nil : "bad sum"
    }

    /// 300 batches of 1 to 40 events, in segments of 64 KiB: several groups per segment, and
    /// payloads that compress (the sample bytes repeat) and payloads that do not (one event).
    private func makeStore(_ directory: String) throws {
        let log = try EventLog(directory: directory, configuration: testConfiguration(segmentSize: 64 << 10))
        var next: UInt64 = 1
        for batch in 0..<300 {
            let events = (0..<(batch % 40 + 1)).map { offset in Self.event(next + UInt64(offset)) }
            next += UInt64(events.count)
            _ = try log.append(events)
        }
        log.close()
    }

    /// Flips one byte of a batch's payload and, when `fixChecksum`, seals the batch again with
    /// the checksum of the damaged bytes, so that decompression or event framing is what finds
    /// the damage.
    private func damage(_ path: String, frame: Range<Int>, at position: Int, fixChecksum: Bool) throws {
        var bytes = try ByteSurgery.bytes(of: path)
        bytes[position] ^= 0x5A
        if fixChecksum {
            _ = bytes.withUnsafeMutableBytes { BatchHeader.seal(UnsafeMutableRawBufferPointer(rebasing: $0[frame])) }
        }
        try ByteSurgery.write(bytes, to: path)
    }

    private func expectSameReports(_ directory: String, _ label: String) throws {
        let parallel = try LogVerifier.verify(directory: directory, checkEvent: Self.checkEvent)
        let oneAtATime = try LogVerifier.verify(directory: directory, checkEvent: Self.checkEvent, eachBatch: { _ in })
        #expect(parallel.damages == oneAtATime.damages, "\(label)")
        #expect(parallel.incompleteTail == oneAtATime.incompleteTail, "\(label)")
        #expect(parallel.batches == oneAtATime.batches, "\(label)")
        #expect(parallel.events == oneAtATime.events, "\(label)")
        #expect(parallel.payloadBytes == oneAtATime.payloadBytes, "\(label)")
        #expect(parallel.compressedBatches == oneAtATime.compressedBatches, "\(label)")
        #expect(parallel.firstSequence == oneAtATime.firstSequence, "\(label)")
        #expect(parallel.lastSequence == oneAtATime.lastSequence, "\(label)")
    }

    @Test func aSoundStoreGivesTheSameReportBothWays() throws {
        let directory = TemporaryDirectory()
        try makeStore(directory.path)
        try expectSameReports(directory.path, "sound")
        let report = try LogVerifier.verify(directory: directory.path, checkEvent: Self.checkEvent)
        #expect(report.isSound)
        #expect(report.batches == 300)
        #expect(report.events == (0..<300).reduce(0) { $0 + $1 % 40 + 1 })
        #expect(report.segments > 3)
    }

    @Test func damagedStoresGiveTheSameReportBothWays() throws {
        var unsound = 0
        for seed in UInt64(1)...16 {
            let directory = TemporaryDirectory()
            try makeStore(directory.path)
            let segments = try segmentPaths(directory.path)
            var state = seed &* 0x9E37_79B9_7F4A_7C15
            func random(_ bound: Int) -> Int {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Int((state >> 33) % UInt64(bound))
            }
            var done: [String] = []
            for _ in 0..<(1 + random(3)) {
                let path = segments[random(segments.count)]
                let frames = try ByteSurgery.bytes(of: path).withUnsafeBytes { BatchHeader.frames(in: $0) }
                let frame = frames[random(frames.count)]
                let position = frame.lowerBound + LogFormat.headerSize + random(frame.count - LogFormat.headerSize)
                let fixChecksum = random(4) != 0
                try damage(path, frame: frame, at: position, fixChecksum: fixChecksum)
                done.append(
                    "\((path as NSString).lastPathComponent)@\(position)\(fixChecksum ? " (checksum fixed)" : "")"
                )
            }
            let label = "seed \(seed): " + done.joined(separator: ", ")
            try expectSameReports(directory.path, label)
            if !(try LogVerifier.verify(directory: directory.path, checkEvent: Self.checkEvent)).isSound {
                unsound += 1
            }
        }
        // A flipped byte inside compressed data can, rarely, decompress to the same bytes; the
        // damage is found in nearly every store.
        #expect(unsound >= 12, "\(unsound) of 16 damaged stores were found unsound")
    }
}
