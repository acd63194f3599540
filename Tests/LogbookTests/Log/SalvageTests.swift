import Foundation
import Testing

@testable import Logbook

struct SalvageTests {
    /// Writes `batches` uncompressed batches of three 40-byte events, three batches to a
    /// segment, and returns the events and, for each batch, its segment and byte offset.
    private func makeStore(
        _ directory: String,
        batches: Int = 7
    ) throws -> (events: [[UInt8]], batches: [(segment: String, offset: Int)]) {
        var configuration = testConfiguration(segmentSize: 3 * (LogFormat.headerSize + 3 * 41))
        configuration.compression = false
        let log = try EventLog(directory: directory, configuration: configuration)
        var events: [[UInt8]] = []
        for _ in 0..<batches {
            let next = UInt64(events.count) + 1
            let batch = (next..<(next + 3)).map { sampleEvent($0, length: 40) }
            _ = try log.append(batch)
            events += batch
        }
        log.close()
        let places = try batchPlaces(directory)
        #expect(places.map(\.offset) == (0..<batches).map { ($0 % 3) * (LogFormat.headerSize + 3 * 41) })
        return (events, places)
    }

    /// The segment and byte offset of every batch, read back.
    private func batchPlaces(_ directory: String) throws -> [(segment: String, offset: Int)] {
        var cursor = LogReader(directory: directory).batches()
        var places: [(String, Int)] = []
        while let batch = try cursor.next() { places.append((batch.segment, Int(batch.offset))) }
        return places
    }

