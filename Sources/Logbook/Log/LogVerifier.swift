import Dispatch

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
        let segments = try SegmentDirectory.segments(in: directory, syscalls: syscalls)
        walk.expected = segments.first?.firstSequence
        for (index, segment) in segments.enumerated() {
            let file = try SystemFile.open(segment.path, flags: O_RDONLY, syscalls: syscalls)
            defer { file.close() }
            try walk.check(segment, file, isLast: index == segments.count - 1, maximumBatchSize: maximumBatchSize)
            progress(segment, walk.report.storedBytes)
        }
        return walk.report
    }

    /// A batch found sound by its checksum, whose payload is still to be decoded.
    private struct Pending: Sendable {
        var header: BatchHeader
        var offset: Int64
        var stored: [UInt8]
    }

    /// What decoding a pending batch found: why it does not decode, or the problems of its events.
    private enum Decoded: Sendable {
        case failed
        case decoded(problems: [(index: Int, detail: String)])
    }

    private struct Walk {
        let decompress: Bool
        let checkEvent: (@Sendable (UnsafeRawBufferPointer) -> String?)?
        let eachBatch: ((Batch) -> Void)?
        var report = VerificationReport()
        var expected: UInt64?
        private var pending: [Pending] = []
        private var pendingBytes = 0

        init(
            decompress: Bool,
            checkEvent: (@Sendable (UnsafeRawBufferPointer) -> String?)?,
            eachBatch: ((Batch) -> Void)?
        ) {
            self.decompress = decompress
            self.checkEvent = checkEvent
            self.eachBatch = eachBatch
        }

        mutating func check(
            _ segment: SegmentFile,
            _ file: SystemFile,
            isLast: Bool,
            maximumBatchSize: Int
        ) throws(LogbookError) {
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
            var scanner = try SegmentScanner(file: file, maximumBatchSize: maximumBatchSize)
            report.storedBytes += scanner.size
            if scanner.size == 0 && !isLast {
                report.damages.append(
                    LogDamage(segment: segment.path, offset: 0, byteCount: 0, reason: .emptySealedSegment)
                )
            }
            // One batch at a time from a batch whose payload did not decode; in groups otherwise.
            var oneAtATime = !decompress || eachBatch != nil
            scan: while true {
                let step = try scanner.next(decompress && oneAtATime ? .decode : .checksum)
                if !oneAtATime {
                    if case .batch(let header, let offset, _) = step {
                        pending.append(
                            Pending(
                                header: header,
                                offset: offset,
                                stored: try scanner.storedPayload(of: header, at: offset)
                            )
                        )
                        pendingBytes += Int(header.storedLength)
                        guard pending.count >= LogVerifier.groupBatches || pendingBytes >= LogVerifier.groupBytes else {
                            continue
                        }
                    }
                    if let failed = decodePending(segment: segment.path) {
                        scanner.seek(to: failed)
                        oneAtATime = true
                        continue
                    }
                    if case .batch = step { continue }
                }
                switch step {
                case .batch(let header, let offset, let batch):
                    var problems: [(index: Int, detail: String)] = []
                    if let checkEvent, let batch {
                        problems = Self.problems(of: batch, checkEvent)
                    }
                    account(header, offset: offset, segment: segment.path, problems: problems)
                    if let eachBatch, let batch { eachBatch(batch) }
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
        }

        /// Decodes the pending batches on every core and accounts for them in order, up to the
        /// first one that does not decode.
        ///
        /// - Returns: the offset of the first batch that does not decode, which is left to the
        ///   one-at-a-time walk, with every batch after it.
        private mutating func decodePending(segment: String) -> Int64? {
            defer {
                pending.removeAll(keepingCapacity: true)
                pendingBytes = 0
            }
            guard !pending.isEmpty else { return nil }
            let results = Self.decode(pending, segment: segment, checkEvent: checkEvent)
            for (batch, result) in zip(pending, results) {
                guard case .decoded(let problems) = result else { return batch.offset }
                account(batch.header, offset: batch.offset, segment: segment, problems: problems)
            }
            return nil
        }

        private static func decode(
            _ pending: [Pending],
            segment: String,
            checkEvent: (@Sendable (UnsafeRawBufferPointer) -> String?)?
        ) -> [Decoded] {
            let results = Slots(base: .allocate(capacity: pending.count))
            defer { results.base.deallocate() }
            results.base.initialize(repeating: .failed)
            DispatchQueue.concurrentPerform(iterations: pending.count) { index in
                let batch = pending[index]
                let decoded = batch.stored.withUnsafeBytes { stored in
                    SegmentScanner.decode(stored: stored, header: batch.header, segment: segment, offset: batch.offset)
                }
                guard case .success(let events) = decoded else { return }
                results.base[index] = .decoded(problems: checkEvent.map { problems(of: events, $0) } ?? [])
            }
            return Array(results.base)
        }

        /// One result per pending batch. Each iteration of the concurrent loop writes only its own
        /// slot, and the slots are read once the loop has returned.
        private struct Slots: @unchecked Sendable {
            let base: UnsafeMutableBufferPointer<Decoded>
        }

        /// The events of a batch that `checkEvent` finds wrong.
        private static func problems(
            of batch: Batch,
            _ checkEvent: (UnsafeRawBufferPointer) -> String?
        ) -> [(index: Int, detail: String)] {
            // One pass over the payload's bytes, without a slice (and its reference count
            // traffic) for every event.
            batch.payload.withUnsafeBytes { payload in
                var problems: [(index: Int, detail: String)] = []
                for (index, range) in batch.eventRanges.enumerated() {
                    if let problem = checkEvent(UnsafeRawBufferPointer(rebasing: payload[range])) {
                        problems.append((index, problem))
                    }
                }
                return problems
            }
        }

        /// Counts a sound batch, checks that its sequence numbers follow, and records the
        /// events that do not decode.
        private mutating func account(
            _ header: BatchHeader,
            offset: Int64,
            segment: String,
            problems: [(index: Int, detail: String)]
        ) {
            if let expectedSequence = expected, header.firstSequence != expectedSequence {
                report.damages.append(
                    LogDamage(
                        segment: segment,
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
            for problem in problems {
                report.damages.append(
                    LogDamage(
                        segment: segment,
                        offset: offset,
                        byteCount: Int64(header.frameSize),
                        reason: .undecodableEvent(
                            sequence: header.firstSequence + UInt64(problem.index),
                            detail: problem.detail
                        )
                    )
                )
            }
            if header.isCompressed { report.compressedBatches += 1 }
            if header.eventCount > 0 {
                if report.firstSequence == nil { report.firstSequence = header.firstSequence }
                report.lastSequence = header.lastSequence
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
