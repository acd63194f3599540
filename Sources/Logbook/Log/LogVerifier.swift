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
    /// How many sound batches each format version wrote: a store written before format 2 goes
    /// on holding version 1 batches after newer ones are appended.
    package var batchesByVersion: [UInt16: Int] = [:]
    package var firstSequence: UInt64?
    package var lastSequence: UInt64?
    /// Damage that makes the store unsound, in the order it was found.
    package var damages: [LogDamage] = []
    /// A batch at the very end of the log that is incomplete: torn by a crash (the next open moves
    /// it into quarantine) or still being written by another process. It does not make the store
    /// unsound, but it is not a sound store either: see ``isWhole``.
    package var incompleteTail: LogDamage?
    /// The point the store's durable record holds, if it has one.
    package var durablePoint: DurablePoint?
    /// The tails earlier opens cut off and kept in the store's quarantine directory.
    package var quarantinedTails: [Quarantine.Tail] = []

    /// Whether every batch is intact and the sequence numbers run without a gap.
    package var isSound: Bool { damages.isEmpty }

    /// Whether every batch checks out and nothing incomplete follows them.
    package var isWhole: Bool { isSound && incompleteTail == nil }
}

/// Checks every batch of a store (framing, checksum, decompression, event framing and sequence
/// continuity) and collects every piece of damage instead of stopping at the first.
///
/// Batches are found and checksummed in file order; their payloads are decompressed and their
/// events checked on every core, a group of batches at a time, and the results taken in file
/// order again, so the report is the same as a single-threaded walk's. When a batch's payload
/// does not decode, the rest of its segment is walked one batch at a time from that batch.
package enum LogVerifier {
    /// The most batches, and stored bytes, decoded at once.
    static let groupBatches = 64
    static let groupBytes = 32 << 20

    /// Checks the store in `directory`.
    ///
    /// - Parameters:
    ///   - decompress: whether to decompress each payload and check its event framing (and, with
    ///     `checkEvent`, its events); `false` checks headers, checksums and sequence numbers only.
    ///   - checkEvent: checks one event's bytes and describes what is wrong, or returns `nil`;
    ///     the log layer treats events as opaque, so the layer above says what a sound event is.
    ///     It is called from several threads at once.
    ///   - eachBatch: called with every batch that decodes, in log order, on the calling thread;
    ///     with it, payloads are decoded one batch at a time rather than on every core.
    ///   - progress: called after each segment with the segment just checked and the bytes read so far.
    /// - Throws: only when the store cannot be read at all (a missing directory, a failed system
    ///   call); damage is reported in the result.
    package static func verify(
        directory: String,
        maximumBatchSize: Int = 64 << 20,
        syscalls: any Syscalls = PosixSyscalls(),
        decompress: Bool = true,
        checkEvent: (@Sendable (UnsafeRawBufferPointer) -> String?)? = nil,
        eachBatch: ((Batch) -> Void)? = nil,
        progress: (SegmentFile, Int64) -> Void = { _, _ in }
    ) throws(LogbookError) -> VerificationReport {
        var walk = Walk(decompress: decompress, checkEvent: checkEvent, eachBatch: eachBatch)
        // The record is read before the segments: a writer records only what it has written, so
        // a point read first is never past the log read after it.
        let segments: [SegmentFile]
        do throws(LogbookError) {
            walk.report.durablePoint = try DurableRecord.read(in: directory, syscalls: syscalls)
            segments = try SegmentDirectory.segments(in: directory, syscalls: syscalls)
        } catch  where error.code == .corruption {
            walk.report.damages.append(
                LogDamage(
                    segment: error.path ?? directory,
                    offset: 0,
                    byteCount: 0,
                    reason: .durablePoint(error.message)
                )
            )
            segments = try SegmentDirectory.segments(in: directory, syscalls: syscalls)
        }
        walk.durableCheck = walk.report.durablePoint.map { DurablePointCheck($0) }
        walk.report.quarantinedTails = Quarantine.tails(in: directory, syscalls: syscalls)
        walk.expected = segments.first?.firstSequence
        for (index, segment) in segments.enumerated() {
            let file = try SegmentDirectory.open(segment, writable: false, syscalls: syscalls)
            defer { file.close() }
            try walk.check(segment, file, isLast: index == segments.count - 1, maximumBatchSize: maximumBatchSize)
            progress(segment, walk.report.storedBytes)
        }
        if let check = walk.durableCheck, walk.report.isSound {
            let end = walk.report.incompleteTail
            if let error = check.problem(
                logEnd: walk.report.lastSequence,
                segment: end?.segment ?? segments.last?.path ?? directory,
                offset: end?.offset ?? 0
            ) {
                walk.report.damages.append(
                    LogDamage(
                        segment: error.path ?? directory,
                        offset: error.offset ?? 0,
                        byteCount: end?.byteCount ?? 0,
                        reason: .durablePoint(error.message)
                    )
                )
                walk.report.incompleteTail = nil
            }
        }
        return walk.report
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
