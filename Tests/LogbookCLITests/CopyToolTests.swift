import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// `logbook copy` between two directories, and what it says when a copy cannot be made: the
/// copies to and from PostgreSQL are tested against a server in `StoreCopyTests`.
struct CopyToolTests {
    /// A store with `count` trips saved one by one, then one renamed and one deleted.
    private func writeStore(_ path: String, count: Int = 6) throws {
        let container = try ModelContainer(
            for: Trip.self,
            configurations: ModelConfiguration(url: URL(fileURLWithPath: path))
        )
        let context = ModelContext(container)
        for index in 0..<count {
            context.insert(
                Trip(name: "Trip \(index)", destination: "City \(index)", startDate: Date(), endDate: Date())
            )
            try context.save()
        }
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        trips[0].destination = "Renamed"
        context.delete(trips[1])
        try context.save()
    }

    private func summary(_ path: String) throws -> [String] {
        let container = try ModelContainer(
            for: Trip.self,
            configurations: ModelConfiguration(url: URL(fileURLWithPath: path))
        )
        return try ModelContext(container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map {
            "\($0.name)@\($0.destination)"
        }
    }

    /// Every batch's sequence numbers and event bytes, in log order.
    private func batches(_ path: String) throws -> [[UInt8]] {
        var cursor = LogReader(directory: path).batches()
        var batches: [[UInt8]] = []
        while let batch = try cursor.next() {
            var bytes = withUnsafeBytes(of: batch.firstSequence.littleEndian) { Array($0) }
            for event in batch.events { bytes += [UInt8](event.bytes) }
            batches.append(bytes)
        }
        return batches
    }

    @Test func aStoreCopiedIntoANewDirectoryHoldsTheSameBatchesAndObjects() throws {
        let directory = TemporaryDirectory()
        let source = directory.child("source")
        let copy = directory.child("copy")
        try writeStore(source)
        let expected = try summary(source)
        let outcome = try ToolProcess.run(["copy", source, copy])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let copied = try batches(copy)
        #expect(copied == (try batches(source)))
        #expect(outcome.stdout.hasPrefix("copied \(copied.count) batches ("))
        #expect(outcome.stdout.hasSuffix("; the destination ends at sequence \(try lastSequence(source))\n"))
        #expect(try summary(copy) == expected)
        #expect(try ToolProcess.run(["verify", copy]).status == 0)
        // An empty directory is a destination too.
        let empty = directory.child("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        #expect(try ToolProcess.run(["copy", source, empty]).status == 0)
        #expect(try summary(empty) == expected)
    }

    @Test func aCopyRefusesADestinationThatHoldsFilesAndAMissingSource() throws {
        let directory = TemporaryDirectory()
        let source = directory.child("source")
        let other = directory.child("other")
        try writeStore(source)
        try writeStore(other, count: 3)
        let before = try batches(other)
        let full = try ToolProcess.run(["copy", source, other])
        #expect(full.status == 2)
        #expect(
            full.stderr
                == "Error: \(other) exists and is not an empty directory: copy into a new path or an empty directory\n"
        )
        #expect(try batches(other) == before)
        let missing = try ToolProcess.run(["copy", directory.child("nothing"), directory.child("new")])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no store at \(directory.child("nothing")): the directory does not exist"))
        #expect(!FileManager.default.fileExists(atPath: directory.child("new")))
    }

    @Test func aDamagedStoreIsNotCopiedAndTheErrorNamesSalvage() throws {
        let directory = TemporaryDirectory()
        let source = directory.child("source")
        let copy = directory.child("copy")
        try writeStore(source)
        // A byte flipped in the payload of the second batch.
        var cursor = LogReader(directory: source).batches()
        _ = try cursor.next()
        let second = try #require(try cursor.next())
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: second.segment)))
        bytes[Int(second.offset) + LogFormat.headerSize + 1] ^= 0x40
        try Data(bytes).write(to: URL(fileURLWithPath: second.segment))
        let outcome = try ToolProcess.run(["copy", source, copy])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("\(source) is damaged ("))
        #expect(outcome.stderr.contains("nothing copied; `logbook salvage \(source) \(copy)` copies its sound part"))
        #expect(!FileManager.default.fileExists(atPath: copy))
        #expect(outcome.stdout.isEmpty)
    }

    @Test func twoURLsAreRefusedAndAURLWithoutLogbookPostgresNamesTheTool() throws {
        let directory = TemporaryDirectory()
        let url = "postgresql:///postgres?host=/nowhere&store=trips"
        let both = try ToolProcess.run(["copy", url, url])
        #expect(both.status == 64)
        #expect(both.stderr.contains("both SOURCE and DEST are PostgreSQL URLs: copy through a directory"))
        // A copy of the tool alone in a directory, with a PATH that has no logbook-postgres.
        let lonely = directory.child("logbook")
        try FileManager.default.copyItem(atPath: ToolProcess.binary, toPath: lonely)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: lonely)
        process.arguments = ["copy", directory.child("store"), url]
        process.environment = ["PATH": "/usr/bin:/bin"]
        let (out, err) = (Pipe(), Pipe())
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(stdout.isEmpty)
        #expect(
            stderr
                == "Error: copying a store to or from PostgreSQL takes the logbook-postgres tool, beside logbook or on the PATH: build it with `swift build --product logbook-postgres`\n"
        )
    }

    private func lastSequence(_ path: String) throws -> UInt64 {
        var cursor = LogReader(directory: path).batches()
        var last: UInt64 = 0
        while let batch = try cursor.next() { last = batch.lastSequence }
        return last
    }
}
