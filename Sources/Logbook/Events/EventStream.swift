/// Decodes every event of a store in order: the one loop that replay, the tool and
/// verification share.
package enum EventStream {
    /// Calls `body` with each event's sequence number and decoded envelope, up to `last`.
    ///
    /// - Parameter shortcut: Offered each event's bytes first; when it returns `true` it has
    ///   dealt with the event, which is then neither decoded nor handed to `body`.
    /// - Throws: ``LogbookError`` for damaged batches, and for an event that does not decode,
    ///   naming its segment, the batch's byte offset and the event's sequence number; or what
    ///   `body` throws.
    package static func forEach(
        _ reader: LogReader,
        from first: UInt64 = 1,
        through last: UInt64 = .max,
        shortcut: (UInt64, UnsafeRawBufferPointer) -> Bool = { _, _ in false },
        _ body: (UInt64, EventEnvelope) throws -> Void
    ) throws {
        try forEach(reader, from: first, through: last, predecoder: nil, shortcut: shortcut, body)
    }

    /// ``forEach(_:from:through:shortcut:_:)`` for a replay: the inserts `predecoder` takes are
    /// decoded on the thread that reads the batches, and handed to `predecoded` with their
    /// sequence number, instead of to `shortcut` or `body`. When `predecoded` returns `false`,
    /// having changed nothing, the event's bytes go to `shortcut` and `body` after all.
    ///
    /// A batch's predecoding stops once the replaying thread waits for the batch, which then
    /// decodes the rest in order while the other thread reads and decodes the next batch: so
    /// neither core idles while the other works through the inserts. With
    /// `yieldingToTheReplay` false, every batch is predecoded whole. With `resume`, where the
    /// batch of `first` begins, reading starts there.
    ///
    /// The fast paths cannot throw: they decline what they cannot apply (a projection declines
    /// an insert it has no memory for), and `body`, given the decoded event, throws the error. A
    /// throwing closure in the loop made the optimiser retain and copy more around every event:
    /// 2.4% more instructions in a migration's open.
    static func forEach(
        _ reader: LogReader,
        from first: UInt64 = 1,
        resumingAt resume: BatchCursor.ResumePoint? = nil,
        through last: UInt64 = .max,
        predecoder: InsertPredecoder?,
        yieldingToTheReplay: Bool = true,
        keepingExternalReferences: Bool = false,
        predecoded: (UInt64, DirectInserts, Int) -> Bool = { _, _, _ in true },
        shortcut: (UInt64, UnsafeRawBufferPointer) -> Bool = { _, _ in false },
        _ body: (UInt64, EventEnvelope) throws -> Void
    ) throws {
        let cursor = resume.map { $0.nextSequence == first ? reader.batches(resumingAt: $0) : nil } ?? nil
        let batches = BatchReadAhead(cursor ?? reader.batches(from: first)) { batch, caller -> PredecodedInserts? in
            guard let predecoder, predecoder.isOn?.isOn ?? true else { return nil }
            let replayWaits = { yieldingToTheReplay && caller.isWaiting }
            // Waited for already: nothing to record the inserts in, the replay decodes them all.
            if replayWaits() { return nil }
            return predecoder.predecode(batch, until: replayWaits)
        }
        defer { batches.finish() }
        let externals = ExternalFiles(storeDirectory: reader.directory, syscalls: reader.syscalls)
        while case (let batch, var decoded)? = try batches.next() {
            defer { dropInBackground(decoded.take()) }
            for index in 0..<batch.count {
                let sequence = batch.firstSequence + UInt64(index)
                if sequence < first { continue }
                if sequence > last { return }
                if let decoded, decoded.positions[index] >= 0,
                    predecoded(sequence, decoded.inserts, decoded.positions[index])
                {
                    continue
                }
                let bytes = batch.event(at: index)
                if bytes.withUnsafeBytes({ shortcut(sequence, $0) }) { continue }
                var envelope: EventEnvelope
                do {
                    envelope = try EventCodec.decode(bytes)
                } catch {
                    var located = error
                    located.path = batch.segment
                    located.offset = batch.offset
                    located.sequence = sequence
                    throw located
                }
                if keepingExternalReferences {
                    envelope = envelope.withExternalPlaceholders
                } else {
                    // The values kept in files beside the log, read in: the error names the file.
                    do {
                        envelope = try externals.resolve(envelope)
                    } catch {
                        var located = error
                        located.sequence = sequence
                        throw located
                    }
                }
                try body(sequence, envelope)
            }
        }
    }
}

/// Frees a batch's decoded inserts on another thread: their values, all moved out by a replay,
/// were still destroyed one by one through the generic array code, a fiftieth of the replaying
/// thread's work.
private func dropInBackground(_ inserts: consuming PredecodedInserts?) {
    guard let inserts else { return }
    let leftovers = Leftovers()
    leftovers.keep(inserts)
    leftovers.dropInBackground(trimmingMemory: false)
}

extension Projection {
    /// The projection of a store as of a sequence number, at the newest schema recorded by
    /// then, with nothing but the log: what `logbook replay` shows.
    ///
    /// - Returns: the projection, or `nil` for a store that recorded no schema.
    package static func replaying(_ reader: LogReader, through last: UInt64 = .max) throws -> Projection? {
        let records = try RecordedSchemas.scan(reader, through: last)
        guard let latest = records.last else { return nil }
        var projection = Projection(schema: latest.schema, history: records.dropLast().map(\.schema))
        try EventStream.forEach(
            reader,
            through: last,
            predecoder: InsertPredecoder.forReplay(of: projection),
            predecoded: { projection.applyInsert($1, at: $2, sequence: $0, takingValues: true) != nil },
            shortcut: { projection.applyChange($1, sequence: $0) },
            { sequence, envelope in
                try projection.apply(envelope.event)
                projection.lastSequence = sequence
            }
        )
        return projection
    }
}
