import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a running process's output until it contains a text or a deadline passes, without ever
/// blocking past the deadline (a plain `availableData` would wait forever for a process that
/// prints nothing).
func readOutput(of pipe: Pipe, until text: String, timeout: TimeInterval) -> String {
    let descriptor = pipe.fileHandleForReading.fileDescriptor
    let deadline = Date().addingTimeInterval(timeout)
    var seen: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    while !String(decoding: seen, as: UTF8.self).contains(text) {
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0 else { break }
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&request, 1, Int32(min(remaining, 1) * 1_000))
        if ready < 0 && errno != EINTR { break }
        guard ready > 0 else { continue }
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count <= 0 { break }  // end of output
        seen += buffer[..<count]
    }
    return String(decoding: seen, as: UTF8.self)
}
