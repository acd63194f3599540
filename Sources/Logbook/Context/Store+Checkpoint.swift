import Logging

extension Store {
    /// Where a replay starts: after the checkpoint loaded, if any.
    struct CheckpointStart {
        /// The first sequence number to replay.
        var first: UInt64 = 1
        /// The schema records and markers of the log up to the checkpoint.
        var replayed = Replayed()
        /// The bytes of the log the checkpoint covers; 0 without one.
        var logBytes: UInt64 = 0
        /// Where the batch after the checkpoint's begins, so that the replay of the rest starts
        /// there instead of reading the batch headers before it.
        var resume: BatchCursor.ResumePoint?
        /// Whether a checkpoint was found and ignored: a store that writes checkpoints by
        /// itself then writes a fresh one, so that the next open neither warns nor replays again.
        var ignoredOne = false
        /// Where the loaded checkpoint's values found damaged on read come from, if one was
        /// loaded.
        var recovery: CheckpointRecovery?
    }

    /// The log a checkpoint is loaded for: a writer's, or a read-only container's.
    struct CheckpointSource {
        var directory: String
        var syscalls: any Syscalls
        var maximumBatchSize: Int
        /// The log's last sequence number, when the writer knows it; a read-only container
        /// relies on the check of the batch the checkpoint names.
        var logEnd: UInt64?
        /// The last sequence number the open may hold: a checkpoint after it is skipped.
        var limit: UInt64 = .max
        /// Whether a value kept in a file is loaded as its ``ExternalPlaceholder``, its file
        /// unread: for a store that keeps values in files, whose reads resolve them.
        var keepsExternalReferences = false

        init(_ log: EventLog) {
            directory = log.directory
            syscalls = log.configuration.syscalls
            maximumBatchSize = log.configuration.maximumBatchSize
            logEnd = log.nextSequence &- 1
            keepsExternalReferences = log.configuration.external == nil
        }

        init(readOnly reader: LogReader, limit: UInt64) {
            directory = reader.directory
            syscalls = reader.syscalls
            maximumBatchSize = reader.maximumBatchSize
            logEnd = nil
            self.limit = limit
        }
    }

    // MARK: - Loading

    /// Loads the newest checkpoint of the store that passes its checks into `state`, and
    /// says where the replay goes on. A checkpoint that fails one of its own checks, or was
    /// written for another store or schema, is ignored with a warning, and the next older one
    /// is tried; without one, the replay starts at the beginning.
    ///
    /// - Throws: ``LogbookError/Code/corruption`` when the log does not reach the batch a
    ///   sound checkpoint ends at, or holds another batch there: acknowledged saves were lost.
    ///   ``LogbookError/Code/outOfMemory`` when the checkpoint's values do not fit.
    static func startFromCheckpoint(
        of log: CheckpointSource,
        schema: Schema,
        history: [Schema],
        into state: inout State,
        logger: Logger
    ) throws(LogbookError) -> CheckpointStart {
        let syscalls = log.syscalls
        let entries: [CheckpointFiles.Entry]
        do throws(LogbookError) {
            entries = try CheckpointFiles.list(in: log.directory, syscalls: syscalls)
        } catch {
            logger.warning("ignored the store's checkpoints: \(error)", metadata: ["store": "\(log.directory)"])
            return CheckpointStart()
        }
        guard !entries.isEmpty else { return CheckpointStart() }
        let identity = try? CheckpointFiles.storeIdentity(of: log.directory, syscalls: syscalls)
        let fingerprint = schema.fingerprint.bytes
        let historyFingerprint = CheckpointFiles.historyFingerprint(of: schema, history: history)
        var ignoredOne = false
        for entry in entries {
            func ignore(_ reason: String) {
                ignoredOne = true
                logger.warning(
                    "ignored checkpoint \(entry.path): \(reason); replaying the log instead",
                    metadata: ["checkpoint": "\(entry.path)", "reason": "\(reason)"]
                )
            }
            let reader: CheckpointReader
            do throws(LogbookError) {
                reader = try CheckpointReader(path: entry.path, syscalls: syscalls, checking: .onFirstRead)
            } catch {
                ignore("\(error)")
                continue
            }
            let header = reader.header
            guard header.sequence <= log.limit else {
                logger.debug(
                    "skipped checkpoint \(entry.path): it is after sequence \(log.limit)",
                    metadata: ["checkpoint": "\(entry.path)"]
                )
                continue
            }
            guard header.sequence == entry.sequence else {
                ignore("its header says sequence \(header.sequence), its name \(entry.sequence)")
                continue
            }
            if let identity, identity != header.storeIdentity {
                ignore(
                    "written for another store (first batch checksum 0x\(String(header.storeIdentity, radix: 16)), this store's is 0x\(String(identity, radix: 16)))"
                )
                continue
            }
            guard header.schemaFingerprint == fingerprint else {
                ignore("written at another schema (\(header.schemaVersion))")
                continue
            }
            guard header.historyFingerprint == historyFingerprint else {
                ignore("written with another schema history")
                continue
            }
            let loaded: CheckpointReader.Loaded
            let recovery = recovery(for: reader, of: log, schema: schema, history: history, logger: logger)
            do throws(LogbookError) {
                loaded = try reader.load(
                    schema: schema,
                    history: history,
                    valueBytesLimit: state.projection.valueBytesLimit,
                    keepingExternalReferences: log.keepsExternalReferences,
                    recovery: recovery
                )
            } catch  where error.code == .outOfMemory {
                throw error
            } catch {
                ignore("\(error)")
                continue
            }
            // A sound checkpoint of this store: the log must reach the batch it ends at.
            let resume = try checkLog(of: log, reaches: header, path: entry.path)
            state.projection = loaded.projection
            state.lastSchemaNumber = loaded.lastSchemaNumber
            var replayed = Replayed()
            replayed.latest = loaded.schemas.latest
            replayed.numbers = loaded.schemas.numbers
            replayed.markers = loaded.schemas.markers
            logger.debug(
                "opened from checkpoint \(entry.path)",
                metadata: ["sequence": "\(header.sequence)"]
            )
            return CheckpointStart(
                first: header.sequence + 1,
                replayed: replayed,
                logBytes: header.logBytes,
                resume: resume,
                ignoredOne: ignoredOne,
                recovery: recovery
            )
        }
        return CheckpointStart(ignoredOne: ignoredOne)
    }

