#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What opening a log found and did.
package struct RecoveryOutcome: Sendable {
    /// The last segment, which appends continue; `nil` for an empty store.
    package var lastSegment: SegmentFile?
    /// The size of the last segment after recovery.
    package var endOffset: Int64
    /// The sequence number the next event receives.
    package var nextSequence: UInt64
    /// The damage cut off the end of the log, if there was any.
    package var cutTail: LogDamage?
    /// What the open moved into quarantine, for the app.
    package var report = RecoveryReport()
    /// The last sound batch of the last segment, when it has one.
    package var lastBatch: DurablePoint?
    /// The durable point the store's record holds after the open, if any.
    package var durablePoint: DurablePoint?
}

/// The open-time policy over ``SegmentScanner``.
///
/// A batch at the very end of the last segment that fails, with nothing sound after it, is
/// judged by ``SegmentScanner/assessTail(_:)``: a torn write is copied into the store's
/// quarantine directory (``Quarantine``), synced, and only then cut off; damage stops the open
/// unless ``LogConfiguration/damagedTailPolicy`` says to quarantine it too. A log that ends
/// before the store's durable point (``DurableRecord``), or whose batch there differs, stops
/// the open. Any other damage stops the open. Nothing is truncated when the open throws.
enum Recovery {
    static func recover(
        directory: String,
        configuration: LogConfiguration
    ) throws(LogbookError) -> RecoveryOutcome {
        let syscalls = configuration.syscalls
        let segments = try SegmentDirectory.segments(in: directory, syscalls: syscalls)
        let recorded = try DurableRecord.read(in: directory, syscalls: syscalls)
        var check = recorded.map { DurablePointCheck($0) }
        guard let last = segments.last else {
            if let error = check?.problem(logEnd: nil, segment: directory, offset: 0) { throw error }
            return RecoveryOutcome(lastSegment: nil, endOffset: 0, nextSequence: LogFormat.firstSequence)
        }
        var expected = segments[0].firstSequence
        var outcome = RecoveryOutcome(lastSegment: last, endOffset: 0, nextSequence: expected)
        outcome.durablePoint = recorded
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            guard isLast || configuration.verification == .full else {
                expected = segments[index + 1].firstSequence
                continue
            }
            if segment.firstSequence != expected {
                throw LogDamage(
                    segment: segment.path,
                    offset: 0,
                    byteCount: 0,
                    reason: .sequenceGap(expected: expected, found: segment.firstSequence)
                ).error
            }
            let file = try SegmentDirectory.open(segment, writable: isLast, syscalls: syscalls)
            defer { file.close() }
            var scanner = try SegmentScanner(file: file, maximumBatchSize: configuration.maximumBatchSize)
            if isLast, configuration.verification == .lastSegment, let point = recorded,
                let resumed = try resume(&scanner, at: point, in: segment)
            {
                expected = resumed
            }
            scan: while true {
                switch try scanner.next(.checksum) {
                case .batch(let header, let offset, _):
                    guard header.firstSequence == expected else {
                        throw LogDamage(
                            segment: segment.path,
                            offset: offset,
                            byteCount: Int64(header.frameSize),
                            reason: .sequenceGap(expected: expected, found: header.firstSequence)
                        ).error
                    }
                    check?.note(header, segment: segment.path, offset: offset)
                    if isLast && header.eventCount > 0 {
                        outcome.lastBatch = DurablePoint(
                            sequence: header.lastSequence,
                            checksum: header.checksum,
                            location: DurablePoint.Location(
                                segmentFirstSequence: segment.firstSequence,
                                offset: offset
                            ),
                            source: "the log"
                        )
                    }
                    expected = header.lastSequence &+ 1
                case .end:
                    if !isLast && scanner.size == 0 {
                        throw LogDamage(segment: segment.path, offset: 0, byteCount: 0, reason: .emptySealedSegment)
                            .error
                    }
                    break scan
                case .damaged(let damage):
                    guard isLast, damage.reason.couldBeTornWrite, try !scanner.soundBatchFollows(after: damage.offset)
                    else { throw damage.error }
                    let assessment = try scanner.assessTail(damage)
                    let logEnd = expected > LogFormat.firstSequence ? expected - 1 : nil
                    if let check, check.precedesWalk(logEnd: logEnd) {
                        try check.checkInPlace(
                            segments: segments,
                            maximumBatchSize: configuration.maximumBatchSize,
                            syscalls: syscalls
                        )
                    }
                    let durableProblem = check?.problem(logEnd: logEnd, segment: segment.path, offset: damage.offset)
                    if case .mismatch? = check?.found, let durableProblem { throw durableProblem }
                    let tail = Tail(
                        damage: damage,
                        assessment: assessment,
                        firstSequence: expected,
                        durablePoint: durableProblem == nil ? nil : recorded
                    )
                    if !tail.isTorn && configuration.damagedTailPolicy == .refuse { throw tail.refusal }
                    outcome.report.quarantinedTail = try quarantine(
                        tail,
                        of: file,
                        size: scanner.size,
                        directory: directory,
                        configuration: configuration
                    )
                    if durableProblem != nil {
                        try DurableRecord.remove(in: directory, syscalls: syscalls)
                        outcome.durablePoint = nil
                        check = nil
                    }
                    outcome.cutTail = damage
                    scanner.seek(to: damage.offset)
                    break scan
                }
            }
            if isLast { outcome.endOffset = scanner.offset }
        }
        outcome.nextSequence = expected
        if let check {
            let logEnd = expected > LogFormat.firstSequence ? expected - 1 : nil
            if check.precedesWalk(logEnd: logEnd) {
                try check.checkInPlace(
                    segments: segments,
                    maximumBatchSize: configuration.maximumBatchSize,
                    syscalls: syscalls
                )
            } else if let error = check.problem(logEnd: logEnd, segment: last.path, offset: outcome.endOffset) {
                throw error
            }
        }
        return outcome
    }

    /// Moves `scanner` to the batch the durable record names in the last segment, when that
    /// batch is there, sound, with the recorded sequence number and checksum: the batches
    /// before it reached the disk and were checked as they were written, and a read checks them
    /// again (an open from a checkpoint reads none of those the checkpoint holds). The open then
    /// checks the segment from there on, so that it costs the saves since the record, not the
    /// segment's size.
    ///
    /// - Returns: The first sequence number of that batch; `nil`, the scanner at the start of
    ///   the segment, when the record does not name a sound batch there: the open then checks
    ///   the whole segment, and the durable point check judges the record.
    private static func resume(
        _ scanner: inout SegmentScanner,
        at point: DurablePoint,
        in segment: SegmentFile
    ) throws(LogbookError) -> UInt64? {
        guard let location = point.location, location.segmentFirstSequence == segment.firstSequence,
            location.offset > 0
        else { return nil }
        scanner.seek(to: location.offset)
        if case .batch(let header, _, _) = try scanner.next(.checksum), header.eventCount > 0,
            header.lastSequence == point.sequence, header.checksum == point.checksum,
            header.firstSequence >= segment.firstSequence
        {
            scanner.seek(to: location.offset)
            return header.firstSequence
        }
        scanner.seek(to: 0)
        return nil
    }

    /// Damage at the end of the log, judged.
    private struct Tail {
        var damage: LogDamage
        var assessment: TailAssessment
        /// The sequence number the tail's first event would have.
        var firstSequence: UInt64
        /// The durable point the tail's cut would go below, if it would.
        var durablePoint: DurablePoint?

        /// Whether the tail can be cut without asking: a torn write of saves never acknowledged.
        var isTorn: Bool { assessment.kind == .torn && durablePoint == nil }

        /// The last sequence number at risk, from the batch's header when it is plausible.
        var lastSequence: UInt64? {
            guard let header = assessment.header, header.firstSequence == firstSequence, header.eventCount > 0 else {
                return nil
            }
            return header.lastSequence
        }

        var sequences: String {
            lastSequence.map { "sequence \(firstSequence)...\($0)" } ?? "sequence \(firstSequence) and after"
        }

        var refusal: LogbookError {
            var message =
                assessment.kind == .torn
                ? "incomplete batch at the end of the log (\(damage.reason))"
                : "damaged batch at the end of the log: \(damage.reason)"
            message += "; \(sequences) at risk"
            if let durablePoint {
                message += ", and the store recorded saves up to sequence \(durablePoint.sequence) as on disk"
            }
            message +=
                "; nothing was changed: run `logbook salvage STORE NEW` to copy every sound batch to a new store, or open with the damaged tail policy .quarantine to move the bytes into the store's quarantine directory and go on without them"
            return LogbookError(
                .corruption,
                message,
                path: damage.segment,
                offset: damage.offset,
                sequence: firstSequence
            )
        }
    }

    /// Copies the tail into quarantine, syncs it, and only then cuts it off the segment.
    private static func quarantine(
        _ tail: Tail,
        of file: SystemFile,
        size: Int64,
        directory: String,
        configuration: LogConfiguration
    ) throws(LogbookError) -> RecoveryReport.QuarantinedTail {
        let damage = tail.damage
        let path = try Quarantine.keep(
            file,
            from: damage.offset,
            to: size,
            storeDirectory: directory,
            syscalls: configuration.syscalls
        )
        try file.truncate(to: damage.offset)
        try file.syncData()
        let quarantined = RecoveryReport.QuarantinedTail(
            segment: damage.segment,
            offset: damage.offset,
            byteCount: size - damage.offset,
            quarantinePath: path,
            firstSequence: tail.firstSequence,
            lastSequence: tail.lastSequence,
            wasTorn: tail.assessment.kind == .torn,
            includesDurableSaves: tail.durablePoint != nil,
            reason: "\(damage.reason)"
        )
        configuration.logger.warning(
            "moved \(tail.assessment.kind == .torn ? "a torn" : "a damaged") batch at the end of the log into quarantine",
            metadata: [
                "segment": "\(damage.segment)", "offset": "\(damage.offset)", "bytes": "\(quarantined.byteCount)",
                "sequences": "\(tail.sequences)", "quarantine": "\(path)", "reason": "\(damage.reason)",
                "durable": "\(quarantined.includesDurableSaves)",
            ]
        )
        return quarantined
    }
}
