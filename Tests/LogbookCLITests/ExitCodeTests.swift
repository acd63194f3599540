import Foundation
import Testing

@testable import Logbook

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The exit statuses the reading commands share, pinned: 0 sound, 1 damaged, 2 could not run,
/// 3 a torn tail.
struct ExitCodeTests {
    static let readers: [[String]] = [["verify"], ["info"], ["dump"], ["replay"], ["tail"]]

    /// A SampleTrips version 2 store of 20 events written by the tool, closed; returns the
    /// segment and where its last batch starts.
    private func makeStore(_ store: String) throws -> (segment: String, lastStart: Int) {
        #expect(try ToolProcess.run(["_sample-store", "--version", "2", store]).status == 0)
        let segment = store + "/" + SegmentDirectory.fileName(forFirstSequence: 1)
        var offset = 0
        var cursor = LogReader(directory: store).batches()
        while let batch = try cursor.next() { offset = Int(batch.offset) }
        return (segment, offset)
    }

    private func run(_ command: [String], _ store: String) throws -> ToolProcess.Outcome {
        try ToolProcess.run([command[0], store] + command.dropFirst())
    }

    @Test func aDamagedLastBatchExitsOneFromEveryCommand() throws {
        let directory = TemporaryDirectory()
        let store = directory.child("trips.store")
        let (segment, lastStart) = try makeStore(store)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: segment)))
        bytes[lastStart + LogFormat.headerSize + 4] ^= 0x10
        try Data(bytes).write(to: URL(fileURLWithPath: segment))
        for command in Self.readers {
            let outcome = try run(command, store)
            #expect(outcome.status == 1, "\(command): \(outcome.stdout) \(outcome.stderr)")
        }
        let verify = try run(["verify"], store)
        #expect(verify.stdout.contains("damage: \(segment) at byte offset \(lastStart): checksum mismatch"))
        #expect(verify.stdout.hasSuffix("unsound: 1 damaged region\n"))
        #expect(try run(["info"], store).stdout.contains("the store is damaged"))
        let dump = try run(["dump"], store)
        #expect(
            dump.stderr.hasPrefix("Error: damaged batch at the end of the log: \(segment) at byte offset \(lastStart)")
        )
        let salvage = try ToolProcess.run(["salvage", store, directory.child("new")])
        #expect(salvage.status == 1)
    }

    @Test func aTornTailExitsThreeFromEveryCommandWithItsOffsetAndSize() throws {
        let directory = TemporaryDirectory()
        let store = directory.child("trips.store")
        let (segment, _) = try makeStore(store)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: segment)[.size] as? NSNumber)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: segment))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0x4C, 0x47, 0x42, 0x4B, 2, 0, 0, 0, 21]))
        try handle.close()
        for command in Self.readers {
            let outcome = try run(command, store)
            #expect(outcome.status == 3, "\(command): \(outcome.stdout) \(outcome.stderr)")
        }
        let verify = try run(["verify"], store)
        #expect(
            verify.stdout.contains(
                "torn tail: incomplete batch at the end of the log: \(segment) at byte offset \(size)"
            )
        )
        #expect(verify.stdout.contains("(9 bytes)"))
        #expect(!verify.stdout.hasSuffix("sound\n"))
        #expect(try run(["info"], store).stdout.contains("torn tail: \(segment) at byte offset \(size)"))
        let salvage = try ToolProcess.run(["salvage", store, directory.child("new")])
        #expect(salvage.status == 3)
    }

    @Test func aMissingStoreExitsTwoFromEveryCommand() throws {
        let directory = TemporaryDirectory()
        for command in Self.readers {
            let outcome = try run(command, directory.child("missing"))
            #expect(outcome.status == 2, "\(command)")
            #expect(outcome.stderr.split(separator: "\n").count == 1)
        }
        let salvage = try ToolProcess.run(["salvage", directory.child("missing"), directory.child("new")])
        #expect(salvage.status == 2)
    }

    @Test func anUnknownEntityFailsAlikeInDumpAndReplay() throws {
        let directory = TemporaryDirectory()
        let store = directory.child("trips.store")
        _ = try makeStore(store)
        let dump = try run(["dump", "--entity", "Nope"], store)
        let replay = try run(["replay", "--entity", "Nope"], store)
        #expect(dump.status == 2 && replay.status == 2)
        #expect(dump.stderr == replay.stderr)
        #expect(dump.stderr.hasPrefix("Error: the store has no entity named Nope (it has "))
        #expect(dump.stdout.isEmpty)
    }

    @Test func replayAsOfPastTheEndSaysSo() throws {
        let directory = TemporaryDirectory()
        let store = directory.child("trips.store")
        _ = try makeStore(store)
        let outcome = try run(["replay", "--as-of", "999"], store)
        #expect(outcome.status == 2)
        #expect(outcome.stderr == "Error: --as-of 999 is past the end of the log: its last sequence number is 20\n")
    }

    @Test func aFIFONamedLikeASegmentIsDamageAndNeverWaitedOn() throws {
        let directory = TemporaryDirectory()
        let store = directory.child("trips.store")
        _ = try makeStore(store)
        let fifo = store + "/" + SegmentDirectory.fileName(forFirstSequence: 21)
        #expect(mkfifo(fifo, 0o644) == 0)
        let outcome = try run(["verify"], store)
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("not a segment: the file is a FIFO"))
    }

    @Test func quarantinedTailsAreListedByInfoVerifyAndSalvage() throws {
        let directory = TemporaryDirectory()
        let store = directory.child("trips.store")
        let (segment, lastStart) = try makeStore(store)
        try FileManager.default.removeItem(atPath: store + "/" + DurableRecord.fileName)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: segment))
        try handle.truncate(atOffset: UInt64(lastStart + 10))
        try handle.close()
        do {
            let log = try EventLog(directory: store)
            #expect(log.recovery.report.quarantinedTail?.byteCount == 10)
            log.close()
        }
        let name = SegmentDirectory.fileName(forFirstSequence: 1) + "-\(lastStart).tail"
        let info = try run(["info"], store)
        #expect(info.status == 0)
        #expect(info.stdout.contains("quarantine: 1 tail cut off by earlier opens"))
        #expect(info.stdout.contains("  \(name)  10 bytes from \(SegmentDirectory.fileName(forFirstSequence: 1))"))
        let verify = try run(["verify"], store)
        #expect(verify.status == 0)
        #expect(verify.stdout.contains("quarantined: \(store)/quarantine/\(name): 10 bytes cut from"))
        #expect(verify.stdout.hasSuffix("sound\n"))
        let salvage = try ToolProcess.run(["salvage", store, directory.child("new")])
        #expect(salvage.status == 0)
        #expect(salvage.stdout.contains("quarantined  \(store)/quarantine/\(name): 10 bytes"))
    }
}
