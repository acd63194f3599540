import Foundation
import Testing

@testable import Logbook

/// `logbook checkpoint`, and the checkpoints `info` lists and `verify` checks.
struct CheckpointToolTests {
    /// The demo's store, migrated to version 3, with a checkpoint the tool wrote.
    private func checkpointedStore(_ directory: TemporaryDirectory) throws -> (store: String, checkpoint: String) {
        let store = directory.child("trips.store")
        #expect(try ToolProcess.run(["demo", store]).status == 0)
        let outcome = try ToolProcess.run(["checkpoint", store])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let entry = try #require(try CheckpointFiles.list(in: store).first)
        #expect(outcome.stdout.hasPrefix("wrote \(entry.path): sequence \(entry.sequence), "))
        #expect(outcome.stdout.hasSuffix(" KiB, schema 3.0.0\n"))
        return (store, entry.path)
    }

    @Test func checkpointWritesOneAtTheLastSaveAndInfoListsIt() throws {
        let directory = TemporaryDirectory()
        let (store, checkpoint) = try checkpointedStore(directory)
        let entry = try #require(try CheckpointFiles.list(in: store).first)
        #expect(entry.sequence == (try lastSequence(store)))
        let info = try ToolProcess.run(["info", store])
        #expect(info.status == 0)
        let name = SegmentDirectory.lastComponent(of: checkpoint)
        #expect(info.stdout.contains("checkpoints: 1\n  \(name)  sequence \(entry.sequence)  "))
        #expect(info.stdout.contains(" KiB  schema 3.0.0\n"))
    }

    @Test func verifyChecksACheckpointAgainstTheLog() throws {
        let directory = TemporaryDirectory()
        let (store, checkpoint) = try checkpointedStore(directory)
        let outcome = try ToolProcess.run(["verify", store])
        #expect(outcome.status == 0, "\(outcome.stdout)")
        let name = SegmentDirectory.lastComponent(of: checkpoint)
        #expect(outcome.stdout.contains("checkpoints: 1\n  \(name)  sequence "))
        #expect(outcome.stdout.contains("  matches the log\n"))
        #expect(outcome.stdout.hasSuffix("sound\n"))
    }

    @Test func verifyOfADamagedCheckpointExitsOne() throws {
        let directory = TemporaryDirectory()
        let (store, checkpoint) = try checkpointedStore(directory)
        try FileBytes.flipByte(in: checkpoint, at: try FileBytes.size(of: checkpoint) - 3)
        let outcome = try ToolProcess.run(["verify", store])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("(\(checkpoint) at byte offset"))
        #expect(outcome.stdout.contains("damaged checkpoint: checksum mismatch in section"))
        #expect(outcome.stdout.hasSuffix("unsound: 1 checkpoint damaged or unlike the log\n"))
    }

    @Test func verifyNamesTheFirstDifferenceOfACheckpointUnlikeTheLog() throws {
        let directory = TemporaryDirectory()
        let (store, checkpoint) = try checkpointedStore(directory)
        // A checkpoint whose checksums agree but which holds another value: the first string
        // in the first entity's heap changes its first letter.
        let reader = try CheckpointReader(path: checkpoint)
        let index = try #require(reader.sections.firstIndex { $0.kind == .heap && !$0.range.isEmpty })
        let section = reader.sections[index]
        var bytes = try FileBytes.bytes(of: checkpoint)
        bytes[section.range.lowerBound] = UInt8(ascii: "#")
        #expect(CheckpointSeal.reseal(&bytes))
        try FileBytes.write(bytes, to: checkpoint)
        let outcome = try ToolProcess.run(["verify", store])
        #expect(outcome.status == 1)
        let entity = try Self.entityName(of: section.table, in: store)
        #expect(outcome.stdout.contains("differs: entity \(entity), identifier "), "\(outcome.stdout)")
        #expect(outcome.stdout.contains(", attribute "))
        #expect(outcome.stdout.contains("the checkpoint holds string(\"#"))
        #expect(outcome.stdout.hasSuffix("unsound: 1 checkpoint damaged or unlike the log\n"))
    }

    @Test func salvageDoesNotCopyCheckpoints() throws {
        let directory = TemporaryDirectory()
        let (store, _) = try checkpointedStore(directory)
        let salvaged = directory.child("salvaged.store")
        #expect(try ToolProcess.run(["salvage", store, salvaged]).status == 0)
        #expect(try CheckpointFiles.list(in: salvaged).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: CheckpointFiles.directory(of: salvaged)))
    }

    private func lastSequence(_ store: String) throws -> UInt64 {
        var last: UInt64 = 0
        try EventStream.forEach(LogReader(directory: store)) { sequence, _ in last = sequence }
        return last
    }

    private static func entityName(of table: Int, in store: String) throws -> String {
        let records = try RecordedSchemas.scan(LogReader(directory: store))
        return try #require(records.last).schema.entities[table].name
    }
}

/// Reads and changes files byte by byte.
private enum FileBytes {
    static func bytes(of path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func size(of path: String) throws -> Int {
        try bytes(of: path).count
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    static func flipByte(in path: String, at offset: Int) throws {
        var contents = try bytes(of: path)
        contents[offset] ^= 0x01
        try write(contents, to: path)
    }
}
