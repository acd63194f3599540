import Foundation
import Testing

/// A short run of the crash soak (`logbook-soak`): a SampleTrips writer killed with SIGKILL at
/// random moments, the store checked after every kill. The long run is documented in README.md.
@Suite(.serialized)
struct CrashSoakTests {
    private var soakBinary: String {
        (ToolProcess.binary as NSString).deletingLastPathComponent + "/logbook-soak"
    }

    private func soak(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: soakBinary)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self)
        )
    }

    @Test func everyKillLeavesAStoreThatVerifiesAndHoldsEveryAcknowledgedSave() throws {
        let work = TemporaryDirectory()
        let seed = UInt64.random(in: 0...UInt64.max)
        let outcome = try soak(["run", "--kills", "20", "--seed", "\(seed)", "--work", work.path])
        #expect(outcome.status == 0, "seed \(seed): \(outcome.stderr)")
        #expect(outcome.stdout.contains("seed \(seed): 20 kills survived"), "\(outcome.stdout)")
    }

    @Test func aStoreWhoseSavesChangedNothingHasNoVersionYet() throws {
        // The first edit of seed 1019's script inserts, updates and deletes nothing, so its save
        // writes no batch: the store stays an empty directory although save 1 was acknowledged,
        // and the checker must not ask an empty store for the version of its script.
        let work = TemporaryDirectory()
        let store = work.child("store")
        let script = ["--seed", "1019", "--migration-step", "2", "--length", "1"]
        let written = try soak(["writer", store] + script)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stdout.split(separator: "\n").last == "ack 1")
        #expect(try FileManager.default.contentsOfDirectory(atPath: store) == ["LOCK"])
        let check = try soak(["check", store] + script + ["--acknowledged", "1"])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.hasPrefix("the store holds 1 saves"), "\(check.stdout)")
    }

    @Test func theCheckerNoticesAStoreThatLostAnAcknowledgedSave() throws {
        // The writer makes 20 saves of a script; the checker is then asked about a script whose
        // saves differ (another seed), as if the store had lost or changed acknowledged saves.
        let work = TemporaryDirectory()
        let store = work.child("store")
        let written = try soak(["writer", store, "--seed", "7", "--migration-step", "10", "--length", "20"])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stdout.split(separator: "\n").last == "ack 20")
        let check = try soak([
            "check", store, "--seed", "8", "--migration-step", "10", "--length", "20", "--acknowledged", "20",
        ])
        #expect(check.status == 1)
        #expect(check.stderr.contains("20 saves acknowledged; the store is at version 3"), "\(check.stderr)")
        let same = try soak([
            "check", store, "--seed", "7", "--migration-step", "10", "--length", "20", "--acknowledged", "20",
        ])
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout == "the store holds 20 saves at version 3\n")
    }
}
