import Logging

/// A store kept in a database server (``ExternalLog``): its directory is a copy of the
/// server's log, which other writers append to as well. Saves append there first; a save that
/// another writer numbered first catches up with the batches appended meanwhile and is built
/// again against them.
extension Store {
    /// The external log the store's directory copies, if any.
    var externalLog: (any ExternalLog)? {
        log?.configuration.external
    }

    /// How many times a save that keeps losing the race to other writers catches up and tries
    /// again before it gives up with ``LogbookError/Code/conflict``.
    static let conflictRetries = 16

    /// Puts the newest checkpoint the external log keeps into a directory that holds none,
    /// once the log's batches are copied there: a new host then replays only what follows
    /// it. The checkpoint is relocated to this directory's segments
    /// (``CheckpointRelocation``) and checked at the open like any other; a failure is logged
    /// and the open replays the log.
    static func fetchSharedCheckpoint(into log: EventLog, logger: Logger) {
        guard let external = log.configuration.external else { return }
        let syscalls = log.configuration.syscalls
        do throws(LogbookError) {
            guard try CheckpointFiles.list(in: log.directory, syscalls: syscalls).isEmpty,
                let (sequence, bytes) = try external.newestCheckpoint()
            else { return }
            var cursor = log.reader().batches(from: sequence)
            guard let batch = try cursor.next(), batch.lastSequence == sequence,
                let name = batch.segment.split(separator: "/").last,
                let segmentFirstSequence = SegmentDirectory.firstSequence(ofFileName: String(name)),
                let relocated = CheckpointRelocation.relocated(
                    bytes,
                    segmentFirstSequence: segmentFirstSequence,
                    batchOffset: batch.offset,
                    logBytes: try CheckpointFiles.logBytes(of: log.directory, syscalls: syscalls)
                )
            else {
                logger.warning(
                    "ignored the checkpoint at sequence \(sequence) kept in \(external.location): no batch of the log ends there"
                )
                return
            }
            _ = try CheckpointFiles.write(relocated, sequence: sequence, in: log.directory, syscalls: syscalls)
        } catch {
            logger.warning("could not use the checkpoint kept in \(external.location): \(error)")
        }
    }

    /// Whether the checkpoints this store writes are kept where other hosts find them too
    /// (``shareCheckpoint(sequence:bytes:)``).
    var sharesCheckpoints: Bool { externalLog != nil }

    /// Keeps a checkpoint just written where the containers of other hosts find it. A failure
    /// is logged: the checkpoint is a cache.
    func shareCheckpoint(sequence: UInt64, bytes: [UInt8]) {
        guard let externalLog else { return }
        do throws(LogbookError) {
            try externalLog.storeCheckpoint(sequence: sequence, bytes: bytes)
        } catch {
            logger.warning("could not keep the checkpoint at sequence \(sequence) in \(externalLog.location): \(error)")
        }
    }

    /// Asks the external log to wake the store when others append, so that its objects and its
    /// change feeds follow them without waiting for a fetch. Called once, as the store opens.
    func listenToExternalLog() {
        guard let externalLog else { return }
        externalLog.onAppendElsewhere { [weak self] in
            guard let self else { return }
            do throws(LogbookError) {
                try self.catchUpExternalLog()
            } catch {
                self.logger.warning("could not read the batches others appended to \(externalLog.location): \(error)")
            }
        }
    }

    /// Copies the batches other writers appended to the external log since this store's last
    /// one into its directory, and applies them to its objects.
    ///
    /// - Returns: Whether there were any.
    /// - Throws: What reading the external log throws; ``LogbookError/Code/corruption`` when a
    ///   batch fails its checksum or does not follow the last one. The objects are left as they
    ///   were before the batch that failed.
    @discardableResult
    func catchUpExternalLog() throws(LogbookError) -> Bool {
        guard let log, let externalLog else { return false }
        let caughtUp = try state.withLock { (state) throws(LogbookError) -> Bool in
            let first = log.nextSequence
            let frames = try externalLog.frames(after: first - 1)
            guard !frames.isEmpty else { return false }
            for frame in frames { try log.appendFrame(frame) }
            _ = try Self.replay(
                log.reader(),
                from: first,
                startingWith: state.recorded,
                into: &state,
                fingerprint: fingerprint,
                decodingAhead: .never
            )
            state.generation += 1
            published.store(state.generation, ordering: .releasing)
            return true
        }
        if caughtUp { saveSignal?.notify() }
        return caughtUp
    }

    /// ``catchUpExternalLog()`` before a read: a failure is logged and the read sees the
    /// objects as they were, as a store whose server is out of reach can still be read.
    func catchUpExternalLogBeforeReading() {
        guard externalLog != nil else { return }
        do throws(LogbookError) {
            try catchUpExternalLog()
        } catch {
            logger.warning("reading the objects as they were: \(error)")
        }
    }

    /// Saves a batch: ``commit(transaction:_:)``, which for a store kept in a database server
    /// catches up and builds the batch again when another writer appended first.
    ///
    /// `build` must give the same batch when called again against the same objects.
    ///
    /// - Throws: ``LogbookError/Code/conflict`` when other writers won the race
    ///   ``conflictRetries`` times in a row, or when `build` finds that a change no longer
    ///   applies; what ``commit(transaction:_:)`` throws.
    func saveBatch(
        transaction: BatchTransaction,
        _ build: (Projection, inout UInt64, _ schemaNumber: UInt32, inout PreparedBatch) throws -> Void
    ) throws -> Commit {
        var attempt = 0
        while true {
            do {
                return try commit(transaction: transaction, build)
            } catch let error as LogbookError where error.code == .conflict && externalLog != nil {
                // Only a lost race is retried: a conflict `build` found is final.
                guard error.sequence != nil, attempt < Self.conflictRetries else { throw error }
                attempt += 1
                try catchUpExternalLog()
            }
        }
    }
}
