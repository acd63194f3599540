/// How a log whose last segment does not end at a batch boundary ends.
package struct EndOfLog: Sendable, Hashable {
    /// Where the last segment stops making sense.
    package var damage: LogDamage
    /// Whether that is a torn write or damage (``SegmentScanner/assessTail(_:)``).
    package var kind: TailAssessment.Kind
}

extension LogReader {
    /// Checks the last segment's batches to its end.
    ///
    /// - Returns: `nil` when the last segment ends at a batch boundary, as a whole log does;
    ///   otherwise where and how it ends.
    package func endOfLog() throws(LogbookError) -> EndOfLog? {
        guard let last = try segments().last else { return nil }
        let file = try SegmentDirectory.open(last, writable: false, syscalls: syscalls)
        defer { file.close() }
        var scanner = try SegmentScanner(file: file, maximumBatchSize: maximumBatchSize)
        while true {
            switch try scanner.next(.checksum) {
            case .batch:
                continue
            case .end:
                return nil
            case .damaged(let damage):
                var probe = scanner
                guard damage.reason.couldBeTornWrite, try !probe.soundBatchFollows(after: damage.offset) else {
                    return EndOfLog(damage: damage, kind: .damaged)
                }
                return EndOfLog(damage: damage, kind: try scanner.assessTail(damage).kind)
            }
        }
    }
}
