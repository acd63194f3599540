/// Reads the batches of a store, from any sequence number, without taking the writer's lock.
///
/// A reader may run in another process while a writer appends: it sees only whole batches. A
/// batch at the very end of the last segment that is not complete yet (or was torn by a crash
/// and not yet cut off) ends the iteration for now, and a later ``BatchCursor/next()`` looks
/// again; damage anywhere else throws.
package struct LogReader: Sendable {
    package let directory: String
    package let maximumBatchSize: Int
    package let syscalls: any Syscalls

    package init(directory: String, maximumBatchSize: Int = 64 << 20, syscalls: any Syscalls = PosixSyscalls()) {
        self.directory = directory
        self.maximumBatchSize = maximumBatchSize
        self.syscalls = syscalls
    }

    /// A cursor over the batches that hold events from `sequence` on.
    ///
    /// The first batch returned is the one that contains `sequence`; it is found from the
    /// segment names and the batch headers, without decompressing what comes before it.
    package func batches(from sequence: UInt64 = 1) -> BatchCursor {
        BatchCursor(reader: self, from: sequence)
    }

    /// A cursor that goes on where an earlier one stopped (``BatchCursor/resumePoint``),
    /// without reading the batches before it again: how a read-only store catches up.
    package func batches(resumingAt point: BatchCursor.ResumePoint) -> BatchCursor {
        BatchCursor(reader: self, resumingAt: point)
    }

    /// A cursor over the batches after `sequence`: from `point` when an earlier cursor stopped
    /// right there, else found from the segment names and batch headers. How a reader that
    /// comes back to the log again and again (a follower's catch-up, the change feed) avoids
    /// reading each segment's batch headers again at every visit.
    package func batches(after sequence: UInt64, resumingAt point: BatchCursor.ResumePoint?) -> BatchCursor {
        if let point, point.nextSequence == sequence + 1 {
            return batches(resumingAt: point)
        }
        return batches(from: sequence + 1)
    }

    /// A cursor over the batches that may hold schema records, up to the one that holds
    /// `sequence`: every version 1 batch, and the later ones that flag a schema record
    /// (``LogFormat/flagSchemaRecord``). The others are checksummed, not decompressed.
    package func schemaRecordBatches(through sequence: UInt64 = .max) -> BatchCursor {
        BatchCursor(reader: self, from: 1, through: sequence, onlySchemaRecords: true)
    }

    /// The horizon of the store's history: the token of the last transaction deleted, or `nil`
    /// when none was (see `OnDiskFormat`, Compaction base).
    package func horizon() throws(LogbookError) -> UInt64? {
        try SegmentDirectory.layout(in: directory, syscalls: syscalls).horizon
    }

    /// The segment files of the store, in order.
    package func segments() throws(LogbookError) -> [SegmentFile] {
        try SegmentDirectory.segments(in: directory, syscalls: syscalls)
    }
}

