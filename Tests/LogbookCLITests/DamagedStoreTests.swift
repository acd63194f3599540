import Foundation
import Testing

@testable import Logbook

/// The tool survives any damaged store: every reading command ends with an exit code, never a
/// signal, and a failure is one line on stderr, never a stack trace.
///
/// Real stores (the SampleTrips version 2 golden store and the demo's migrated store, each split
/// into three segments, and the opaque-event golden store of four segments) are damaged in
/// deterministic-random ways, and each damaged copy is read by every command.
struct DamagedStoreTests {
    static let commands: [[String]] = [
        ["info"], ["dump"], ["dump", "--format", "json"], ["replay"], ["verify"], ["tail"],
    ]

    /// How many damaged copies the test reads; each gets its own seed.
    static let variantCount = 35

    @Test func everyCommandExitsWithOneLineOnAnyDamage() throws {
        let directory = TemporaryDirectory()
        let bases = try [
            splitIntoSegments(
                copyOf: GoldenStoreTests.fixtures.appendingPathComponent("sampletrips-v2").path,
                directory
            ),
            splitIntoSegments(copyOf: demoStore(directory), directory),
            copy(GoldenStoreTests.fixtures.appendingPathComponent("log-format-1").path, to: directory.child("log")),
        ]
        var runs: [(variant: String, arguments: [String])] = []
        for index in 0..<Self.variantCount {
            var random = SplitMix64(seed: UInt64(index))
            let base = bases[index % bases.count]
            let damage = StoreDamage.allCases[index % StoreDamage.allCases.count]
            let store = try copy(base, to: directory.child("variant-\(index)"))
            let done = try damage.apply(to: store, using: &random)
            let variant = "variant \(index) (\((base as NSString).lastPathComponent): \(done))"
            runs += Self.commands.map { (variant, [$0[0], store] + $0.dropFirst()) }
        }
        let outcomes = Outcomes(count: runs.count)
        let allRuns = runs
        let workers = 3
        let finished = DispatchSemaphore(value: 0)
        for worker in 0..<workers {
            let scratch = directory.path
            Thread {
                for index in stride(from: worker, to: allRuns.count, by: workers) {
                    outcomes.set(
                        index,
                        Result {
                            try ToolProcess.runToCompletion(
                                allRuns[index].arguments,
                                scratch: scratch + "/run-\(index)"
                            )
                        }
                    )
                }
                finished.signal()
            }.start()
        }
        for _ in 0..<workers { finished.wait() }
        for (index, run) in runs.enumerated() {
            let command = run.arguments[0] + run.arguments.dropFirst(2).map { " " + $0 }.joined()
            let outcome = try outcomes.get(index).get()
            let context = Comment(
                rawValue: "\(command) on \(run.variant)\nstdout: \(outcome.stdout)\nstderr: \(outcome.stderr)"
            )
            #expect(outcome.signal == nil, context)
            for marker in ["Fatal error", "Stack dump", "stack trace", "Current stack"] {
                #expect(!outcome.stderr.contains(marker), context)
            }
            let lines = outcome.stderr.split(separator: "\n")
            if outcome.signal != nil || outcome.status == 0 {
                #expect(lines.isEmpty, context)
            } else if run.arguments[0] == "verify" || run.arguments[0] == "info" {
                // verify and info report damage or a torn tail on stdout and exit 1 or 3; an
                // error that stops them from reading at all is one line on stderr.
                let reported = ["unsound", "the store is damaged", "torn tail:"].contains {
                    outcome.stdout.contains($0)
                }
                #expect(lines.count == 1 || (lines.isEmpty && reported), context)
            } else {
                #expect(lines.count == 1, context)
            }
        }
    }

    // MARK: - Stores

    /// A store written by `logbook demo`: three schemas, migration markers and upserts.
    private func demoStore(_ directory: TemporaryDirectory) throws -> String {
        let store = directory.child("demo.store")
        let outcome = try ToolProcess.run(["demo", store])
        #expect(outcome.status == 0, "demo: \(outcome.stderr)")
        return store
    }

    private func copy(_ source: String, to target: String) throws -> String {
        try FileManager.default.copyItem(atPath: source, toPath: target)
        return target
    }

    /// A copy of a one-segment store with its batches spread over three segments, the way a
    /// writer with a small segment size would have left them.
    private func splitIntoSegments(copyOf source: String, _ directory: TemporaryDirectory) throws -> String {
        let target = directory.child((source as NSString).lastPathComponent + "-split")
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: target + "/LOCK", contents: Data())
        let segment = try #require(try SegmentDirectory.segments(in: source, syscalls: PosixSyscalls()).first)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: segment.path)))
        var frames: [(sequence: UInt64, bytes: ArraySlice<UInt8>)] = []
        var offset = 0
        while offset < bytes.count {
            let header = try #require(bytes[offset...].withUnsafeBytes { BatchHeader.read(from: $0) })
            frames.append((header.firstSequence, bytes[offset..<(offset + header.frameSize)]))
            offset += header.frameSize
        }
        try #require(frames.count >= 3, "\(source) has \(frames.count) batches")
        let perSegment = (frames.count + 2) / 3
        for start in stride(from: 0, to: frames.count, by: perSegment) {
            let group = frames[start..<min(frames.count, start + perSegment)]
            let name = SegmentDirectory.fileName(forFirstSequence: group[group.startIndex].sequence)
            try Data(group.flatMap(\.bytes)).write(to: URL(fileURLWithPath: target + "/" + name))
        }
        return target
    }
}

/// Results filled in by concurrent runs, each at its own index.
private final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<ToolProcess.SignalledOutcome, any Error>?]

    init(count: Int) {
        results = Array(repeating: nil, count: count)
    }

    func set(_ index: Int, _ result: Result<ToolProcess.SignalledOutcome, any Error>) {
        lock.withLock { results[index] = result }
    }

    func get(_ index: Int) throws -> Result<ToolProcess.SignalledOutcome, any Error> {
        try lock.withLock { try #require(results[index]) }
    }
}