    /// What replaces the values of `reader`'s checkpoint that turn out damaged when first read:
    /// a replay of `log` up to the checkpoint's sequence number, made when one is first needed.
    private static func recovery(
        for reader: CheckpointReader,
        of log: CheckpointSource,
        schema: Schema,
        history: [Schema],
        logger: Logger
    ) -> CheckpointRecovery {
        let sequence = reader.header.sequence
        let (directory, syscalls) = (log.directory, log.syscalls)
        let (maximumBatchSize, keepsReferences) = (log.maximumBatchSize, log.keepsExternalReferences)
        return CheckpointRecovery(path: reader.path, sequence: sequence, logger: logger) {
            () throws(LogbookError) -> Projection in
            var state = State(projection: Projection(schema: schema, history: history))
            _ = try replay(
                LogReader(directory: directory, maximumBatchSize: maximumBatchSize, syscalls: syscalls),
                through: sequence,
                into: &state,
                fingerprint: schema.fingerprint.hexString,
                keepingExternalReferences: keepsReferences
            )
            guard state.projection.lastSequence == sequence else {
                throw LogbookError(
                    .corruption,
                    "the log ends at sequence \(state.projection.lastSequence), before the checkpoint's \(sequence)",
                    path: directory
                )
            }
            return state.projection
        }
    }

    /// Checks that the log reaches the batch a checkpoint ends at, with its checksum.
    private static func checkLog(
        of log: CheckpointSource,
        reaches header: CheckpointHeader,
        path: String
    ) throws(LogbookError) -> BatchCursor.ResumePoint {
        let point = header.point(source: path)
        if let logEnd = log.logEnd, logEnd < header.sequence {
            throw LogbookError(
                .corruption,
                "the log ends at sequence \(logEnd), before the batch at \(point): acknowledged saves are missing; nothing was changed; run `logbook salvage` to copy the sound batches to a new store",
                path: log.directory,
                sequence: logEnd &+ 1
            )
        }
        let segments = try SegmentDirectory.segments(in: log.directory, syscalls: log.syscalls)
        return try DurablePointCheck(point).checkInPlace(
            segments: segments,
            maximumBatchSize: log.maximumBatchSize,
            syscalls: log.syscalls
        )
    }

    // MARK: - Writing

