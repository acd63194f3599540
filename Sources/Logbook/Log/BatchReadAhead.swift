import Dispatch
import Synchronization

/// Reads a cursor's next batch on another thread while the caller works on the current one:
/// reading, checking and decompressing a batch then costs a replay no time of its own when a
/// second core is free.
///
/// Batches and errors come out in the cursor's order, exactly as ``BatchCursor/next()`` gives
/// them; one batch at most is read ahead. Iteration ends at the first `nil`: a cursor that
/// waits for a writer to append more (as `logbook tail` does) should be used directly.
///
/// `prepare` runs on the reading thread too, on each batch it reads: a replay decodes the
/// batch's inserts there (``InsertPredecoder``). It can ask whether the caller is waiting for
/// the batch already (``ReadAheadCaller``), and then stop and hand over what it has, leaving
/// the rest of the work to the caller, whose thread would otherwise sit idle.
final class BatchReadAhead<Prepared: Sendable>: @unchecked Sendable {
    // `cursor` is only touched by one thread at a time: by the work reading the next batch,
    // or by the caller of `next()` once it has waited for that work to finish.
    private var cursor: BatchCursor?
    private var reading: BackgroundWork<(Batch, Prepared)?>?
    private var isFinished = false
    private let prepare: @Sendable (Batch, ReadAheadCaller) -> Prepared
    private let caller = ReadAheadCaller()

    init(_ cursor: BatchCursor, prepare: @escaping @Sendable (Batch, ReadAheadCaller) -> Prepared) {
        self.cursor = cursor
        self.prepare = prepare
    }

    /// The next batch, or `nil` at the end of the log.
    ///
    /// - Throws: what ``BatchCursor/next()`` throws, at the same batch.
    func next() throws(LogbookError) -> (Batch, Prepared)? {
        guard !isFinished else { return nil }
        let batch: (Batch, Prepared)?
        if let reading {
            self.reading = nil
            caller.set(true)
            defer { caller.set(false) }
            do {
                batch = try reading.value()
            } catch let error as LogbookError {
                finish()
                throw error
            } catch {
                preconditionFailure("a batch cursor throws only LogbookError: \(error)")
            }
        } else {
            do {
                batch = try cursor?.next().map { ($0, prepare($0, ReadAheadCaller.waiting)) }
            } catch {
                finish()
                throw error
            }
        }
        guard let batch else {
            finish()
            return nil
        }
        reading = BackgroundWork(on: DispatchQueue.global(qos: .userInitiated)) { [self] in
            try cursor?.next().map { [caller] in ($0, prepare($0, caller)) }
        }
        return batch
    }

    /// Waits for a batch being read ahead, if any, and closes the cursor's file: call it when
    /// stopping before the end, so that no segment stays open behind the caller's back.
    func finish() {
        if let reading {
            self.reading = nil
            _ = try? reading.value()
        }
        isFinished = true
        cursor = nil
    }
}

/// Whether the caller of ``BatchReadAhead/next()`` is waiting for the batch being read and
/// prepared.
final class ReadAheadCaller: Sendable {
    private let flag: Atomic<Bool>

    init(waiting: Bool = false) {
        flag = Atomic(waiting)
    }

    /// A caller that always waits: the one that reads the first batch itself.
    static let waiting = ReadAheadCaller(waiting: true)

    /// Whether the caller waits now.
    var isWaiting: Bool { flag.load(ordering: .relaxed) }

    fileprivate func set(_ waiting: Bool) { flag.store(waiting, ordering: .relaxed) }
}

extension BatchReadAhead where Prepared == Void {
    /// Reads ahead with nothing more to do on each batch.
    convenience init(_ cursor: BatchCursor) {
        self.init(cursor) { _, _ in }
    }
}
