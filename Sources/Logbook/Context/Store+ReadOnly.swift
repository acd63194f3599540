extension Store {
    // MARK: - Opening

    /// Checks a read-only store after its open: it cannot migrate, so the log's latest schema
    /// must be its models' (or the log must have recorded none yet).
    ///
    /// - Throws: ``LogbookError/Code/schemaMismatch`` naming both versions otherwise.
    func checkReadOnlySchema() throws(LogbookError) {
        guard let latest = replayed.latest, latest.fingerprint != fingerprint else { return }
        throw readOnlyMismatch(latest, sequence: nil)
    }

    /// The error of a read-only store whose log was written, or is now written, at a schema
    /// other than its models'.
    ///
    /// - Parameter sequence: Where the schema record is, when a catch-up met it.
    func readOnlyMismatch(_ latest: Event.SchemaRecord, sequence: UInt64?) -> LogbookError {
        LogbookError(
            .schemaMismatch,
            "the store \(location) is at schema \(latest.version) (fingerprint \(latest.fingerprint.prefix(12))), and this read-only container's models are schema \(schema.version) (fingerprint \(fingerprint.prefix(12))): a container that does not allow saving cannot migrate the store. Open it with the models it was written with, or let a writer migrate it first",
            path: location,
            sequence: sequence
        )
    }

    /// The last sequence number a store opened as of a token reads; `nil` for any other.
    var readLimit: UInt64? {
        if case .snapshot(_, let last) = sink { return last }
        return nil
    }

    // MARK: - Following

    /// Applies the batches the writer appended since this read-only store last looked, in
    /// order, each whole or not at all; a follower's contexts call it at every fetch.
    ///
    /// A batch the writer is still writing (or a crash tore) at the end of the log is not there
    /// yet: it ends the catch-up without an error, and a later one reads it once it is whole.
    /// Nothing is written to the store's directory.
    ///
    /// Does nothing for a store that writes its log (its own saves keep it current), in memory,
    /// or opened as of a token.
    ///
    /// - Throws: ``LogbookError/Code/schemaMismatch`` when the writer recorded a schema other
    ///   than this store's models' (it migrated the store): the store keeps the batches before
    ///   it and refuses every later catch-up with the same error.
    ///   ``LogbookError/Code/corruption`` for damage before the end of the log.
    func catchUp() throws(LogbookError) {
        guard case .follower(let reader) = sink else { return }
        try state.withLock { (state) throws(LogbookError) in
            if let failure = state.readFailure { throw failure }
            // From where the last catch-up stopped: starting from a sequence number would read
            // every batch header of the segment again at each fetch.
            var cursor = reader.batches(after: state.projection.lastSequence, resumingAt: state.followPoint)
            defer { state.followPoint = cursor.resumePoint ?? state.followPoint }
            var applied = false
            defer {
                if applied {
                    state.generation += 1
                    published.store(state.generation, ordering: .releasing)
                }
            }
            while let batch = try cursor.next() {
                var envelopes: [(sequence: UInt64, envelope: EventEnvelope)] = []
                envelopes.reserveCapacity(batch.count)
                for index in 0..<batch.count {
                    let sequence = batch.firstSequence + UInt64(index)
                    guard sequence > state.projection.lastSequence else { continue }
                    let envelope = try batch.resolvedEvent(at: index, sequence: sequence)
                    if case .schema(let record) = envelope.event, record.fingerprint != fingerprint {
                        let failure = readOnlyMismatch(record, sequence: sequence)
                        state.readFailure = failure
                        throw failure
                    }
                    envelopes.append((sequence, envelope))
                }
                var recorded = state.recorded
                do throws(LogbookError) {
                    for (sequence, envelope) in envelopes {
                        try Self.apply(envelope, to: &state, &recorded)
                        state.projection.lastSequence = sequence
                    }
                } catch {
                    // Part of a batch is applied: the objects no longer match any point of the
                    // log, so the store reads no further.
                    state.readFailure = error
                    applied = true
                    throw error
                }
                state.recorded = recorded
                Self.noteCurrentSchema(recorded, in: &state, fingerprint: fingerprint)
                applied = true
            }
        }
    }
}
