import Foundation
import Testing

@testable import Logbook

/// The `logbook` binary run as a user runs it: exit codes, output and messages.
struct ToolTests {
    private func makeStore(_ store: TemporaryDirectory, batches: Int = 4) throws {
        let outcome = try ToolProcess.run([
            "_append-loop", store.path, "--batches", "\(batches)", "--segment-size", "200", "--relaxed",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
    }

    @Test func verifyOfASoundStoreExitsZero() throws {
        let store = TemporaryDirectory()
        try makeStore(store)
        let outcome = try ToolProcess.run(["verify", store.path])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("4 batches, 20 events (sequence 1...20)"))
        #expect(outcome.stdout.hasSuffix("sound\n"))
        #expect(outcome.stderr.isEmpty, "no progress output when stderr is not a terminal")
    }

    @Test func verifyOfAFlippedByteExitsOneNamingSegmentAndOffset() throws {
        let store = TemporaryDirectory()
        try makeStore(store)
        let segments = try LogReader(directory: store.path).segments()
        #expect(segments.count >= 2)
        let first = segments[0].path
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: first)))
        bytes[LogFormat.headerSize + 2] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: first))
        let outcome = try ToolProcess.run(["verify", store.path])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("damage: \(first) at byte offset 0: checksum mismatch"))
        #expect(outcome.stdout.hasSuffix("unsound: 1 damaged region\n"))
    }

    @Test func verifyOfATornTailReportsItsOffsetAndSizeAndExitsThree() throws {
        let store = TemporaryDirectory()
        try makeStore(store)
        let last = try #require(try LogReader(directory: store.path).segments().last)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: last.path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0x4C, 0x47, 0x42, 0x4B, 1, 0, 0]))
        try handle.close()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: last.path)[.size] as? NSNumber)
            .int64Value
        let outcome = try ToolProcess.run(["verify", store.path])
        #expect(outcome.status == 3)
        #expect(
            outcome.stdout.contains(
                "torn tail: incomplete batch at the end of the log: \(last.path) at byte offset \(size - 7): batch header cut short: 7 of 32 bytes (7 bytes)"
            )
        )
        #expect(outcome.stdout.hasSuffix("incomplete: every batch is sound, but a torn write ends the log\n"))
        #expect(!outcome.stdout.contains("\nsound\n"))
    }

    @Test(arguments: ["verify", "info", "dump", "replay", "tail"])
    func aMissingStoreOrAPlainDirectoryGetsAOneLineErrorAndExitTwo(command: String) throws {
        let directory = TemporaryDirectory()
        let missing = try ToolProcess.run([command, directory.child("missing")])
        #expect(missing.status == 2)
        #expect(missing.stderr == "Error: no store at \(directory.child("missing")): the directory does not exist\n")
        try Data("hello".utf8).write(to: URL(fileURLWithPath: directory.child("notes.txt")))
        let plain = try ToolProcess.run([command, directory.path])
        #expect(plain.status == 2)
        #expect(
            plain.stderr
                == "Error: \(directory.path) is not a Logbook store: it has no LOCK file and no segment files\n"
        )
    }

    @Test func infoShowsSegmentsBatchesAndTheSequenceRange() throws {
        let store = TemporaryDirectory()
        try makeStore(store, batches: 3)
        let outcome = try ToolProcess.run(["info", store.path])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("batches:   3 (3 LZ4-compressed)"))
        #expect(outcome.stdout.contains("events:    15"))
        #expect(outcome.stdout.contains("sequence:  1...15"))
        #expect(outcome.stdout.contains("00000000000000000001.log"))
    }

    @Test func verifyReportsAnEventThatDoesNotDecodeInAModelStore() throws {
        let directory = TemporaryDirectory()
        let store = directory.child("trips.store")
        #expect(try ToolProcess.run(["_sample-store", "--version", "2", store]).status == 0)
        do {
            let log = try EventLog(directory: store)
            #expect(try log.append([[99, 1, 2]]) == 21...21)
        }
        let outcome = try ToolProcess.run(["verify", store])
        #expect(outcome.status == 1)
        #expect(
            outcome.stdout.contains(
                "event 21 does not decode: undecodable event: unknown event kind 99 at byte 1 of the event"
            )
        )
    }

    @Test func verifyWithChecksumsOnlyFindsAFlippedByteButDoesNotDecodeEvents() throws {
        let directory = TemporaryDirectory()
        let store = directory.child("trips.store")
        #expect(try ToolProcess.run(["_sample-store", "--version", "2", store]).status == 0)
        do {
            let log = try EventLog(directory: store)
            #expect(try log.append([[99, 1, 2]]) == 21...21)
        }
        let quick = try ToolProcess.run(["verify", store, "--checksums-only"])
        #expect(quick.status == 0, "an undecodable event with a sound checksum passes the quick check")
        #expect(quick.stdout.contains("7 batches, 21 events (sequence 1...21)"))
        #expect(
            quick.stdout.contains("note: checksums only: payloads were not decompressed and events were not decoded")
        )
        #expect(try ToolProcess.run(["verify", store]).status == 1)

        let segment = try #require(try LogReader(directory: store).segments().first)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: segment.path)))
        bytes[LogFormat.headerSize + 5] ^= 0x10
        try Data(bytes).write(to: URL(fileURLWithPath: segment.path))
        let damaged = try ToolProcess.run(["verify", store, "--checksums-only"])
        #expect(damaged.status == 1)
        #expect(damaged.stdout.contains("damage: \(segment.path) at byte offset 0: checksum mismatch"))
    }

    @Test func theDemoMigratesTheFirstReleasesTripsAndTheStoreVerifies() throws {
        let directory = TemporaryDirectory()
        let store = directory.child("trips.store")
        let outcome = try ToolProcess.run(["demo", store])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("stage 1.0.0 → 2.0.0 (custom): Trip.name becomes unique, folds 2 Trip"))
        #expect(
            outcome.stdout.contains(
                "stage 2.0.0 → 3.0.0 (lightweight): Trip.end_date → endDate, Trip.start_date → startDate"
            )
        )
        #expect(outcome.stdout.contains("3 trips with unique names; 9 of 9 bucket-list items kept"))
        #expect(outcome.stdout.contains("\"Kyoto in autumn\" to Kyoto and Nara"))
        #expect(outcome.stdout.contains("staying at Machiya Sanjo"), "the newer accommodation wins")
        #expect(
            outcome.stdout.hasSuffix("try `swift run logbook verify \(store)`.\n"),
            "the closing hint is a command that works as printed"
        )
        let verify = try ToolProcess.run(["verify", store])
        #expect(verify.status == 0)
        let again = try ToolProcess.run(["demo", store])
        #expect(again.status != 0)
        #expect(again.stderr.contains("already exists; give the demo a new path"))
    }

    @Test func theClosingHintQuotesAPathThatAShellWouldSplit() throws {
        let directory = TemporaryDirectory()
        let store = directory.child("my trips.store")
        let outcome = try ToolProcess.run(["demo", store])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.hasSuffix("try `swift run logbook verify '\(store)'`.\n"))
    }
}