    private func snapshot(_ directory: String) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            files[name] = try ByteSurgery.bytes(of: directory + "/" + name)
        }
        return files
    }

    private func expectSoundStore(_ path: String, holding events: [[UInt8]]) throws {
        let report = try LogVerifier.verify(directory: path)
        #expect(report.isSound)
        #expect(report.incompleteTail == nil)
        #expect(try readAll(path).map(\.1) == events)
        let reopened = try EventLog(directory: path, configuration: testConfiguration())
        #expect(reopened.nextSequence == UInt64(events.count) + 1)
        #expect(reopened.recovery.cutTail == nil)
    }

    @Test func aSoundStoreIsCopiedWholeBatchForBatch() throws {
        let directory = TemporaryDirectory()
        let damaged = directory.child("store")
        let (events, places) = try makeStore(damaged)
        let before = try snapshot(damaged)
        let report = try Salvage.salvage(from: damaged, to: directory.child("new"))
        #expect(report.keptEverything)
        #expect(report.keptEvents == 21)
        #expect(report.keptBatches == 7)
        #expect(report.keptSequence == 1...21)
        #expect(report.entries.map(\.segment) == Array(Set(places.map(\.segment))).sorted())
        try expectSoundStore(directory.child("new"), holding: events)
        #expect(try snapshot(damaged) == before)
    }

    @Test func aFlippedByteInASealedSegmentKeepsEverythingBeforeIt() throws {
        let directory = TemporaryDirectory()
        let damaged = directory.child("store")
        let (events, places) = try makeStore(damaged)
        // Batch 5 (events 13...15) is the middle batch of the second, sealed segment.
        let target = places[4]
        #expect(target.segment == places[3].segment && target.segment == places[5].segment)
        try ByteSurgery.flipByte(in: target.segment, at: target.offset + LogFormat.headerSize + 3)
        let before = try snapshot(damaged)
        let report = try Salvage.salvage(from: damaged, to: directory.child("new"))
        #expect(!report.keptEverything)
        #expect(report.keptSequence == 1...12)
        #expect(report.keptBatches == 4)
        let dropped = report.dropped
        #expect(dropped.count == 3)
        guard case .damaged(.checksumMismatch) = dropped[0].disposition else {
            Issue.record("expected a checksum mismatch, got \(dropped[0].disposition)")
            return
        }
        #expect(dropped[0].segment == target.segment)
        #expect(dropped[0].offset == Int64(target.offset))
        #expect(dropped[0].byteCount == Int64(places[5].offset - target.offset))
        #expect(dropped[0].sequence == 13...15)
        #expect(dropped[1].disposition == .afterDamage)
        #expect(dropped[1].sequence == 16...18)
        #expect(dropped[1].offset == Int64(places[5].offset))
        #expect(dropped[2].disposition == .afterDamage)
        #expect(dropped[2].sequence == 19...21)
        #expect(dropped[2].segment == places[6].segment)
        try expectSoundStore(directory.child("new"), holding: Array(events[..<12]))
        #expect(try snapshot(damaged) == before, "the damaged store is only read")
    }

    @Test func aTornTailIsDroppedAndEverythingBeforeItKept() throws {
        let directory = TemporaryDirectory()
        let damaged = directory.child("store")
        let (events, places) = try makeStore(damaged)
        let last = try #require(places.last)
        try ByteSurgery.truncate(last.segment, to: last.offset + 20)
        let report = try Salvage.salvage(from: damaged, to: directory.child("new"))
        #expect(report.keptSequence == 1...18)
        #expect(report.dropped.count == 1)
        let torn = try #require(report.dropped.first)
        guard case .tornTail(.truncatedHeader(available: 20)) = torn.disposition else {
            Issue.record("expected a torn tail, got \(torn.disposition)")
            return
        }
        #expect(torn.offset == Int64(last.offset))
        #expect(torn.byteCount == 20)
        try expectSoundStore(directory.child("new"), holding: Array(events[..<18]))
    }

    @Test func aMissingMiddleSegmentStopsTheCopyAndNamesTheMissingEvents() throws {
        let directory = TemporaryDirectory()
        let damaged = directory.child("store")
        let (events, places) = try makeStore(damaged)
        try FileManager.default.removeItem(atPath: places[3].segment)
        let report = try Salvage.salvage(from: damaged, to: directory.child("new"))
        #expect(report.keptSequence == 1...9)
        let dropped = report.dropped
        #expect(dropped.count == 2)
        #expect(dropped[0].disposition == .missing)
        #expect(dropped[0].sequence == 10...18)
        #expect(dropped[0].segment == places[6].segment)
        #expect(dropped[1].disposition == .afterDamage)
        #expect(dropped[1].sequence == 19...21)
        try expectSoundStore(directory.child("new"), holding: Array(events[..<9]))
    }

    @Test func anEventThatFailsTheCheckDropsItsBatch() throws {
        let directory = TemporaryDirectory()
        let damaged = directory.child("store")
        let (events, _) = try makeStore(damaged)
        let bad = sampleEvent(8, length: 40)
        let report = try Salvage.salvage(from: damaged, to: directory.child("new")) { bytes in
            Array(bytes) == bad ? "not an event" : nil
        }
        #expect(report.keptSequence == 1...6)
        guard case .damaged(.undecodableEvent(sequence: 8, detail: "not an event")) = report.dropped.first?.disposition
        else {
            Issue.record("expected an undecodable event, got \(String(describing: report.dropped.first))")
            return
        }
        #expect(report.dropped.first?.sequence == 7...9)
        try expectSoundStore(directory.child("new"), holding: Array(events[..<6]))
    }

    @Test func anExistingNonEmptyDestinationIsRefusedAndLeftAlone() throws {
        let directory = TemporaryDirectory()
        let damaged = directory.child("store")
        _ = try makeStore(damaged)
        let destination = directory.child("new")
        try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: false)
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: destination + "/notes.txt"))
        let error = #expect(throws: LogbookError.self) { try Salvage.salvage(from: damaged, to: destination) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.description.contains("already exists and is not empty") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: destination) == ["notes.txt"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["new", "store"])
    }

    @Test func anEmptyDestinationDirectoryIsReplaced() throws {
        let directory = TemporaryDirectory()
        let damaged = directory.child("store")
        let (events, _) = try makeStore(damaged)
        let destination = directory.child("new")
        try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: false)
        _ = try Salvage.salvage(from: damaged, to: destination)
        try expectSoundStore(destination, holding: events)
    }

    @Test func aDestinationInsideTheDamagedStoreIsRefused() throws {
        let directory = TemporaryDirectory()
        let damaged = directory.child("store")
        _ = try makeStore(damaged)
        let before = try snapshot(damaged)
        let error = #expect(throws: LogbookError.self) { try Salvage.salvage(from: damaged, to: damaged + "/new") }
        #expect(error?.code == .invalidArgument)
        #expect(try snapshot(damaged) == before)
    }

    @Test func aMissingStoreIsNotAStore() throws {
        let directory = TemporaryDirectory()
        let error = #expect(throws: LogbookError.self) {
            try Salvage.salvage(from: directory.child("missing"), to: directory.child("new"))
        }
        #expect(error?.code == .notAStore)
        #expect(!FileManager.default.fileExists(atPath: directory.child("new")))
    }

    enum Fault: String, CaseIterable, CustomTestStringConvertible {
        case write, fdatasync, directoryFsync, rename, parentFsync
        var testDescription: String { rawValue }
    }

    @Test(arguments: Fault.allCases)
    func aFailureWhileWritingThrowsAndLeavesNoStoreUnderTheNewName(fault: Fault) throws {
        let directory = TemporaryDirectory()
        let damaged = directory.child("store")
        _ = try makeStore(damaged)
        let before = try snapshot(damaged)
        let syscalls = FaultySyscalls()
        switch fault {
        case .write: syscalls.inject(.fail(.noSpace), at: 3, on: .pwrite)
        case .fdatasync: syscalls.inject(.fail(.ioError), at: 2, on: .fdatasync)
        case .directoryFsync: syscalls.inject(.fail(.ioError), on: .fsync)
        case .rename: syscalls.inject(.fail(.ioError), at: 2, on: .rename)
        case .parentFsync: syscalls.inject(.fail(.ioError), at: 5, on: .fsync)
        }
        var configuration = LogConfiguration()
        configuration.syscalls = syscalls
        let error = #expect(throws: LogbookError.self) {
            try Salvage.salvage(from: damaged, to: directory.child("new"), configuration: configuration)
        }
        #expect(syscalls.injectedCount == 1)
        #expect(error?.code == (fault == .fdatasync || fault == .directoryFsync ? .writerFailed : .io))
        #expect(!FileManager.default.fileExists(atPath: directory.child("new")))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["store"],
            "the temporary directory is removed"
        )
        #expect(try snapshot(damaged) == before)
    }
}