/// Iterates the batches of a store in sequence order. See ``LogReader``.
package struct BatchCursor {
    private let reader: LogReader
    private var start: UInt64
    /// The cursor ends before a batch that starts after this sequence number.
    private let last: UInt64
    private let onlySchemaRecords: Bool
    private var current: (segment: SegmentFile, scanner: SegmentScanner)?
    /// Closes the current segment's descriptor when the last copy of the cursor goes away.
    private var openFile: OpenFile?
    private var expected: UInt64?
    private var finished = false

    /// The damage at the end of the log that stopped the latest ``next()``, if any: a batch still
    /// being written by another process, or one torn by a crash.
    package private(set) var incompleteTail: LogDamage?

    /// Where a cursor stopped: the segment it was reading and the offset of the batch after
    /// the last one it returned, which holds `nextSequence` once written.
    package struct ResumePoint: Sendable, Hashable {
        package var segment: SegmentFile
        package var offset: Int64
        package var nextSequence: UInt64
    }

    /// Where the batch after the last one returned begins, or `nil` before the first
    /// ``next()`` and in a log with no segment.
    package var resumePoint: ResumePoint? {
        guard let (segment, scanner) = current, let expected else { return nil }
        return ResumePoint(segment: segment, offset: scanner.offset, nextSequence: expected)
    }

    /// Where to start instead of looking for the batch of ``start``.
    private var resume: ResumePoint?

    init(reader: LogReader, from sequence: UInt64, through last: UInt64 = .max, onlySchemaRecords: Bool = false) {
        self.reader = reader
        self.start = sequence
        self.last = last
        self.onlySchemaRecords = onlySchemaRecords
    }

    init(reader: LogReader, resumingAt point: ResumePoint) {
        self.init(reader: reader, from: point.nextSequence)
        self.resume = point
    }

    /// The next batch, or `nil` when there is none yet.
    ///
    /// - Throws: ``LogbookError`` naming the segment and byte offset when the log is damaged
    ///   anywhere but at its very end.
    package mutating func next() throws(LogbookError) -> Batch? {
        incompleteTail = nil
        if current == nil {
            if let resume {
                do throws(LogbookError) {
                    try open(resume.segment, at: resume.offset)
                    expected = resume.nextSequence
                } catch {
                    // Gone since: replaced by a compaction base, or damage.
                    guard try resumeAfterReplacement(resume, error) else { return nil }
                }
            } else {
                guard try openSegment(containing: start) else { return nil }
            }
        }
        // The damage offset already read again once a later segment existed (see below).
        var rereadAt: Int64?
        while let (segment, scannerNow) = current {
            var scanner = scannerNow
            let step = try scanner.next(onlySchemaRecords ? .schemaRecords : .decode(from: start))
            current = (segment, scanner)
            switch step {
            case .batch(let header, let offset, let batch):
                if let expected, header.firstSequence != expected {
                    throw LogDamage(
                        segment: segment.path,
                        offset: offset,
                        byteCount: Int64(header.frameSize),
                        reason: .sequenceGap(expected: expected, found: header.firstSequence)
                    ).error
                }
                if header.firstSequence > last, header.eventCount > 0 { return nil }
                expected = header.lastSequence &+ 1
                // Before `start`, or without schema records: checked, not decompressed.
                guard let batch else { continue }
                return batch
            case .end:
                // The writer never appends to a segment once a later one exists, so look for a
                // later segment first and only then at whether this one grew meanwhile.
                let later = try laterSegment(after: segment)
                try scanner.refreshSize()
                current = (segment, scanner)
                if scanner.offset < scanner.size { continue }
                guard let later else { return nil }
                try moveTo(later)
            case .damaged(let damage):
                let later = try laterSegment(after: segment) != nil
                if later, damage.reason.couldBeTornWrite, rereadAt != damage.offset {
                    // The batch may have been read while the writer was still writing it, and the
                    // writer may have rolled over to a new segment since. It never appends to a
                    // segment once a later one exists, so a second read is final.
                    rereadAt = damage.offset
                    try scanner.refreshSize()
                    current = (segment, scanner)
                    continue
                }
                if !later, damage.reason.couldBeTornWrite {
                    var probe = scanner
                    if try !probe.soundBatchFollows(after: damage.offset) {
                        incompleteTail = damage
                        try scanner.refreshSize()
                        current = (segment, scanner)
                        return nil
                    }
                }
                throw damage.error
            }
        }
        return nil
    }

    /// Goes on from `point` in the file that holds it now, after a compaction base replaced
    /// the segment it was in; throws ``LogbookError/Code/historyDeleted`` when the history
    /// after `point` is gone, and `error` when no base replaced the segment.
    private mutating func resumeAfterReplacement(
        _ point: ResumePoint,
        _ error: LogbookError
    ) throws(LogbookError) -> Bool {
        guard let horizon = try reader.horizon() else { throw error }
        guard point.nextSequence > horizon else {
            throw LogbookError.historyDeleted(after: point.nextSequence - 1, horizon: horizon, store: reader.directory)
        }
        resume = nil
        start = max(start, point.nextSequence)
        return try openSegment(containing: point.nextSequence)
    }

    private mutating func openSegment(containing sequence: UInt64) throws(LogbookError) -> Bool {
        let layout = try SegmentDirectory.layout(in: reader.directory, syscalls: reader.syscalls)
        // A base stands for the whole history up to its horizon: it is read from the start
        // of the log, and a reader that needs the events between is refused.
        if let horizon = layout.horizon, sequence > LogFormat.firstSequence, sequence <= horizon {
            throw LogbookError.historyDeleted(after: sequence - 1, horizon: horizon, store: reader.directory)
        }
        let segments = layout.segments
        guard let segment = segments.last(where: { $0.firstSequence <= sequence }) ?? segments.first else {
            return false
        }
        try open(segment)
        return true
    }

    private func laterSegment(after segment: SegmentFile) throws(LogbookError) -> SegmentFile? {
        try reader.segments().first { $0.firstSequence > segment.firstSequence }
    }

    private mutating func moveTo(_ next: SegmentFile) throws(LogbookError) {
        if let expected, next.firstSequence != expected {
            // The segment read was replaced by a compaction base meanwhile: go on in the base
            // when the history needed is still there.
            if let horizon = try reader.horizon() {
                guard expected > horizon else {
                    throw LogbookError.historyDeleted(after: expected - 1, horizon: horizon, store: reader.directory)
                }
                let segments = try reader.segments()
                if let holder = segments.last(where: { $0.firstSequence <= expected }) {
                    start = max(start, expected)
                    self.expected = nil
                    try open(holder)
                    return
                }
            }
            throw LogDamage(
                segment: next.path,
                offset: 0,
                byteCount: 0,
                reason: .sequenceGap(expected: expected, found: next.firstSequence)
            ).error
        }
        try open(next)
    }

    private mutating func open(_ segment: SegmentFile, at offset: Int64 = 0) throws(LogbookError) {
        current = nil
        openFile = nil
        let file = try SegmentDirectory.open(segment, writable: false, syscalls: reader.syscalls)
        openFile = OpenFile(file)
        current = (
            segment, try SegmentScanner(file: file, maximumBatchSize: reader.maximumBatchSize, offset: offset)
        )
        if expected == nil { expected = segment.firstSequence }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Owns a descriptor and closes it when released, so that a cursor dropped part way through a
/// log, or copied, never leaks the segment it was reading.
private final class OpenFile {
    let file: SystemFile

    init(_ file: SystemFile) {
        self.file = file
    }

    deinit {
        file.close()
    }
}
