#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The exclusive lock a writer holds on a store: `flock` on the store's `LOCK` file.
///
/// The lock belongs to the open file description, so it is released when the descriptor is
/// closed, explicitly or because the process ended, however it ended.
package final class StoreLock {
    private let file: SystemFile
    private var isHeld = true

    /// Takes the lock of the store in `directory`, waiting at most `timeout` seconds.
    ///
    /// A short wait matters even when no other writer exists: a process that forks (to run
    /// another program) gives the child a copy of every descriptor, the lock's included, until
    /// the child calls `exec`; a writer reopening the store in that instant would otherwise be
    /// refused.
    ///
    /// - Throws: ``LogbookError/Code/storeLocked`` when another writer holds it.
    package init(directory: String, timeout: Double, syscalls: any Syscalls) throws(LogbookError) {
        let path = SegmentDirectory.join(directory, LogFormat.lockFileName)
        let file = try SystemFile.open(path, flags: O_RDWR | O_CREAT, mode: 0o644, syscalls: syscalls)
        var locked = false
        do throws(LogbookError) {
            let deadline = monotonicSeconds() + timeout
            locked = try file.tryLockExclusive()
            while !locked && monotonicSeconds() < deadline {
                usleep(2_000)
                locked = try file.tryLockExclusive()
            }
        } catch {
            file.close()
            throw error
        }
        guard locked else {
            file.close()
            throw LogbookError(
                .storeLocked,
                "the store \(directory) is already open for writing by another process or container",
                path: path
            )
        }
        self.file = file
    }

    /// Releases the lock. Calling it again does nothing.
    package func release() {
        guard isHeld else { return }
        isHeld = false
        file.close()
    }

    deinit {
        release()
    }
}

private func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
