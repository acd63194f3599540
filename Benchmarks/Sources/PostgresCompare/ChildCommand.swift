import ArgumentParser
import BenchmarkHarness
import Foundation

/// The hidden subcommand a child process runs: one ``ChildTask``. It prints one
/// ``ChildAnswer`` line on stdout; progress goes to stderr.
struct ChildCommand: ParsableCommand {
    static let name = "_child"

    static let configuration = CommandConfiguration(
        commandName: name,
        abstract: "Runs one task in a fresh process (used by `postgres-compare run`).",
        shouldDisplay: false
    )

    @Option(help: "The task, as JSON.")
    var task: String

    func run() throws {
        let task = try JSONDecoder().decode(ChildTask.self, from: Data(task.utf8))
        var answer: ChildAnswer
        switch task.kind {
        case .postgresWriter, .directoryWriter:
            answer = try LogbookTasks.write(task)
        case .lagWriter:
            answer = try LogbookTasks.lagWriter(task)
        case .lagFollower:
            answer = try LogbookTasks.lagFollower(task)
        case .checkpoint:
            answer = try LogbookTasks.checkpoint(task)
        case .firstScreen:
            answer = try LogbookTasks.firstScreen(task)
        case .ceilingPerObject:
            answer = try CeilingTasks.perObject(task)
        case .ceilingPerSave:
            answer = try CeilingTasks.perSave(task)
        }
        answer.peakResidentBytes = ProcessMemory.peakResidentBytes()
        print(ChildAnswer.marker + String(decoding: try JSONEncoder().encode(answer), as: UTF8.self))
    }

    /// Tells the parent this process is ready, and waits for its start line when the task
    /// waits for one.
    static func waitForStart(_ task: ChildTask) {
        guard task.waitsForStart else { return }
        print(ChildAnswer.ready)
        // Every output stream: naming `stdout` is not concurrency-safe.
        fflush(nil)
        _ = readLine()
    }
}
