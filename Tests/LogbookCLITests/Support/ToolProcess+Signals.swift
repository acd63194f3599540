import Foundation

extension ToolProcess {
    /// How a run of the tool ended: its exit status, or the signal that ended it.
    struct SignalledOutcome: Sendable {
        var status: Int32
        /// The signal that ended the process, `nil` when it exited.
        var signal: Int32?
        var stdout: String
        var stderr: String
    }

    /// Runs the tool to completion, with its output in files under `scratch`, and ends it with
    /// SIGKILL if it is still running after `limit` seconds, so that a tool stuck in a loop fails
    /// the test instead of hanging it. Needs no dispatch queue, so it can run on many threads.
    static func runToCompletion(_ arguments: [String], scratch: String, limit: Double = 60) throws -> SignalledOutcome {
        let outPath = scratch + ".stdout"
        let errPath = scratch + ".stderr"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        defer {
            try? out.close()
            try? err.close()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(limit)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let signalled = process.terminationReason == .uncaughtSignal
        return SignalledOutcome(
            status: signalled ? -1 : process.terminationStatus,
            signal: signalled ? process.terminationStatus : nil,
            stdout: String(decoding: try Data(contentsOf: URL(fileURLWithPath: outPath)), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: URL(fileURLWithPath: errPath)), as: UTF8.self)
        )
    }
}
