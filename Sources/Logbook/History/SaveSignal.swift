/// Wakes the followers of a store's history when a save of this process appends to it.
///
/// One signal per store directory, for the life of the process (``shared(for:)``), so that a
/// feed needs no container to be woken: it holds only the directory.
final class SaveSignal: Sendable {
    private struct State {
        /// Counts the appends notified so far.
        var generation: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        /// Waiters woken (by their timeout or cancellation) before they were registered.
        var woken: Set<UInt64> = []
        /// Waiters between the start and the end of their ``wait(after:timeout:)``.
        var pending: Set<UInt64> = []
        var lastWaiter: UInt64 = 0
    }

    private let state = Locked(State())
    private static let signals = Locked<[String: SaveSignal]>([:])

    /// The signal of the store in `directory`.
    static func shared(for directory: String) -> SaveSignal {
        signals.withLock { signals in
            if let signal = signals[directory] { return signal }
            let signal = SaveSignal()
            signals[directory] = signal
            return signal
        }
    }

    /// The number of appends notified so far.
    var generation: UInt64 {
        state.withLock { $0.generation }
    }

    /// Wakes every waiter: an append is in the log.
    func notify() {
        let waiters = state.withLock { state in
            state.generation += 1
            let waiters = Array(state.waiters.values)
            state.waiters = [:]
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once an append is notified after `generation` was read, once `timeout` has
    /// passed, or once the task is cancelled, whichever comes first.
    func wait(after generation: UInt64, timeout: Duration) async {
        let id = state.withLock { state in
            state.lastWaiter += 1
            state.pending.insert(state.lastWaiter)
            return state.lastWaiter
        }
        let timer = Task { [self] in
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            wake(id)
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.generation != generation || state.woken.remove(id) != nil { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            wake(id)
        }
        timer.cancel()
        state.withLock { state in
            state.pending.remove(id)
            state.woken.remove(id)
        }
    }

    private func wake(_ id: UInt64) {
        let waiter = state.withLock { state in
            guard let waiter = state.waiters.removeValue(forKey: id) else {
                if state.pending.contains(id) { state.woken.insert(id) }
                return CheckedContinuation<Void, Never>?.none
            }
            return waiter
        }
        waiter?.resume()
    }
}
