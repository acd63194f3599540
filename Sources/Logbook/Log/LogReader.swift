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

    /// The segment files of the store, in order.
    package func segments() throws(LogbookError) -> [SegmentFile] {
        try SegmentDirectory.segments(in: directory, syscalls: syscalls)
    }
}

/// Iterates the batches of a store in sequence order. See ``LogReader``.
package struct BatchCursor {
    private let reader: LogReader
    private let start: UInt64
    private var current: (segment: SegmentFile, scanner: SegmentScanner)?
    /// Owns the descriptor of the current segment: it is closed when the cursor moves to the next
    /// segment, or when the cursor and every copy of it are gone.
    private var openFile: OpenSegmentFile?
    private var expected: UInt64?
    private var finished = false

    /// The damage at the end of the log that stopped the latest ``next()``, if any: a batch still
    /// being written by another process, or one torn by a crash.
    package private(set) var incompleteTail: LogDamage?

    init(reader: LogReader, from sequence: UInt64) {
        self.reader = reader
        self.start = sequence
    }

    /// The next batch, or `nil` when there is none yet.
    ///
    /// - Throws: ``LogbookError`` naming the segment and byte offset when the log is damaged
    ///   anywhere but at its very end.
    package mutating func next() throws(LogbookError) -> Batch? {
        incompleteTail = nil
        if current == nil {
            guard try openSegment(containing: start) else { return nil }
        }
        while let (segment, scannerNow) = current {
            var scanner = scannerNow
            let step = try scanner.next(.decode(from: start))
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
                expected = header.lastSequence &+ 1
                guard let batch else { continue }  // before `start`: checked, not decompressed
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
                let later = try reader.segments().contains { $0.firstSequence > segment.firstSequence }
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

    private mutating func openSegment(containing sequence: UInt64) throws(LogbookError) -> Bool {
        let segments = try reader.segments()
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
            throw LogDamage(
                segment: next.path,
                offset: 0,
                byteCount: 0,
                reason: .sequenceGap(expected: expected, found: next.firstSequence)
            ).error
        }
        try open(next)
    }

    private mutating func open(_ segment: SegmentFile) throws(LogbookError) {
        let file = OpenSegmentFile(try SystemFile.open(segment.path, flags: O_RDONLY, syscalls: reader.syscalls))
        current = (segment, try SegmentScanner(file: file.file, maximumBatchSize: reader.maximumBatchSize))
        openFile = file  // closes the previous segment's file, unless a copy of the cursor still reads it
        if expected == nil { expected = segment.firstSequence }
    }
}

/// A segment file a cursor opened, closed when the last reference to it goes.
private final class OpenSegmentFile {
    let file: SystemFile

    init(_ file: SystemFile) {
        self.file = file
    }

    deinit {
        file.close()
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
