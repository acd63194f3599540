import ArgumentParser
import Foundation
import Logbook

#if canImport(Glibc)
import Glibc
#endif

/// Stores kept in PostgreSQL, read by copying them into a temporary directory first: the
/// `logbook` tool itself never links a database driver, so `logbook-postgres copy`, built
/// beside it, makes the copy.
enum ServerStores {
    /// The temporary directories of the copies made by this run, by URL; removed at exit.
    private static let copies = Locked<[String: String]>([:])

    /// Whether a store argument names a store on a server rather than a directory.
    static func isServerURL(_ store: String) -> Bool {
        let lowered = store.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }

    /// The directory of a copy of the store a URL names, made by `logbook-postgres copy`.
    ///
    /// - Throws: ``CLIError`` when `logbook-postgres` cannot be found or the copy fails, with
    ///   the copy's own message.
    static func localCopy(of url: String) throws -> String {
        if let made = copies.withLock({ $0[url] }) { return made }
        guard let tool = companionTool() else { throw missingCompanion("reading a store kept in PostgreSQL") }
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("logbook-\(UUID().uuidString)")
        let directory = parent.appendingPathComponent("store").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["copy", url, directory]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        copies.withLock { $0[url] = parent.path }
        removeCopiesAtExit()
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let line =
                message.split(separator: "\n").last.map(String.init) ?? "exit status \(process.terminationStatus)"
            throw CLIError("could not copy \(url): \(line.replacingOccurrences(of: "logbook-postgres: ", with: ""))")
        }
        return directory
    }

    /// Runs `logbook-postgres` with `arguments`, its input, output and errors this process's,
    /// and returns its exit status (2 when a signal ended it).
    ///
    /// - Throws: ``ExitCode`` 2, with the reason on stderr, when `logbook-postgres` cannot be
    ///   found or started.
    static func runCompanion(_ arguments: [String]) throws -> Int32 {
        do {
            guard let tool = companionTool() else {
                throw missingCompanion("copying a store to or from PostgreSQL")
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = arguments
            do {
                try process.run()
            } catch {
                throw CLIError("could not run \(tool): \(error)")
            }
            process.waitUntilExit()
            return process.terminationReason == .exit ? process.terminationStatus : ToolExit.error
        } catch let error as CLIError {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            throw ExitCode(error.status)
        }
    }

    /// The error when `logbook-postgres` is neither beside this executable nor on the `PATH`.
    private static func missingCompanion(_ what: String) -> CLIError {
        CLIError(
            "\(what) takes the logbook-postgres tool, beside logbook or on the PATH: build it with `swift build --product logbook-postgres`"
        )
    }

    /// The URL of the store a directory is a copy of, if it is one this run made.
    static func url(ofCopy directory: String) -> String? {
        copies.withLock { copies in
            copies.first { directory == $0.value + "/store" }?.key
        }
    }

    /// `logbook-postgres` beside this executable, else on the `PATH`.
    private static func companionTool() -> String? {
        let name = "logbook-postgres"
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let beside = ((executable as NSString).deletingLastPathComponent as NSString).appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":") {
            let candidate = (String(directory) as NSString).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    private static let cleanup: Void = {
        atexit {
            for directory in ServerStores.copies.withLock({ Array($0.values) }) {
                try? FileManager.default.removeItem(atPath: directory)
            }
        }
    }()

    private static func removeCopiesAtExit() { _ = cleanup }
}