    /// What a checkpoint is built from: the objects as of the log's last batch, taken under
    /// the store's lock, and laid out into the file after it is released.
    private struct Snapshot {
        var header: CheckpointHeader
        var projection: Projection
        var lastSchemaNumber: UInt32
        var schemas: CheckpointEncoder.Schemas
    }

    /// Writes a checkpoint of the store at its last batch, and removes all but the two newest.
    ///
    /// Saves wait only while the objects are taken: the projection is a value whose tables
    /// share their memory with the copy taken, so taking it costs no copy. The save that next
    /// changes a table while the file is being built copies that table once (see
    /// ``ValueColumn/reserve(adding:limit:)``); that is the time a save waits for a checkpoint.
    ///
    /// - Returns: The checkpoint's path; `nil` for a store in memory or an empty log.
    /// - Throws: ``LogbookError`` when the log cannot be made durable or the file cannot be
    ///   written; the store is then as it was.
    @discardableResult
    func writeCheckpoint() throws(LogbookError) -> String? {
        guard let log else { return nil }
        return try checkpoints.serialized { () throws(LogbookError) -> String? in
            let syscalls = log.configuration.syscalls
            guard let snapshot = try takeSnapshot(of: log) else { return nil }
            // Large values of `.externalStorage` attributes as references to their files.
            let image = try CheckpointEncoder.encode(
                snapshot.header,
                snapshot.projection,
                lastSchemaNumber: snapshot.lastSchemaNumber,
                schemas: snapshot.schemas,
                external: hasExternalStorageAttributes ? externalStorage : nil
            )
            let path = try CheckpointFiles.write(
                image,
                sequence: snapshot.header.sequence,
                in: log.directory,
                syscalls: syscalls
            )
            lastCheckpoint.withLock { $0 = max($0, snapshot.header.logBytes) }
            // Its values were read sound, or from the log where the loaded one was damaged.
            loadedCheckpoint.withLock { $0?.noteReplaced() }
            for removed in CheckpointFiles.prune(in: log.directory, syscalls: syscalls) {
                logger.debug("removed an older checkpoint", metadata: ["checkpoint": "\(removed)"])
            }
            if sharesCheckpoints { shareCheckpoint(sequence: snapshot.header.sequence, bytes: image.contiguous()) }
            return path
        }
    }

    /// Takes what a checkpoint holds, under the store's lock.
    private func takeSnapshot(of log: EventLog) throws(LogbookError) -> Snapshot? {
        let syscalls = log.configuration.syscalls
        let historyFingerprint = CheckpointFiles.historyFingerprint(of: schema, history: history)
        return try inspect { (state) throws(LogbookError) -> Snapshot? in
            guard let point = try log.durableLastBatch(), let location = point.location else { return nil }
            guard state.projection.lastSequence == point.sequence else {
                throw LogbookError(
                    .invalidArgument,
                    "the objects are at sequence \(state.projection.lastSequence), the log at \(point.sequence): no checkpoint written",
                    path: location.description(in: log.directory)
                )
            }
            let header = CheckpointHeader(
                version: CheckpointFormat.version,
                sequence: point.sequence,
                batchChecksum: point.checksum,
                segmentFirstSequence: location.segmentFirstSequence,
                batchOffset: location.offset,
                logBytes: try CheckpointFiles.logBytes(of: log.directory, syscalls: syscalls),
                storeIdentity: try CheckpointFiles.storeIdentity(of: log.directory, syscalls: syscalls) ?? 0,
                schemaFingerprint: schema.fingerprint.bytes,
                historyFingerprint: historyFingerprint,
                schemaVersion: schema.version
            )
            var schemas = CheckpointEncoder.Schemas()
            schemas.latest = state.recorded.latest
            schemas.numbers = state.recorded.numbers
            schemas.markers = state.recorded.markers
            return Snapshot(
                header: header,
                projection: state.projection,
                lastSchemaNumber: state.lastSchemaNumber,
                schemas: schemas
            )
        }
    }

    /// Whether the log has grown by more than the configured interval since the newest
    /// checkpoint: its size at the open plus the bytes appended since, against the size the
    /// newest checkpoint recorded. False when no interval is set or the store has no log.
    var checkpointIsDue: Bool {
        hasGrown(by: checkpointInterval) || damagedCheckpointNeedsReplacing
    }

