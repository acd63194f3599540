import Foundation

/// Runs the built `logbook` binary, which sits beside the test bundle.
enum ToolProcess {
    static var binary: String {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var directory = (executable as NSString).deletingLastPathComponent
        // On some platforms the tests run from inside a bundle directory.
        while directory.hasSuffix(".xctest") || directory.hasSuffix("Contents") || directory.hasSuffix("MacOS") {
            directory = (directory as NSString).deletingLastPathComponent
        }
        return directory + "/logbook"
    }

    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs the tool to completion.
    static func run(_ arguments: [String]) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self)
        )
    }

    /// Starts the tool and returns it running, with its stdout readable.
    static func start(_ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, out)
    }

    // The patterns below restate `LogbookCommand.AppendLoop.event` and `.noiseEvent` on purpose:
    // an executable's module cannot be imported by tests, and the tests must notice if the
    // tool's patterns change.

    /// The event bytes `logbook _append-loop` writes for `sequence`.
    static func appendLoopEvent(_ sequence: UInt64) -> [UInt8] {
        Array(String(repeating: "event \(sequence);", count: Int(sequence % 13) + 1).utf8)
    }

    /// The event bytes `logbook _append-loop --noise` writes for `sequence`: 64 bytes of xorshift64.
    static func appendLoopNoiseEvent(_ sequence: UInt64) -> [UInt8] {
        var state = sequence &* 0x9E37_79B9_7F4A_7C15 | 1
        return (0..<64).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    /// The sequence numbers acknowledged in `_append-loop` output ("ack FIRST LAST" lines).
    static func acknowledged(in output: String) -> [ClosedRange<UInt64>] {
        output.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 3, parts[0] == "ack", let first = UInt64(parts[1]), let last = UInt64(parts[2]) else {
                return nil
            }
            return first...last
        }
    }
}

/// A directory under the system's temporary directory, removed when the value is released.
final class TemporaryDirectory {
    let path: String

    init(_ name: String = #function) {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        path = NSTemporaryDirectory() + "logbook-cli-\(safe)-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func child(_ name: String) -> String { path + "/" + name }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
