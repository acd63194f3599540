/// What a full check of a store found.
package struct VerificationReport: Sendable {
    package var segments = 0
    package var batches = 0
    package var events = 0
    /// Bytes of segment files read, headers included.
    package var storedBytes: Int64 = 0
    /// Bytes of event payload after decompression, as the batch headers declare them.
    package var payloadBytes: Int64 = 0
    package var compressedBatches = 0
    package var firstSequence: UInt64?
    package var lastSequence: UInt64?
    /// Damage that makes the store unsound, in the order it was found.
    package var damages: [LogDamage] = []
    /// A batch at the very end of the log that is incomplete: torn by a crash (the next open cuts
    /// it off) or still being written by another process. It does not make the store unsound.
    package var incompleteTail: LogDamage?

    /// Whether every batch is intact and the sequence numbers run without a gap.
    package var isSound: Bool { damages.isEmpty }
}

/// Checks every batch of a store (framing, checksum, decompression, event framing and sequence
/// continuity) and collects every piece of damage instead of stopping at the first.
package enum LogVerifier {
    /// Checks the store in `directory`.
    ///
    /// - Parameters:
    ///   - decompress: whether to decompress each payload and check its event framing (and, with
    ///     `checkEvent`, its events); `false` checks headers, checksums and sequence numbers only.
    ///   - checkEvent: checks one event's bytes and describes what is wrong, or returns `nil`;
    ///     the log layer treats events as opaque, so the layer above says what a sound event is.
    ///   - progress: called after each segment with the segment just checked and the bytes read so far.
    /// - Throws: only when the store cannot be read at all (a missing directory, a failed system
    ///   call); damage is reported in the result.
    package static func verify(
        directory: String,
        maximumBatchSize: Int = 64 << 20,
        syscalls: any Syscalls = PosixSyscalls(),
        decompress: Bool = true,
        checkEvent: ((UnsafeRawBufferPointer) -> String?)? = nil,
        progress: (SegmentFile, Int64) -> Void = { _, _ in }
    ) throws(LogbookError) -> VerificationReport {
        var report = VerificationReport()
        let segments = try SegmentDirectory.segments(in: directory, syscalls: syscalls)
        var expected = segments.first?.firstSequence
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            report.segments += 1
            if let expectedSequence = expected, segment.firstSequence != expectedSequence {
                report.damages.append(
                    LogDamage(
                        segment: segment.path,
                        offset: 0,
                        byteCount: 0,
                        reason: .sequenceGap(expected: expectedSequence, found: segment.firstSequence)
                    )
                )
            }
            expected = segment.firstSequence
            let file = try SystemFile.open(segment.path, flags: O_RDONLY, syscalls: syscalls)
            defer { file.close() }
            var scanner = try SegmentScanner(file: file, maximumBatchSize: maximumBatchSize)
            report.storedBytes += scanner.size
            if scanner.size == 0 && !isLast {
                report.damages.append(
                    LogDamage(segment: segment.path, offset: 0, byteCount: 0, reason: .emptySealedSegment)
                )
            }
            scan: while true {
                switch try scanner.next(decompress ? .decode : .checksum) {
                case .batch(let header, let offset, let batch):
                    if let expectedSequence = expected, header.firstSequence != expectedSequence {
                        report.damages.append(
                            LogDamage(
                                segment: segment.path,
                                offset: offset,
                                byteCount: Int64(header.frameSize),
                                reason: .sequenceGap(expected: expectedSequence, found: header.firstSequence)
                            )
                        )
                    }
                    expected = header.lastSequence &+ 1
                    report.batches += 1
                    report.events += Int(header.eventCount)
                    report.payloadBytes += Int64(header.uncompressedLength)
                    if let checkEvent, let batch {
                        // One pass over the payload's bytes, without a slice (and its reference
                        // count traffic) for every event.
                        batch.payload.withUnsafeBytes { payload in
                            for (index, range) in batch.eventRanges.enumerated() {
                                guard let problem = checkEvent(UnsafeRawBufferPointer(rebasing: payload[range])) else {
                                    continue
                                }
                                report.damages.append(
                                    LogDamage(
                                        segment: segment.path,
                                        offset: offset,
                                        byteCount: Int64(header.frameSize),
                                        reason: .undecodableEvent(
                                            sequence: header.firstSequence + UInt64(index),
                                            detail: problem
                                        )
                                    )
                                )
                            }
                        }
                    }
                    if header.isCompressed { report.compressedBatches += 1 }
                    if header.eventCount > 0 {
                        if report.firstSequence == nil { report.firstSequence = header.firstSequence }
                        report.lastSequence = header.lastSequence
                    }
                case .end:
                    break scan
                case .damaged(var damage):
                    var probe = scanner
                    let next = try probe.nextSoundBatch(after: damage.offset)
                    if next == nil && isLast && damage.reason.couldBeTornWrite {
                        report.incompleteTail = damage
                        break scan
                    }
                    guard let next else {
                        report.damages.append(damage)
                        break scan
                    }
                    damage.byteCount = next - damage.offset
                    report.damages.append(damage)
                    // Carry on from the next sound batch, so that one report lists all the damage.
                    scanner.seek(to: next)
                    expected = nil
                }
            }
            progress(segment, report.storedBytes)
        }
        return report
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
