#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The resident memory of the current process.
public enum ProcessMemory {
    /// The peak resident set size since the process started, in bytes.
    ///
    /// On Linux it is `VmHWM` of `/proc/self/status`; elsewhere, or if that file cannot be read,
    /// `getrusage`'s `ru_maxrss` (kilobytes on Linux, bytes on Darwin).
    public static func peakResidentBytes() -> Int {
        if let kilobytes = statusField("VmHWM:") {
            return kilobytes * 1024
        }
        var usage = rusage()
        #if canImport(Glibc)
        let who = __rusage_who_t(RUSAGE_SELF.rawValue)
        #else
        let who = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return 0 }
        #if canImport(Darwin)
        return Int(usage.ru_maxrss)
        #else
        return Int(usage.ru_maxrss) * 1024
        #endif
    }

    /// The current resident set size in bytes (`VmRSS`), or `nil` where it cannot be read.
    public static func residentBytes() -> Int? {
        statusField("VmRSS:").map { $0 * 1024 }
    }

    /// A "<name> <value> kB" field of `/proc/self/status`.
    static func statusField(_ name: String) -> Int? {
        guard let status = try? FileBytes.read(path: "/proc/self/status") else { return nil }
        let text = String(decoding: status, as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            let fields = line.dropFirst(name.count).split(separator: " ", omittingEmptySubsequences: true)
            return fields.first.flatMap { Int($0) }
        }
        return nil
    }
}
