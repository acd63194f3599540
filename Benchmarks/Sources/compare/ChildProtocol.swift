import BenchmarkHarness
import Foundation

/// What the parent asks a child process to do; passed as one JSON argument.
struct ChildRequest: Codable, Sendable {
    enum Task: String, Codable, Sendable {
        /// Run one workload of one side.
        case workload
        /// Write the V1 store for W4 (not timed).
        case prepareV1
        /// Edit a copy of W1's store for W8 or W9 (not timed).
        case prepareEdits
        /// Measure the reference figures.
        case reference
    }

    var task: Task
    var side: Side?
    var workload: WorkloadID?
    /// The variant of a workload that runs one process per variant (W2).
    var variant: String?
    var tripCount: Int
    var seed: UInt64
    /// The store directory the task works in.
    var store: String?
    /// Where W5 writes its dump.
    var output: String?
    var lookups: Int
    var queries: Int
    /// Directories whose sequential read speed to measure (reference task).
    var readDirectories: [String] = []
    /// Logbook stores whose LZ4 batches to decompress (reference task).
    var logbookStores: [String] = []
}

/// What a child process answers, on one stdout line after ``ChildResponse/marker``.
struct ChildResponse: Codable, Sendable {
    static let marker = "RESULT "

    var measurements: [WorkloadResult] = []
    var peakResidentBytes: Int = 0
    var lz4: [LZ4Figure] = []
    var sequentialReads: [SequentialReadFigure] = []
    var memoryLatency: MemoryLatencyFigure?
    /// Reference figures that could not be measured, and why.
    var notes: [String] = []
}

/// Runs this executable again with a hidden subcommand, so that every workload starts in a
/// fresh process: no warm caches, no memory left from an earlier workload, and a peak RSS of
/// its own.
enum ChildProcess {
    static func run(_ request: ChildRequest) throws -> ChildResponse {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executablePath())
        let argument = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
        process.arguments = [ChildCommand.name, "--request", argument]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw HarnessError(
                "the child process for \(describe(request)) failed (status \(process.terminationStatus))"
            )
        }
        let text = String(decoding: data, as: UTF8.self)
        guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix(ChildResponse.marker) }) else {
            throw HarnessError("the child process for \(describe(request)) printed no result")
        }
        return try JSONDecoder().decode(ChildResponse.self, from: Data(line.dropFirst(ChildResponse.marker.count).utf8))
    }

    static func describe(_ request: ChildRequest) -> String {
        switch request.task {
        case .workload:
            "\(request.side?.displayName ?? "?") \(request.workload?.title ?? "?")"
        case .prepareV1:
            "\(request.side?.displayName ?? "?") V1 store"
        case .prepareEdits:
            "\(request.side?.displayName ?? "?") edits for W8 or W9"
        case .reference:
            "the reference figures"
        }
    }

    /// This executable, by `/proc/self/exe` where there is one.
    static func executablePath() throws -> String {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return path
        }
        if let path = Bundle.main.executablePath {
            return path
        }
        throw HarnessError("cannot find this executable to start a child process")
    }
}
