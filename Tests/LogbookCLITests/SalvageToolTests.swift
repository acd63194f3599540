import Foundation
import Testing

@testable import Logbook

/// `logbook salvage` run as a user runs it: what it prints, its exit status, and the new store.
struct SalvageToolTests {
    /// Twelve uncompressed batches of five events, three batches to a segment.
    private func makeStore(_ path: String) throws {
        let outcome = try ToolProcess.run([
            "_append-loop", path, "--batches", "12", "--segment-size", "1100", "--relaxed", "--noise",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
    }

    private func batches(_ store: String) throws -> [Batch] {
        var cursor = LogReader(directory: store).batches()
        var batches: [Batch] = []
        while let batch = try cursor.next() { batches.append(batch) }
        return batches
    }

    private func events(_ store: String) throws -> [[UInt8]] {
        try batches(store).flatMap { batch in batch.events.map { [UInt8]($0.bytes) } }
    }

    private func files(_ directory: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
        }
        return files
    }

    private func expectVerifies(_ store: String) throws {
        let verify = try ToolProcess.run(["verify", store])
        #expect(verify.status == 0, "\(verify.stdout)")
        #expect(verify.stdout.hasSuffix("sound\n"))
    }

    @Test func aFlippedByteInASealedSegmentKeepsEverythingBeforeItAndTheNewStoreVerifies() throws {
        let directory = TemporaryDirectory()
        let damaged = directory.child("damaged")
        let new = directory.child("new")
        try makeStore(damaged)
        let original = try batches(damaged)
        let segments = try LogReader(directory: damaged).segments()
        // The middle batch of the first sealed segment holding three or more batches.
        let sealed = try #require(
            segments.dropLast().first { segment in original.filter { $0.segment == segment.path }.count >= 3 }
        )
        let inSegment = original.filter { $0.segment == sealed.path }
        let target = inSegment[inSegment.count / 2]
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: sealed.path)))
        bytes[Int(target.offset) + LogFormat.headerSize + 1] ^= 0x40
        try Data(bytes).write(to: URL(fileURLWithPath: sealed.path))
        let before = try files(damaged)

        let outcome = try ToolProcess.run(["salvage", damaged, new])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let kept = original.prefix { $0.firstSequence < target.firstSequence }
        let keptEvents = kept.flatMap { batch in batch.events.map { [UInt8]($0.bytes) } }
        #expect(
            outcome.stdout.contains(
                "dropped  \(sealed.path) at byte offset \(target.offset), \(target.header.frameSize) bytes: sequence \(target.firstSequence)...\(target.lastSequence), 5 events; damaged: checksum mismatch"
            ),
            "\(outcome.stdout)"
        )
        #expect(outcome.stdout.contains("; after the damage\n"))
        #expect(
            outcome.stdout.contains(
                "summary: read \(segments.count) segments; kept \(keptEvents.count) events (sequence 1...\(keptEvents.count)) in \(kept.count == 1 ? "1 batch" : "\(kept.count) batches") into \(new); dropped \(60 - keptEvents.count) events"
            ),
            "\(outcome.stdout)"
        )
        try expectVerifies(new)
        #expect(try events(new) == keptEvents, "byte-identical events up to the damage")
        #expect(try files(damaged) == before, "the damaged store is not changed")
    }

    @Test func aTornTailIsDroppedAndReported() throws {
        let directory = TemporaryDirectory()
        let damaged = directory.child("damaged")
        let new = directory.child("new")
        try makeStore(damaged)
        let all = try events(damaged)
        let last = try #require(try LogReader(directory: damaged).segments().last)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: last.path)[.size] as? NSNumber)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: last.path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0x4C, 0x47, 0x42, 0x4B, 1, 0, 0]))
        try handle.close()
        let outcome = try ToolProcess.run(["salvage", damaged, new])
        #expect(outcome.status == 3, "only a torn tail was dropped")
        #expect(
            outcome.stdout.contains(
                "dropped  \(last.path) at byte offset \(size.int64Value), 7 bytes: sequence unknown, event count unknown; incomplete batch at the end of the log (a torn write): batch header cut short: 7 of 32 bytes"
            ),
            "\(outcome.stdout)"
        )
        #expect(outcome.stdout.contains("kept 60 events (sequence 1...60) in 12 batches"))
        try expectVerifies(new)
        #expect(try events(new) == all)
    }

    @Test func aMissingMiddleSegmentKeepsWhatComesBeforeTheHole() throws {
        let directory = TemporaryDirectory()
        let damaged = directory.child("damaged")
        let new = directory.child("new")
        try makeStore(damaged)
        let all = try events(damaged)
        let segments = try LogReader(directory: damaged).segments()
        try #require(segments.count == 4)
        try FileManager.default.removeItem(atPath: segments[1].path)
        let first = segments[1].firstSequence
        let outcome = try ToolProcess.run(["salvage", damaged, new])
        #expect(outcome.status == 1)
        #expect(
            outcome.stdout.contains(
                "dropped  \(segments[2].path) at byte offset 0, 0 bytes: sequence \(first)...\(segments[2].firstSequence - 1), \(Int(segments[2].firstSequence - first)) events; missing: no segment holds these events"
            ),
            "\(outcome.stdout)"
        )
        try expectVerifies(new)
        #expect(try events(new) == Array(all[..<Int(first - 1)]))
    }

    @Test func aSoundStoreIsKeptWholeWithExitZero() throws {
        let directory = TemporaryDirectory()
        let damaged = directory.child("damaged")
        let new = directory.child("new")
        try makeStore(damaged)
        let outcome = try ToolProcess.run(["salvage", damaged, new])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.hasSuffix("in 12 batches into \(new); dropped nothing\n"))
        #expect(!outcome.stdout.contains("dropped  "))
        try expectVerifies(new)
        #expect(try events(new) == events(damaged))
    }

    @Test func anUndecodableEventInAModelStoreDropsItsBatch() throws {
        let directory = TemporaryDirectory()
        let damaged = directory.child("trips.store")
        let new = directory.child("new")
        #expect(try ToolProcess.run(["_sample-store", "--version", "2", damaged]).status == 0)
        do {
            let log = try EventLog(directory: damaged)
            #expect(try log.append([[99, 1, 2]]) == 21...21)
        }
        let outcome = try ToolProcess.run(["salvage", damaged, new])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("damaged: event 21 does not decode"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("kept 20 events (sequence 1...20) in 6 batches"))
        try expectVerifies(new)
        let replay = try ToolProcess.run(["replay", new, "--entity", "Trip"])
        #expect(replay.status == 0, "\(replay.stderr)")
    }

    @Test func anExistingNewStoreIsRefusedWithExitTwo() throws {
        let directory = TemporaryDirectory()
        let damaged = directory.child("damaged")
        let new = directory.child("new")
        try makeStore(damaged)
        try FileManager.default.createDirectory(atPath: new, withIntermediateDirectories: false)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: new + "/notes.txt"))
        let outcome = try ToolProcess.run(["salvage", damaged, new])
        #expect(outcome.status == 2)
        #expect(outcome.stdout.isEmpty)
        #expect(
            outcome.stderr
                == "Error: \(new) already exists and is not empty; salvage writes only to a new path or an empty directory (\(new))\n"
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: new) == ["notes.txt"])
    }

    @Test func aDamagedPathThatIsNotAStoreIsRefusedWithExitTwo() throws {
        let directory = TemporaryDirectory()
        let plain = directory.child("plain")
        try FileManager.default.createDirectory(atPath: plain, withIntermediateDirectories: false)
        try Data("hello".utf8).write(to: URL(fileURLWithPath: plain + "/notes.txt"))
        let outcome = try ToolProcess.run(["salvage", plain, directory.child("new")])
        #expect(outcome.status == 2)
        #expect(outcome.stderr == "Error: \(plain) is not a Logbook store: it has no LOCK file and no segment files\n")
        #expect(!FileManager.default.fileExists(atPath: directory.child("new")))
        let missing = try ToolProcess.run(["salvage", directory.child("missing"), directory.child("new")])
        #expect(missing.status == 2)
        #expect(missing.stderr == "Error: no store at \(directory.child("missing")): the directory does not exist\n")
    }
}
