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
    /// The torn batch cut off the end of the log, if there was one.
    package var cutTail: LogDamage?
}

/// The open-time policy over ``SegmentScanner``: a batch at the very end of the last segment that
/// is short or fails its checksum, with nothing sound after it, is a torn write and is cut off;
/// any other damage stops the open and nothing is truncated.
enum Recovery {
    static func recover(
        directory: String,
        configuration: LogConfiguration
    ) throws(LogbookError) -> RecoveryOutcome {
        let segments = try SegmentDirectory.segments(in: directory, syscalls: configuration.syscalls)
        guard let last = segments.last else {
            return RecoveryOutcome(lastSegment: nil, endOffset: 0, nextSequence: LogFormat.firstSequence)
        }
        var expected = segments[0].firstSequence
        var outcome = RecoveryOutcome(lastSegment: last, endOffset: 0, nextSequence: expected)
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
            let file = try SystemFile.open(
                segment.path,
                flags: isLast ? O_RDWR : O_RDONLY,
                syscalls: configuration.syscalls
            )
            defer { file.close() }
            var scanner = try SegmentScanner(file: file, maximumBatchSize: configuration.maximumBatchSize)
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
                    try file.truncate(to: damage.offset)
                    try file.syncData()
                    configuration.logger.warning(
                        "cut off a torn batch at the end of the log",
                        metadata: [
                            "segment": "\(segment.path)", "offset": "\(damage.offset)",
                            "bytes": "\(damage.byteCount)", "reason": "\(damage.reason)",
                        ]
                    )
                    outcome.cutTail = damage
                    scanner.seek(to: damage.offset)
                    break scan
                }
            }
            if isLast { outcome.endOffset = scanner.offset }
        }
        outcome.nextSequence = expected
        return outcome
    }
}
