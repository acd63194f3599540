import Foundation
import Logbook

/// Starts soak writers, kills each with SIGKILL at a random moment, and checks the store after
/// every kill. A store whose script has run to the end is replaced by a fresh one, so that
/// every store's life includes version-1 saves, a migration and version-3 saves.
struct SoakDriver {
    var work: URL
    var kills: Int
    var seed: UInt64
    var maximumDelay: Int
    var script: (UInt64) -> SoakScript
    var writer: String
    var logbook: String
    var progress: (String) -> Void

    struct Report {
        var kills = 0
        var stores = 0
        var acknowledgedSaves = 0
        /// Kills after which the store held one more save than the writer had acknowledged.
        var unacknowledgedButWhole = 0
        /// Kills that left a store part way through its migration (at version 2).
        var betweenMigrationStages = 0
        /// Kills during the opening of a store through the plan (before its acknowledgement).
        var duringMigration = 0
    }

    func run() throws -> Report {
        var report = Report()
        var random = SplitMix64(seed: seed)
        var storeNumber = 0
        var store = work.appendingPathComponent("store-0")
        var saves = 0
        var current = script(seed)
        // The window of the kill's moment; it widens while the writer makes no progress (a
        // slow machine, or a migration longer than the window) and narrows again once it does.
        var window = maximumDelay
        while report.kills < kills {
            let writerProcess = try start(
                current,
                store: store,
                from: saves + 1
            )
            let reading = writerProcess.output.fileHandleForReading
            var received = Data()
            // One kill in four may land while the process starts and opens the store; the
            // others wait until the writer has started, so that they land among the saves.
            if random.next() % 4 != 0 {
                while !received.contains(UInt8(ascii: "\n")) {
                    let chunk = reading.availableData
                    if chunk.isEmpty { break }
                    received.append(chunk)
                }
            }
            usleep(UInt32(random.next() % UInt64(window * 1_000 + 1)))
            kill(writerProcess.process.processIdentifier, SIGKILL)
            writerProcess.process.waitUntilExit()
            received.append(reading.readDataToEndOfFile())
            let output = String(decoding: received, as: UTF8.self)
            // Foundation keeps a pipe's descriptors open until they are closed by hand.
            try? reading.close()
            let acknowledged =
                output.split(separator: "\n").compactMap { line in
                    line.hasPrefix("ack ") ? Int(line.dropFirst(4)) : nil
                }.max() ?? saves
            report.acknowledgedSaves += acknowledged - saves
            if writerProcess.process.terminationReason == .exit {
                guard writerProcess.process.terminationStatus == 0 else {
                    throw SoakFailure("the writer failed in \(store.path): \(output)")
                }
                _ = try checker(current).check(store, acknowledged: current.length)
                storeNumber += 1
                report.stores += 1
                try? FileManager.default.removeItem(at: store)
                store = work.appendingPathComponent("store-\(storeNumber)")
                saves = 0
                current = script(seed &+ UInt64(storeNumber))
                continue
            }
            report.kills += 1
            let found: Int
            do {
                found = try checker(current).check(store, acknowledged: acknowledged)
            } catch {
                throw SoakFailure("after kill \(report.kills) (\(store.path) kept): \(error)")
            }
            if found > acknowledged { report.unacknowledgedButWhole += 1 }
            if acknowledged == current.migrationStep - 1 {
                report.duringMigration += 1
                if (try? checker(current).snapshot(store).version) == 2 { report.betweenMigrationStages += 1 }
            }
            progress("kill \(report.kills): \(acknowledged) saves acknowledged, \(found) in the store")
            window = found > saves ? maximumDelay : min(window * 2, maximumDelay * 16)
            saves = found
        }
        try? FileManager.default.removeItem(at: store)
        return report
    }

    private func checker(_ script: SoakScript) -> SoakChecker {
        SoakChecker(script: script, logbook: logbook)
    }

    private func start(_ script: SoakScript, store: URL, from first: Int) throws -> (process: Process, output: Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: writer)
        process.arguments = [
            "writer", store.path,
            "--seed", "\(script.seed)",
            "--from", "\(first)",
            "--migration-step", "\(script.migrationStep)",
            "--length", "\(script.length)",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        return (process, output)
    }
}
