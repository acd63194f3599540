import CMemoryHints
import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Work that runs on another thread while the caller goes on, and whose result the caller
/// waits for once it needs it: a migration's stages run while the caller replays the log at
/// the final schema; a large save's batch is appended to the log while the caller applies it
/// to the projection.
///
/// A migration's work gets a thread of its own rather than one of a shared pool's: the caller
/// blocks until the work is done, and may itself hold a thread of such a pool (a task does), so
/// the work's progress should not depend on one. The thread is named for debuggers. Short,
/// frequent work goes to a serial dispatch queue instead, whose threads the system adds as
/// needed.
final class BackgroundWork<Value: Sendable>: Sendable {
    private let finished = DispatchSemaphore(value: 0)
    private let outcome = Locked<Result<Value, any Error>?>(nil)

    /// Starts `work` at once on a new thread, with a stack as large as the main thread's
    /// usually is (8 MiB), since it runs the application's migration closures.
    init(_ work: @escaping @Sendable () throws -> Value) {
        let thread = Thread { [self] in run(work) }
        thread.name = "Logbook migration stages"
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Starts `work` at once on `queue`.
    init(on queue: DispatchQueue, _ work: @escaping @Sendable () throws -> Value) {
        queue.async { [self] in run(work) }
    }

    private func run(_ work: () throws -> Value) {
        let result = Result { try work() }
        outcome.withLock { $0 = result }
        finished.signal()
    }

    /// Waits until the work has finished, then returns its value or throws its error. Call it
    /// once.
    func value() throws -> Value {
        finished.wait()
        guard let result = outcome.withLock({ $0.take() }) else {
            preconditionFailure("the result of background work was taken twice")
        }
        return try result.get()
    }
}

/// Values whose release is handed to another thread: freeing a large projection, or the
/// models of a large context, takes a noticeable part of a second, which the caller need not
/// wait for.
final class Leftovers: @unchecked Sendable {
    // Only touched by the thread that keeps values, then by the one that drops them, after
    // the first has handed them over; never by both at once. The other thread only releases
    // them: an object that something else still holds is not freed there, and one that nothing
    // else holds has no other thread to race with.
    private var values: [Any] = []
    /// The drops handed to another thread and not finished yet.
    private static let inFlight = DispatchGroup()

    /// A queue that releases one drop at a time, in the order they were handed over.
    static let serialQueue = DispatchQueue(label: "Logbook releases", qos: .utility)

    /// Waits until every value handed to another thread so far has been released there.
    static func waitForDrops() {
        inFlight.wait()
    }

    /// Keeps `value` alive until ``dropInBackground(trimmingMemory:)``.
    func keep(_ value: Any) {
        values.append(value)
    }

    /// glibc's `malloc_trim`, through a C shim: the C library's module does not export it, and
    /// other C libraries do not have it.
    private static func trimAllocator() {
        logbook_trim_allocator()
    }

    /// Releases what was kept on another thread, then, with `trimmingMemory`, hands the freed
    /// memory back to the system. The caller must hold no other reference to the values for
    /// the release to happen there.
    ///
    /// - Parameter queue: Where to release them: by default any thread of the utility queue.
    ///   Drops that must not run at once, such as the parts of one context's models, which two
    ///   threads freed more slowly than one, share a serial queue (``serialQueue``).
    func dropInBackground(trimmingMemory: Bool = true, on queue: DispatchQueue = .global(qos: .utility)) {
        queue.async(group: Self.inFlight) { [self] in
            values.removeAll()
            // The allocator keeps freed memory for reuse, and memory freed in another thread's
            // arena is rarely reused by the caller's: without this, a process keeps the stage's
            // projection resident for as long as it runs.
            if trimmingMemory { Self.trimAllocator() }
        }
    }
}
