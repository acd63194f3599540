/// Checks a log against a ``DurablePoint``: the log must reach the point, and the batch that
/// ends there must carry the recorded checksum.
///
/// A walk over the log notes each sound batch with ``note(_:segment:offset:)``; at the end,
/// ``problem(logEnd:segment:offset:)`` says whether the log fails the point. A point before the
/// batches the walk saw (in a sealed segment an open does not read) is checked on its own with
/// ``checkInPlace(segments:maximumBatchSize:syscalls:)``, which reads one batch when the point
/// knows where it lies and one segment otherwise.
package struct DurablePointCheck: Sendable {
    package let point: DurablePoint
    /// Whether the batch at the point was seen, and whether it matched.
    package private(set) var found: Found?
    /// The first sequence number of the batches the walk noted.
    private var firstNoted: UInt64?

    /// What the walk found at the point.
    package enum Found: Sendable, Hashable {
        case match
        /// The batch that holds the point's sequence number ends elsewhere or has another checksum.
        case mismatch(segment: String, offset: Int64, lastSequence: UInt64, checksum: UInt32)
    }

    package init(_ point: DurablePoint) {
        self.point = point
    }

    /// Notes a sound batch met by the walk.
    package mutating func note(_ header: BatchHeader, segment: String, offset: Int64) {
        if firstNoted == nil { firstNoted = header.firstSequence }
        guard found == nil, header.eventCount > 0, header.firstSequence <= point.sequence,
            point.sequence <= header.lastSequence
        else { return }
        if header.lastSequence == point.sequence && header.checksum == point.checksum {
            found = .match
        } else {
            found = .mismatch(
                segment: segment,
                offset: offset,
                lastSequence: header.lastSequence,
                checksum: header.checksum
            )
        }
    }

    /// Whether the point lies before every batch the walk noted, so that the walk cannot judge it.
    package func precedesWalk(logEnd: UInt64?) -> Bool {
        guard found == nil, let logEnd, point.sequence <= logEnd else { return false }
        guard let firstNoted else { return true }
        return point.sequence < firstNoted
    }

    /// The damage, when the log that remains ends at `logEnd` (`nil` for an empty log) and the
    /// walk has noted its batches; `segment` and `offset` say where the log ends, for messages.
    package func problem(logEnd: UInt64?, segment: String, offset: Int64) -> LogbookError? {
        if let found { return found == .match ? nil : mismatchError(found) }
        guard let logEnd, logEnd >= point.sequence else {
            let end = logEnd.map { "sequence \($0)" } ?? "no event"
            return LogbookError(
                .corruption,
                "the log ends at \(end), before the batch at \(point), which was on disk: acknowledged saves are missing; nothing was changed; run `logbook salvage` to copy the sound batches to a new store",
                path: segment,
                offset: offset,
                sequence: logEnd.map { $0 &+ 1 } ?? LogFormat.firstSequence
            )
        }
        return nil
    }

    private func mismatchError(_ found: Found) -> LogbookError? {
        guard case .mismatch(let segment, let offset, let last, let checksum) = found else { return nil }
        return LogbookError(
            .corruption,
            "the batch holding sequence \(point.sequence) ends at sequence \(last) with checksum 0x\(String(checksum, radix: 16)), not as the durable point \(point) says: the log was changed after it was on disk; run `logbook salvage` to copy the sound batches to a new store",
            path: segment,
            offset: offset,
            sequence: point.sequence
        )
    }

    /// Checks the point against the sealed segment that holds it, for a walk that did not read
    /// that segment.
    ///
    /// - Returns: Where the batch after the point begins, for a reader that goes on from there.
    /// - Throws: ``LogbookError/Code/corruption`` when the batch is not there or does not match.
    @discardableResult
    package func checkInPlace(
        segments: [SegmentFile],
        maximumBatchSize: Int,
        syscalls: any Syscalls
    ) throws(LogbookError) -> BatchCursor.ResumePoint {
        let holder: SegmentFile?
        let start: Int64
        if let location = point.location {
            holder = segments.first { $0.firstSequence == location.segmentFirstSequence }
            start = location.offset
        } else {
            holder = segments.last { $0.firstSequence <= point.sequence }
            start = 0
        }
        guard let holder else {
            throw LogbookError(
                .corruption,
                "no segment holds the batch at the durable point \(point): acknowledged saves are missing; run `logbook salvage` to copy the sound batches to a new store",
                sequence: point.sequence
            )
        }
        let file = try SegmentDirectory.open(holder, writable: false, syscalls: syscalls)
        defer { file.close() }
        var scanner = try SegmentScanner(file: file, maximumBatchSize: maximumBatchSize, offset: start)
        var check = DurablePointCheck(point)
        while check.found == nil {
            switch try scanner.next(.checksum) {
            case .batch(let header, let offset, _):
                check.note(header, segment: holder.path, offset: offset)
                if point.location != nil && check.found == nil {
                    check.found = .mismatch(
                        segment: holder.path,
                        offset: offset,
                        lastSequence: header.lastSequence,
                        checksum: header.checksum
                    )
                }
            case .end:
                throw LogbookError(
                    .corruption,
                    "the segment ends before the batch at the durable point \(point): acknowledged saves are missing; run `logbook salvage` to copy the sound batches to a new store",
                    path: holder.path,
                    offset: scanner.offset,
                    sequence: point.sequence
                )
            case .damaged(let damage):
                throw damage.error
            }
        }
        if let found = check.found, let error = mismatchError(found) { throw error }
        return BatchCursor.ResumePoint(segment: holder, offset: scanner.offset, nextSequence: point.sequence &+ 1)
    }
}
