import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The append-only, segmented, checksummed event log of one store, opened for writing.
///
/// A store is a directory of segment files named by the sequence number of their first event,
/// plus a `LOCK` file that the one writer holds with `flock`. ``append(_:)`` frames a batch of
/// encoded events, writes it with one `pwrite` and, by default, returns only once `fdatasync`
/// has put it on disk. Opening recovers from a crash: a torn batch at the very end of the log is
/// copied into the store's quarantine directory, cut off and reported through the logger; any
/// other damage throws (see ``Recovery``). The writer records the last batch it knows to be on
/// disk in the store's durable record (``DurableRecord``) when it closes and every so often.
///
/// The log is safe to share between threads: appends are serialised by a mutex.
package final class EventLog: Sendable {
    /// The store directory.
    package let directory: String
    package let configuration: LogConfiguration
    /// What the open found and did.
    package let recovery: RecoveryOutcome
    private let state: Locked<WriterState>

    private struct WriterState: ~Copyable {
        var lock: StoreLock?
        var segment: SystemFile?
        var endOffset: Int64
        var nextSequence: UInt64
        var failure: LogbookError?
        /// The first sequence number of the segment appends go to.
        var segmentFirstSequence: UInt64
        /// The last batch appended, once it is on disk (or, when appends are relaxed, written).
        var lastBatch: DurablePoint?
        /// The point the durable record holds.
        var recorded: DurablePoint?
        /// Bytes and appends since the record was written.
        var bytesSinceRecord = 0
        var appendsSinceRecord = 0
        /// Whether a segment sealed by relaxed appends could not be synced, so that no later point
        /// can be recorded until a reopen.
        var unsyncedSealedSegment = false
        var appendedBytes: UInt64 = 0
    }

    /// Opens the store in `directory` for writing, creating it when allowed, and recovers it.
    ///
    /// - Throws: ``LogbookError/Code/storeLocked`` when another writer holds the store;
    ///   ``LogbookError/Code/corruption`` or ``LogbookError/Code/unsupportedFormat`` for damage
    ///   other than a torn tail, naming the segment and byte offset; ``LogbookError/Code/io``
    ///   when a system call fails.
    package init(directory: String, configuration: LogConfiguration = LogConfiguration()) throws(LogbookError) {
        let syscalls = configuration.syscalls
        try Self.prepareDirectory(directory, configuration: configuration)
        let lock = try StoreLock(directory: directory, timeout: configuration.lockTimeout, syscalls: syscalls)
        let recovery: RecoveryOutcome
        var segment: SystemFile?
        do throws(LogbookError) {
            recovery = try Recovery.recover(directory: directory, configuration: configuration)
            // A switch to a compaction base cut short is finished: the files it replaced go.
            try CompactionBase.removeReplaced(in: directory, syscalls: syscalls)
            // A base is never appended to: the next append starts a segment.
            if let last = recovery.lastSegment, last.horizon == nil {
                segment = try SegmentDirectory.open(last, writable: true, syscalls: syscalls)
            }
        } catch {
            lock.release()
            throw error
        }
        self.directory = directory
        self.configuration = configuration
        self.recovery = recovery
        self.state = Locked(
            WriterState(
                lock: lock,
                segment: segment,
                endOffset: recovery.endOffset,
                nextSequence: recovery.nextSequence,
                failure: nil,
                segmentFirstSequence: recovery.lastSegment?.firstSequence ?? LogFormat.firstSequence,
                lastBatch: recovery.lastBatch,
                recorded: recovery.durablePoint
            )
        )
        // A store kept in a database server copies what it does not have yet.
        if let external = configuration.external {
            for frame in try external.frames(after: recovery.nextSequence - 1) { try appendFrame(frame) }
        }
    }

    deinit {
        close()
    }

    /// The sequence number the next appended event will receive.
    package var nextSequence: UInt64 {
        state.withLock { $0.nextSequence }
    }

    /// Makes every later append throw `failure`, as a failed flush does: for a writer whose
    /// caller can no longer keep its own state in step with the log. A failure already recorded
    /// stays.
    package func refuseAppends(_ failure: LogbookError) {
        state.withLock { state in
            if state.failure == nil { state.failure = failure }
        }
    }

    /// Appends one batch of encoded events atomically.
    ///
    /// After a crash either every event of the batch is in the log or none is.
    ///
    /// - Parameter events: the encoded events; opaque bytes at this layer. Must not be empty.
    /// - Returns: the sequence numbers the events received, in order.
    /// - Throws: ``LogbookError/Code/batchTooLarge``; ``LogbookError/Code/io`` when the write
    ///   fails (the log is left as it was and stays usable); ``LogbookError/Code/writerFailed``
    ///   when a flush to disk failed now or earlier, after which the log refuses every append
    ///   until it is reopened.
    package func append(_ events: [[UInt8]]) throws(LogbookError) -> ClosedRange<UInt64> {
        try append(BatchPayload(events))
    }

    /// Appends one batch of `events` compressed in pieces of `pieceBytes` bytes
    /// (``LogFormat/flagPieces``), as a large save's batch is compressed while it is encoded,
    /// unless that does not make it smaller: for tests and the golden stores of `Fixtures/`.
    package func append(_ events: [[UInt8]], inPiecesOf pieceBytes: Int) throws(LogbookError) -> ClosedRange<UInt64> {
        precondition(pieceBytes > 0, "a piece holds at least one byte")
        let payload = BatchPayload(events)
        let pieces = payload.bytes.withUnsafeBytes { bytes -> [UInt8]? in
            guard let base = bytes.baseAddress, var pieces = LZ4Pieces(framing: base) else { return nil }
            for end in stride(from: pieceBytes, through: bytes.count + pieceBytes - 1, by: pieceBytes) {
                pieces.compress(upTo: min(end, bytes.count))
            }
            return pieces.finish()
        }
        return try append(payload, compressedPieces: pieces)
    }

    /// Appends one batch atomically, as the other `append` does, from its payload.
    ///
    /// - Parameter compressedPieces: The payload's LZ4 pieces, made while it was encoded, after
    ///   room for the batch's header (see ``PayloadFeed``), to store instead of compressing the
    ///   payload here.
    package func append(
        _ payload: BatchPayload,
        compressedPieces: [UInt8]? = nil
    ) throws(LogbookError) -> ClosedRange<UInt64> {
        precondition(!payload.isEmpty, "a batch holds at least one event")
        return try state.withLock { (state) throws(LogbookError) -> ClosedRange<UInt64> in
            if let failure = state.failure { throw failure }
            guard state.lock != nil else {
                throw LogbookError(.invalidArgument, "the log of \(directory) is closed", path: directory)
            }
            let first = state.nextSequence
            let (header, frame) = try BatchWriter.frame(
                payload: payload,
                firstSequence: first,
                compress: configuration.compression,
                maximumBatchSize: configuration.maximumBatchSize,
                compressedPieces: compressedPieces
            )
            // A store kept in a database server appends there first: a batch another writer
            // numbered first fails here with a conflict, before anything is written below.
            try configuration.external?.append([(frame, header)])
            return try write(frame, header, into: &state)
        }
    }

    /// Appends batches one after the other, as the migration of a store appends one per stage.
    ///
    /// For a store kept in a database server, the batches land there all or none (see
    /// ``ExternalLog/append(_:)``) before any is written to the directory. In a directory of
    /// its own, each batch is appended atomically, in order.
    ///
    /// - Returns: The sequence numbers of the events of all the batches; empty when
    ///   `payloads` is.
    package func append(_ payloads: [BatchPayload]) throws(LogbookError) -> Range<UInt64> {
        guard let external = configuration.external else {
            var range: Range<UInt64>?
            for payload in payloads {
                let appended = try append(payload)
                range = (range?.lowerBound ?? appended.lowerBound)..<(appended.upperBound + 1)
            }
            return range ?? nextSequence..<nextSequence
        }
        return try state.withLock { (state) throws(LogbookError) -> Range<UInt64> in
            if let failure = state.failure { throw failure }
            guard state.lock != nil else {
                throw LogbookError(.invalidArgument, "the log of \(directory) is closed", path: directory)
            }
            var framed: [(frame: [UInt8], header: BatchHeader)] = []
            var next = state.nextSequence
            for payload in payloads {
                precondition(!payload.isEmpty, "a batch holds at least one event")
                let (header, frame) = try BatchWriter.frame(
                    payload: payload,
                    firstSequence: next,
                    compress: configuration.compression,
                    maximumBatchSize: configuration.maximumBatchSize
                )
                framed.append((frame, header))
                next = header.lastSequence &+ 1
            }
            let first = state.nextSequence
            guard !framed.isEmpty else { return first..<first }
            try external.append(framed)
            for (frame, header) in framed { _ = try write(frame, header, into: &state) }
            return first..<next
        }
    }

    /// Writes a framed batch at the end of the log: the path every append takes once the batch
    /// is framed (and, for a store kept in a database server, appended there).
    private func write(
        _ frame: [UInt8],
        _ header: BatchHeader,
        into state: inout WriterState
    ) throws(LogbookError) -> ClosedRange<UInt64> {
        let first = header.firstSequence
        var createdSegment = false
        if state.segment == nil
            || (state.endOffset > 0 && state.endOffset + Int64(frame.count) > Int64(configuration.segmentSize))
        {
            let path = SegmentDirectory.join(directory, SegmentDirectory.fileName(forFirstSequence: first))
            let file = try SystemFile.open(path, flags: O_RDWR | O_CREAT | O_EXCL, syscalls: configuration.syscalls)
            if configuration.durability == .relaxed, let sealed = state.segment {
                // Relaxed appends are flushed once per segment, so that the durable record
                // at close speaks for every sealed segment too.
                do throws(LogbookError) { try sealed.syncData() } catch { state.unsyncedSealedSegment = true }
            }
            state.segment?.close()
            state.segment = file
            state.endOffset = 0
            state.segmentFirstSequence = first
            createdSegment = true
        }
        guard let segment = state.segment else { preconditionFailure("a segment was opened above") }
        let offset = state.endOffset
        let written = frame.withUnsafeBytes { bytes in
            Result { () throws(LogbookError) in try segment.writeAll(bytes, at: offset) }
        }
        do throws(LogbookError) {
            try written.get()
        } catch {
            do throws(LogbookError) {
                try segment.truncate(to: offset)
            } catch let truncation {
                state.failure = LogbookError(
                    .writerFailed,
                    "a failed write left bytes at the end of the log that could not be cut off (\(truncation)); reopen the store to recover it",
                    path: segment.path,
                    offset: offset,
                    cause: error
                )
            }
            throw error
        }
        if configuration.durability == .durable {
            do throws(LogbookError) {
                try segment.syncData()
                if createdSegment {
                    try SegmentDirectory.syncDirectory(directory, syscalls: configuration.syscalls)
                }
            } catch {
                let failure = LogbookError(
                    .writerFailed,
                    "flushing the log to disk failed; this writer accepts no more appends (the kernel may have dropped the unwritten pages, so a retried flush could report success for lost data); reopen the store",
                    path: error.path ?? segment.path,
                    sequence: first,
                    cause: error
                )
                state.failure = failure
                throw failure
            }
        }
        state.endOffset = offset + Int64(frame.count)
        state.appendedBytes &+= UInt64(frame.count)
        state.nextSequence = header.lastSequence &+ 1
        state.lastBatch = DurablePoint(
            sequence: header.lastSequence,
            checksum: header.checksum,
            location: DurablePoint.Location(segmentFirstSequence: state.segmentFirstSequence, offset: offset),
            source: directory
        )
        state.bytesSinceRecord += frame.count
        state.appendsSinceRecord += 1
        if configuration.durability == .durable
            && (state.bytesSinceRecord >= configuration.durableRecordBytes
                || state.appendsSinceRecord >= configuration.durableRecordAppends)
        {
            recordDurablePoint(&state)
        }
        return first...header.lastSequence
    }

    /// Appends a batch framed already, as another writer of an ``ExternalLog`` appended it: a
    /// store kept in a database server copies the batches of its other writers this way.
    ///
    /// - Returns: The batch's header.
    /// - Throws: ``LogbookError/Code/corruption`` when the frame is not one whole batch whose
    ///   checksum holds, or does not start at the next sequence number; what a write throws.
    @discardableResult
    package func appendFrame(_ frame: [UInt8]) throws(LogbookError) -> BatchHeader {
        try state.withLock { (state) throws(LogbookError) -> BatchHeader in
            if let failure = state.failure { throw failure }
            guard state.lock != nil else {
                throw LogbookError(.invalidArgument, "the log of \(directory) is closed", path: directory)
            }
            let source = configuration.external?.location ?? directory
            let next = state.nextSequence
            let checked = frame.withUnsafeBytes { bytes -> Result<BatchHeader, LogbookError> in
                guard let header = BatchHeader.read(from: bytes), header.frameSize == bytes.count,
                    header.eventCount > 0, Int(header.uncompressedLength) <= configuration.maximumBatchSize
                else {
                    return .failure(
                        LogbookError(
                            .corruption,
                            "a batch of \(bytes.count) bytes copied from \(source) does not frame one batch",
                            path: source,
                            sequence: next
                        )
                    )
                }
                let checksum = BatchHeader.checksum(
                    header: UnsafeRawBufferPointer(rebasing: bytes[..<LogFormat.headerSize]),
                    payload: UnsafeRawBufferPointer(rebasing: bytes[LogFormat.headerSize...])
                )
                guard checksum == header.checksum else {
                    return .failure(
                        LogbookError(
                            .corruption,
                            "the batch at sequence \(header.firstSequence) copied from \(source) fails its checksum (stored \(header.checksum), computed \(checksum))",
                            path: source,
                            sequence: header.firstSequence
                        )
                    )
                }
                return .success(header)
            }
            let header = try checked.get()
            guard header.firstSequence == state.nextSequence else {
                throw LogbookError(
                    .corruption,
                    "the batch copied from \(source) starts at sequence \(header.firstSequence), but the next sequence is \(state.nextSequence)",
                    path: source,
                    sequence: header.firstSequence
                )
            }
            _ = try write(frame, header, into: &state)
            return header
        }
    }

    /// Replaces the history up to and including `horizon` with a compaction base of `events`
    /// (see ``CompactionBase``), with appends held back meanwhile.
    ///
    /// - Throws: ``LogbookError/Code/unsupported`` for a store kept in a database server;
    ///   what ``CompactionBase/replace()`` throws. The writer stays usable after a failure.
    /// Throws when the log is another system's (a database server's), whose history is the
    /// shared log of its hosts.
    ///
    /// - Throws: ``LogbookError/Code/unsupported`` naming where the log is kept.
    func checkHistoryCanBeDeleted() throws(LogbookError) {
        guard let external = configuration.external else { return }
        throw LogbookError(
            .unsupported,
            "the history of a store kept in \(external.location) is the shared log of its hosts and cannot be deleted",
            path: external.location
        )
    }

    func replaceHistory(through horizon: UInt64, with events: [CompactionBase.Event]) throws(LogbookError) {
        try state.withLock { (state) throws(LogbookError) in
            if let failure = state.failure { throw failure }
            guard state.lock != nil else {
                throw LogbookError(.invalidArgument, "the log of \(directory) is closed", path: directory)
            }
            try checkHistoryCanBeDeleted()
            let base = CompactionBase(
                directory: directory,
                configuration: configuration,
                horizon: horizon,
                events: events,
                appendSegment: state.segment == nil ? nil : (state.segmentFirstSequence, state.endOffset)
            )
            let outcome = try base.replace()
            if state.segment != nil, state.segmentFirstSequence <= horizon {
                state.segment?.close()
                state.segment = nil
            }
            if let problem = outcome.problem {
                // As after a failed flush: whether the base or the old segments survive a crash
                // is not known, so this writer stops.
                let failure = LogbookError(
                    .writerFailed,
                    "the history up to token \(horizon) was replaced by a base whose name could not be flushed to disk; this writer accepts no more appends; reopen the store",
                    path: outcome.path,
                    sequence: horizon,
                    cause: problem
                )
                state.failure = failure
                throw failure
            }
            // The last batch may have moved into the base: the next durable record names it there.
            if let last = state.lastBatch {
                if last.sequence == horizon {
                    state.lastBatch = DurablePoint(
                        sequence: horizon,
                        checksum: outcome.lastBaseBatch.checksum,
                        location: DurablePoint.Location(
                            segmentFirstSequence: outcome.firstSequence,
                            offset: outcome.lastBaseBatch.offset
                        ),
                        source: directory
                    )
                } else if let location = last.location, location.segmentFirstSequence == outcome.holderFirstSequence {
                    state.lastBatch?.location = DurablePoint.Location(
                        segmentFirstSequence: outcome.firstSequence,
                        offset: outcome.copiedTo + location.offset - outcome.copiedFrom
                    )
                }
            }
            state.recorded = nil
            state.bytesSinceRecord = 0
            state.appendsSinceRecord = state.lastBatch == nil ? 0 : 1
        }
    }

    /// The bytes this log appended since it was opened.
    package var appendedBytes: UInt64 {
        state.withLock { $0.appendedBytes }
    }

    /// The last batch appended, made durable first: with relaxed appends, the segment and the
    /// directory are flushed, so that a checkpoint that names the batch never outlives it.
    ///
    /// - Returns: The batch, or `nil` for an empty log.
    /// - Throws: ``LogbookError/Code/writerFailed`` when the log refuses appends, or when a
    ///   segment sealed by relaxed appends could not be synced; ``LogbookError/Code/io`` when a
    ///   flush fails.
    package func durableLastBatch() throws(LogbookError) -> DurablePoint? {
        try state.withLock { (state) throws(LogbookError) -> DurablePoint? in
            if let failure = state.failure { throw failure }
            guard state.lock != nil else {
                throw LogbookError(.invalidArgument, "the log of \(directory) is closed", path: directory)
            }
            guard let last = state.lastBatch else { return nil }
            if configuration.durability == .relaxed {
                guard !state.unsyncedSealedSegment else {
                    throw LogbookError(
                        .writerFailed,
                        "a sealed segment could not be flushed; reopen the store",
                        path: directory
                    )
                }
                do throws(LogbookError) {
                    try state.segment?.syncData()
                    try SegmentDirectory.syncDirectory(directory, syscalls: configuration.syscalls)
                } catch {
                    // As after any failed flush, the writer stops: see `append`.
                    state.failure = LogbookError(
                        .writerFailed,
                        "flushing the log to disk failed; this writer accepts no more appends; reopen the store",
                        path: error.path ?? directory,
                        cause: error
                    )
                    throw error
                }
            }
            return last
        }
    }

    /// Closes the segment and releases the store's lock. Further appends throw. Calling it again
    /// does nothing.
    package func close() {
        state.withLock { state in
            // Only what this writer appended: an open that appends nothing writes nothing.
            if state.lock != nil && state.failure == nil && state.appendsSinceRecord > 0
                && state.lastBatch != state.recorded
            {
                if configuration.durability == .durable {
                    recordDurablePoint(&state)
                } else if !state.unsyncedSealedSegment, let segment = state.segment {
                    // Relaxed appends reach the disk here, with the names of the segments they made.
                    do throws(LogbookError) {
                        try segment.syncData()
                        try SegmentDirectory.syncDirectory(directory, syscalls: configuration.syscalls)
                        recordDurablePoint(&state)
                    } catch {
                        configuration.logger.warning("could not flush the log at close: \(error)")
                    }
                }
            }
            state.segment?.close()
            state.segment = nil
            state.lock?.release()
            state.lock = nil
        }
        configuration.external?.close()
    }

    /// Writes the last batch on disk to the store's durable record. A failure is only logged: the
    /// record is a check for later opens, and the one already there stays true, since the log
    /// only grows.
    private func recordDurablePoint(_ state: inout WriterState) {
        guard let point = state.lastBatch else { return }
        do throws(LogbookError) {
            try DurableRecord.write(point, in: directory, syscalls: configuration.syscalls)
            state.recorded = point
            state.bytesSinceRecord = 0
            state.appendsSinceRecord = 0
        } catch {
            configuration.logger.warning(
                "could not record how far the log is on disk",
                metadata: ["store": "\(directory)", "error": "\(error)"]
            )
        }
    }

    /// A reader over this store's events.
    package func reader() -> LogReader {
        LogReader(
            directory: directory,
            maximumBatchSize: configuration.maximumBatchSize,
            syscalls: configuration.syscalls
        )
    }

    private static func prepareDirectory(_ directory: String, configuration: LogConfiguration) throws(LogbookError) {
        guard configuration.createIfMissing else {
            _ = try SegmentDirectory.segments(in: directory, syscalls: configuration.syscalls)
            return
        }
        switch configuration.syscalls.makeDirectory(directory) {
        case .success:
            try SegmentDirectory.syncDirectory(
                SegmentDirectory.parent(of: directory),
                syscalls: configuration.syscalls
            )
        case .failure(let errno) where errno == .exists:
            return
        case .failure(let errno):
            throw LogbookError.system("mkdir", path: directory, errno)
        }
    }
}
