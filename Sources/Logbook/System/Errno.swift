#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A POSIX error number returned by a system call.
package struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    /// The raw `errno` value.
    package var rawValue: Int32

    package init(_ rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The calling thread's current `errno`.
    package static var current: Errno { Errno(errno) }

    package static let interrupted = Errno(EINTR)
    package static let wouldBlock = Errno(EWOULDBLOCK)
    package static let noSpace = Errno(ENOSPC)
    package static let ioError = Errno(EIO)
    package static let exists = Errno(EEXIST)
    package static let noEntry = Errno(ENOENT)
    package static let notADirectory = Errno(ENOTDIR)
    package static let tooManySymbolicLinks = Errno(ELOOP)
    package static let isADirectory = Errno(EISDIR)

    package var description: String {
        guard let text = strerror(rawValue) else { return "errno \(rawValue)" }
        return "\(String(cString: text)) (errno \(rawValue))"
    }
}
