#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value that threads share, read and changed only while holding a `pthread_mutex_t`.
///
/// Logbook's shared state is guarded by this rather than by the standard library's `Mutex`.
/// On Linux, `Mutex` waits with futex calls made inside the Synchronization library, which
/// ThreadSanitizer does not instrument: it could not see that the lock orders two accesses and
/// reported races inside `withLock` that the lock prevents. A POSIX mutex is one ThreadSanitizer
/// knows, so its reports are about real races only. Uncontended, both cost an atomic operation
/// to take and one to release.
///
/// The mutex lives in memory of its own, allocated once, because a `pthread_mutex_t` must not
/// move while it is in use.
package final class Locked<Value: ~Copyable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    package init(_ value: consuming Value) {
        self.value = value
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed with error \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value while holding the lock, and returns what it returns.
    ///
    /// `body` must not take the same lock again: the mutex is not recursive.
    package func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