    /// Whether a value of the loaded checkpoint was found damaged on read, and no checkpoint
    /// written since, for a store that writes checkpoints by itself: the next one is due at
    /// once, so that the next open does not meet the damage and replay the log again.
    private var damagedCheckpointNeedsReplacing: Bool {
        guard checkpointInterval > 0, log != nil else { return false }
        return loadedCheckpoint.withLock { $0?.needsReplacing ?? false }
    }

    /// Whether the log has grown by more than a quarter of the configured interval since the
    /// newest checkpoint: the store's last container then writes one as it goes, so that the
    /// next open replays at most that much. A running process leaves up to the interval to
    /// its background writes; a closing one has the time to spare, and its next open is the
    /// one the user waits for.
    var checkpointIsDueAtClose: Bool {
        hasGrown(by: checkpointInterval / 4) || damagedCheckpointNeedsReplacing
    }

    private func hasGrown(by bytes: Int) -> Bool {
        guard checkpointInterval > 0, let log else { return false }
        let logBytes = checkpoints.logBytesAtOpen &+ log.appendedBytes
        return logBytes > lastCheckpoint.withLock({ $0 }) &+ UInt64(bytes)
    }

    /// Starts a checkpoint in the background when the log has grown by more than the
    /// configured interval since the newest one and none is being written: after a save, and
    /// after an open. A failure is logged; the next save tries again.
    func startCheckpointIfDue() {
        guard checkpointIsDue else { return }
        startCheckpoint()
    }

    /// Starts a checkpoint in the background after an open: when the log has grown by more
    /// than the configured interval since the newest checkpoint, or when the open ignored a
    /// checkpoint (damaged, of another schema or store), which a fresh one replaces. Nothing
    /// without an interval.
    ///
    /// Called by the container once the store is the one it keeps, not by the store's own
    /// open: an open without a plan may replay a store only to look at it, at a history that
    /// does not rename as the log needs, and a checkpoint of those objects would be wrong.
    func startCheckpointAfterOpen() {
        guard checkpointInterval > 0, log != nil else { return }
        let ignoredOne = ignoredCheckpoint.withLock { ignored in
            defer { ignored = false }
            return ignored
        }
        if ignoredOne || checkpointIsDue { startCheckpoint() }
    }

    /// Starts a checkpoint in the background after a migration appended its stages, whatever
    /// the configured interval: the log was just replayed through the upcasters, and a
    /// checkpoint at the new schema spares the next open that work. Checkpoints written at the
    /// old schema are never loaded again, so this is the only way the next open can skip the
    /// replay. A failure is logged; the store works as without it.
    func startCheckpointAfterMigration() {
        guard log != nil else { return }
        // This one replaces any checkpoint the open ignored.
        ignoredCheckpoint.withLock { $0 = false }
        startCheckpoint()
    }

    /// Runs ``writeCheckpoint()`` on the checkpoint queue unless one is running, logging a
    /// failure.
    private func startCheckpoint() {
        checkpoints.startIfIdle { [self] in
            do throws(LogbookError) {
                try writeCheckpoint()
            } catch {
                logger.warning(
                    "could not write a checkpoint in the background: \(error)",
                    metadata: ["store": "\(location)"]
                )
            }
        }
    }

    /// Waits for a checkpoint being written in the background, writes one if the log grew by
    /// more than a quarter of the configured interval since the newest one
    /// (``checkpointIsDueAtClose``), then closes the store: what the last container of a store
    /// does as it goes. A failure to write the checkpoint is logged; the store closes all the
    /// same.
    func closeAfterUse() {
        checkpoints.close()
        if checkpointIsDueAtClose {
            do throws(LogbookError) {
                try writeCheckpoint()
            } catch {
                logger.warning(
                    "could not write a checkpoint as the store closed: \(error)",
                    metadata: ["store": "\(location)"]
                )
            }
        }
        close()
    }

    /// Notes a schema record or migration marker in what checkpoints keep of the log.
    static func record(_ envelope: EventEnvelope, in recorded: inout Replayed) {
        switch envelope.event {
        case .schema(let record):
            recorded.latest = record
            recorded.numbers[record.fingerprint] = record.number
        case .migration(let marker):
            recorded.markers.append(marker)
        default:
            break
        }
    }
}

extension DurablePoint.Location {
    /// The segment's path, for messages.
    fileprivate func description(in directory: String) -> String {
        SegmentDirectory.join(directory, SegmentDirectory.fileName(forFirstSequence: segmentFirstSequence))
    }
}
