import BenchmarkHarness
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Child processes of `postgres-compare`: each runs this executable again with the hidden
/// subcommand `_child`. Children that wait for the start print ``ChildAnswer/ready`` once
/// ready (their container open, their data generated) and begin the timed part when the
/// parent writes a line to their stdin, so that concurrent writers start together.
enum ChildProcesses {
    /// Runs the tasks at once and returns their answers in the same order.
    ///
    /// The tasks that wait for the start get the start line once every task has printed
    /// that it is ready.
    static func run(_ tasks: [ChildTask]) throws -> [ChildAnswer] {
        let executable = try executablePath()
        var running: [(process: Process, input: Pipe, output: FileHandle)] = []
        for task in tasks {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = [
                ChildCommand.name, "--task", String(decoding: try JSONEncoder().encode(task), as: UTF8.self),
            ]
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            running.append((process, input, output.fileHandleForReading))
        }
        var texts = Array(repeating: "", count: tasks.count)
        for (index, task) in tasks.enumerated() where task.waitsForStart {
            guard let line = readLine(running[index].output) else {
                throw HarnessError("the child process for \(task.kind.rawValue) ended before it was ready")
            }
            guard line == ChildAnswer.ready else {
                throw HarnessError(
                    "the child process for \(task.kind.rawValue) printed \"\(line)\" instead of \(ChildAnswer.ready)"
                )
            }
        }
        for (index, task) in tasks.enumerated() where task.waitsForStart {
            running[index].input.fileHandleForWriting.write(Data("go\n".utf8))
        }
        for index in running.indices {
            texts[index] = String(decoding: running[index].output.readDataToEndOfFile(), as: UTF8.self)
            running[index].process.waitUntilExit()
        }
        var answers: [ChildAnswer] = []
        for (index, task) in tasks.enumerated() {
            let process = running[index].process
            guard process.terminationReason == .exit, process.terminationStatus == 0 else {
                throw HarnessError(
                    "the child process for \(task.kind.rawValue) failed (status \(process.terminationStatus))"
                )
            }
            guard let line = texts[index].split(separator: "\n").last(where: { $0.hasPrefix(ChildAnswer.marker) })
            else {
                throw HarnessError("the child process for \(task.kind.rawValue) printed no result")
            }
            answers.append(
                try JSONDecoder().decode(ChildAnswer.self, from: Data(line.dropFirst(ChildAnswer.marker.count).utf8))
            )
        }
        return answers
    }

    /// Runs one task and returns its answer.
    static func run(_ task: ChildTask) throws -> ChildAnswer {
        let answers = try run([task])
        guard let answer = answers.first else { throw HarnessError("no answer from \(task.kind.rawValue)") }
        return answer
    }

    /// Reads one line, byte by byte so that nothing after it is consumed; `nil` at the end.
    static func readLine(_ handle: FileHandle) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(handle.fileDescriptor, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
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
