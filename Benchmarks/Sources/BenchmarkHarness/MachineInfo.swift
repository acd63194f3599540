import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the figures were measured on, printed above the table.
public struct MachineInfo: Codable, Hashable, Sendable {
    public var cores: Int
    public var processor: String
    public var memoryGiB: Double
    public var system: String
    public var kernel: String
    public var buildConfiguration: String

    public init(
        cores: Int,
        processor: String,
        memoryGiB: Double,
        system: String,
        kernel: String,
        buildConfiguration: String
    ) {
        self.cores = cores
        self.processor = processor
        self.memoryGiB = memoryGiB
        self.system = system
        self.kernel = kernel
        self.buildConfiguration = buildConfiguration
    }

    /// Reads the current machine's description.
    public static func current() -> MachineInfo {
        MachineInfo(
            cores: ProcessInfo.processInfo.activeProcessorCount,
            processor: field("model name", of: "/proc/cpuinfo", separator: ":") ?? "unknown processor",
            memoryGiB: Double(ProcessInfo.processInfo.physicalMemory) / Double(1 << 30),
            system: field("PRETTY_NAME", of: "/etc/os-release", separator: "=")?
                .trimmingCharacters(in: CharacterSet(charactersIn: "\"")) ?? "unknown system",
            kernel: kernelRelease(),
            buildConfiguration: isDebugBuild ? "debug" : "release"
        )
    }

    /// Whether this binary was built without optimisation; its figures are then meaningless.
    public static var isDebugBuild: Bool {
        #if DEBUG
        return true
        #else
        return false
        #endif
    }

    public var summary: String {
        let memory = String(format: "%.0f", memoryGiB)
        return "\(cores) cores (\(processor)), \(memory) GiB, \(system), Linux \(kernel), \(buildConfiguration) build"
    }

    /// The 1, 5 and 15 minute load averages from `/proc/loadavg`, as printed there.
    public static func loadAverages() -> String {
        guard let bytes = try? FileBytes.read(path: "/proc/loadavg") else { return "unknown" }
        return String(decoding: bytes, as: UTF8.self).split(separator: " ").prefix(3).joined(separator: " ")
    }

    static func field(_ name: String, of path: String, separator: Character) -> String? {
        guard let bytes = try? FileBytes.read(path: path) else { return nil }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: separator, maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    static func kernelRelease() -> String {
        var names = utsname()
        guard uname(&names) == 0 else { return "unknown" }
        return withUnsafeBytes(of: &names.release) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
