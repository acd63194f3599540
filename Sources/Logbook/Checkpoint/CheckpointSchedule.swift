import Dispatch

/// When a store writes checkpoints by itself, and one at a time.
///
/// A store with a ``ModelConfiguration/checkpointInterval`` starts a checkpoint in the
/// background once its log has grown by that much since the newest one: after a save, and
/// right after an open that replayed that much. The write runs on a queue of its own, so the
/// save that started it returns at once. Every write, in the background or on request, holds
/// ``serialized(_:)``, so that two never build the same file at once; a background write
/// that finds one running is not started. The store waits for a running write as it closes
/// (``close()``), before it closes its log.
final class CheckpointSchedule: Sendable {
    private struct State {
        var running = false
        var closed = false
    }

    /// The bytes of the log when the store opened: with what the log appended since, how far
    /// it is from the newest checkpoint.
    let logBytesAtOpen: UInt64
    private let state = Locked(State())
    /// Held by each write, from the snapshot of the objects to the file's rename.
    private let writing = Locked(())
    private let idle = DispatchGroup()
    private let queue = DispatchQueue(label: "Logbook checkpoints", qos: .utility)

    init(logBytesAtOpen: UInt64 = 0) {
        self.logBytesAtOpen = logBytesAtOpen
    }

    /// Runs `work` on the checkpoint queue, unless a background write is running or the store
    /// is closing.
    ///
    /// - Returns: Whether `work` was started.
    @discardableResult
    func startIfIdle(_ work: @escaping @Sendable () -> Void) -> Bool {
        let starts = state.withLock { state in
            guard !state.running, !state.closed else { return false }
            state.running = true
            return true
        }
        guard starts else { return false }
        idle.enter()
        queue.async { [self] in
            work()
            state.withLock { $0.running = false }
            idle.leave()
        }
        return true
    }

    /// Runs a write while no other runs.
    func serialized<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        try writing.withLock { (_: inout Void) throws(Failure) -> Result in try body() }
    }

    /// Starts no more background writes, and waits for the one running, if any.
    func close() {
        state.withLock { $0.closed = true }
        idle.wait()
    }
}
