import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// A checkpoint that fails its own checks is ignored with a warning naming the file and the
/// reason, and the store opens with every save; a log that lost what a sound checkpoint names
/// stops the open.
struct CheckpointDamageTests {
    /// A store of saves, a checkpoint, and saves after it; returns the checkpoint's path and
    /// what the store holds.
    private func makeStore(
        _ store: CheckpointStore,
        seed: UInt64 = 21,
        stepsAfter: Int = 5
    ) throws -> (String, TripsSnapshot) {
        var history = TripsHistory(seed: seed)
        let container = try store.open()
        try history.save(container, steps: 20)
        try container.checkpoint()
        try history.save(container, steps: stepsAfter)
        let path = try #require(try store.checkpoints().first).path
        return (path, try TripsSnapshot(container))
    }

    /// Opens the store and checks that it ignored the checkpoint with a warning that names it
    /// and says `reason`, and holds `expected`.
    private func expectIgnored(
        _ store: CheckpointStore,
        _ path: String,
        _ reason: String,
        _ expected: TripsSnapshot,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let container = try store.open()
        #expect(!store.openedFromCheckpoint, sourceLocation: sourceLocation)
        let warning = store.warnings.last { $0.contains("ignored checkpoint \(path)") }
        #expect(warning?.contains(reason) == true, "\(store.warnings)", sourceLocation: sourceLocation)
        #expect(try TripsSnapshot(container) == expected, sourceLocation: sourceLocation)
    }

    @Test func aFlippedByteInTheHeaderIsIgnored() throws {
        let store = CheckpointStore()
        let (path, expected) = try makeStore(store)
        try ByteSurgery.flipByte(in: path, at: 20)
        try expectIgnored(store, path, "header checksum mismatch", expected)
    }

    @Test func aFlippedByteInEachSectionCheckedAtTheOpenIsIgnored() throws {
        let probe = CheckpointStore()
        let (probePath, _) = try makeStore(probe)
        let sections = try CheckpointReader(path: probePath).sections.filter {
            !$0.range.isEmpty && $0.kind != .values && $0.kind != .heap
        }
        // The four of the store, and two per entity.
        #expect(sections.count == 4 + 2 * 3)
        let all = try CheckpointReader(path: probePath).sections
        for section in sections {
            let index = try #require(all.firstIndex { $0.range == section.range })
            let store = CheckpointStore()
            let (path, expected) = try makeStore(store)
            try ByteSurgery.flipByte(in: path, at: section.range.lowerBound + section.range.count / 2)
            try expectIgnored(store, path, "checksum mismatch in section \(index) (\(section.kind))", expected)
        }
    }

    @Test func aFlippedByteInAValuesOrHeapSectionIsFoundWhenReadAndReadFromTheLog() throws {
        let probe = CheckpointStore()
        let (probePath, _) = try makeStore(probe)
        let sections = try CheckpointReader(path: probePath).sections.filter {
            !$0.range.isEmpty && ($0.kind == .values || $0.kind == .heap)
        }
        #expect(sections.count == 6)
        for section in sections {
            // No saves after the checkpoint: none of its cells is replaced before it is read.
            let store = CheckpointStore()
            let (path, expected) = try makeStore(store, stepsAfter: 0)
            let flipped = section.range.lowerBound + section.range.count / 2
            try ByteSurgery.flipByte(in: path, at: flipped)
            let chunk =
                section.range.lowerBound + (flipped - section.range.lowerBound) / CheckpointFormat.chunkSize
                * CheckpointFormat.chunkSize
            // The open checks neither: it loads the checkpoint, and the first read of a value in
            // the damaged chunk (the unique index build's, the snapshot's, or the next
            // checkpoint's, which reads every cell) replays the log for it, with a warning naming
            // file and offset.
            let container = try store.open()
            #expect(store.openedFromCheckpoint)
            #expect(try TripsSnapshot(container) == expected)
            try container.checkpoint()
            let warning = store.warnings.first { $0.contains("damaged checkpoint \(path)") }
            let place = section.kind == .heap ? "the heap's chunk" : "the chunk"
            #expect(warning?.contains("checksum mismatch in \(place) at byte \(chunk)") == true, "\(store.warnings)")
            #expect(warning?.contains("from the log up to sequence") == true)
            // The next checkpoint, which replaces this one at the same sequence number, holds the
            // values the log gives, not the damaged bytes.
            #expect(try store.checkpoints().first?.path == path)
            #expect(CheckpointTool.verify(path, store: store.path) == nil)
            #expect(try TripsSnapshot(try store.open()) == expected)
        }
    }

    @Test func aCheckpointFoundDamagedOnReadIsReplacedAsTheStoreCloses() throws {
        let store = CheckpointStore()
        let (path, expected) = try makeStore(store, stepsAfter: 0)
        let reader = try CheckpointReader(path: path)
        let heap = try #require(reader.sections.first { $0.kind == .heap && $0.range.count > 8 })
        try ByteSurgery.flipByte(in: path, at: heap.range.lowerBound + 4)
        // A store that writes checkpoints by itself, with no save and a log far below the
        // interval: the damage alone makes it write one as it closes.
        do {
            let container = try store.open(interval: 16 << 20)
            #expect(store.openedFromCheckpoint)
            #expect(try TripsSnapshot(container) == expected)
            #expect(store.warnings.contains { $0.contains("damaged checkpoint \(path)") })
        }
        #expect(CheckpointTool.verify(path, store: store.path) == nil)
        let warned = store.warnings.count
        #expect(try TripsSnapshot(try store.open(interval: 16 << 20)) == expected)
        #expect(store.openedFromCheckpoint)
        #expect(!store.warnings.dropFirst(warned).contains { $0.contains("damaged checkpoint") }, "\(store.warnings)")
    }

    @Test func aCheckpointFoundDamagedOnReadIsReplacedByTheNextSavesBackgroundCheckpoint() throws {
        let store = CheckpointStore()
        let (path, expected) = try makeStore(store, stepsAfter: 0)
        let reader = try CheckpointReader(path: path)
        let values = try #require(reader.sections.first { $0.kind == .values && !$0.range.isEmpty })
        try ByteSurgery.flipByte(in: path, at: values.range.lowerBound + 9)
        let container = try store.open(interval: 16 << 20)
        #expect(try TripsSnapshot(container) == expected)
        #expect(store.warnings.contains { $0.contains("damaged checkpoint \(path)") })
        let context = ModelContext(container)
        context.insert(Trip(name: "after the damage", destination: "d", startDate: .now, endDate: .now))
        try context.save()
        container.store.checkpoints.close()
        let newest = try #require(try store.checkpoints().first)
        #expect(newest.path != path)
        #expect(CheckpointTool.verify(newest.path, store: store.path) == nil)
    }

    @Test func aCheckpointCheckedWholeNamesAFlippedByteInAValuesSection() throws {
        let store = CheckpointStore()
        let (path, _) = try makeStore(store)
        let reader = try CheckpointReader(path: path)
        let index = try #require(reader.sections.firstIndex { $0.kind == .values && !$0.range.isEmpty })
        let section = reader.sections[index]
        try ByteSurgery.flipByte(in: path, at: section.range.lowerBound + 3)
        // The tool's reader checks every section; an open's leaves the values for their reads.
        let error = #expect(throws: LogbookError.self) { try CheckpointReader(path: path) }
        #expect(error?.message.contains("checksum mismatch in section \(index) (values)") == true)
        #expect(error?.offset == Int64(section.range.lowerBound))
        #expect(try CheckpointReader(path: path, checking: .onFirstRead).checksOnRead)
        #expect(CheckpointTool.verify(path, store: store.path)?.contains("checksum mismatch") == true)
    }

    @Test func aTruncatedCheckpointIsIgnored() throws {
        let store = CheckpointStore()
        let (path, expected) = try makeStore(store)
        try ByteSurgery.truncate(path, to: try ByteSurgery.size(of: path) / 2)
        try expectIgnored(store, path, "outside the file", expected)
        try ByteSurgery.truncate(path, to: 100)
        try expectIgnored(store, path, "shorter than a header", expected)
    }

    @Test func aCheckpointOfAnotherStoreIsIgnored() throws {
        let store = CheckpointStore()
        let (own, expected) = try makeStore(store)
        let other = CheckpointStore()
        let (foreign, _) = try makeStore(other, seed: 22)
        try FileManager.default.removeItem(atPath: own)
        let copied = SegmentDirectory.join(store.checkpointsPath, SegmentDirectory.lastComponent(of: foreign))
        try FileManager.default.copyItem(atPath: foreign, toPath: copied)
        try expectIgnored(store, copied, "written for another store", expected)
    }

    @Test func aCheckpointOfANewerFormatIsIgnoredAndTheOlderOneUsed() throws {
        let store = CheckpointStore()
        var history = TripsHistory(seed: 5)
        let expected: TripsSnapshot
        do {
            let container = try store.open()
            try history.save(container, steps: 10)
            try container.checkpoint()
            try history.save(container, steps: 10)
            try container.checkpoint()
            expected = try TripsSnapshot(container)
        }
        let (newest, older) = try (#require(try store.checkpoints().first), #require(try store.checkpoints().last))
        var bytes = try ByteSurgery.bytes(of: newest.path)
        bytes[4] = 3
        // A sound header of version 3: the checksums agree.
        #expect(CheckpointSeal.reseal(&bytes))
        try ByteSurgery.write(bytes, to: newest.path)
        let container = try store.open()
        let warning = store.warnings.first { $0.contains("ignored checkpoint \(newest.path)") }
        #expect(
            warning?.contains("checkpoint format version 3, which this release does not read (it reads 1 to 2)")
                == true,
            "\(store.warnings)"
        )
        #expect(store.openedFromCheckpoint)
        #expect(
            store.handler.entries.contains { $0.message.description == "opened from checkpoint \(older.path)" }
        )
        #expect(try TripsSnapshot(container) == expected)
    }

    @Test func aLogCutShortBeforeACheckpointStopsTheOpenAndChangesNothing() throws {
        let store = CheckpointStore()
        var history = TripsHistory(seed: 8)
        do {
            let container = try store.open()
            try history.save(container, steps: 12)
            try container.checkpoint()
        }
        // The last save's batch is cut off at its start: a clean end of the log, which the
        // durable record would catch too; without it, the checkpoint does.
        try FileManager.default.removeItem(atPath: SegmentDirectory.join(store.path, DurableRecord.fileName))
        let segment = try #require(try LogReader(directory: store.path).segments().last).path
        let frames = try ByteSurgery.bytes(of: segment).withUnsafeBytes { BatchHeader.frames(in: $0) }
        let last = try #require(frames.last)
        try ByteSurgery.truncate(segment, to: last.lowerBound)
        let files = try FileManager.default.subpathsOfDirectory(atPath: store.path).sorted()
        let before = try files.map { try contents(SegmentDirectory.join(store.path, $0)) }
        let error = #expect(throws: LogbookError.self) { try store.open() }
        #expect(error?.code == .corruption)
        #expect(error?.message.contains("acknowledged saves are missing") == true)
        #expect(
            error?.message.contains(
                CheckpointFormat.fileName(forSequence: try #require(store.checkpoints().first).sequence)
            ) == true
        )
        #expect(try FileManager.default.subpathsOfDirectory(atPath: store.path).sorted() == files)
        #expect(try files.map { try contents(SegmentDirectory.join(store.path, $0)) } == before)
    }

    @Test func aLogWhoseBatchAtTheCheckpointDiffersStopsTheOpen() throws {
        let store = CheckpointStore()
        var history = TripsHistory(seed: 8)
        do {
            let container = try store.open()
            try history.save(container, steps: 6)
            try container.checkpoint()
        }
        try FileManager.default.removeItem(atPath: SegmentDirectory.join(store.path, DurableRecord.fileName))
        // The checkpoint names the batch at another checksum: as if the log were rewritten.
        let path = try #require(try store.checkpoints().first).path
        var bytes = try ByteSurgery.bytes(of: path)
        bytes[24] ^= 0xFF
        let checksum = CRC32C.checksum(
            Array(bytes[CheckpointFormat.headerSize..<(CheckpointFormat.headerSize + 32 * Int(bytes[12]))]),
            continuing: CRC32C.checksum(Array(bytes[..<CheckpointFormat.headerChecksumOffset]))
        )
        withUnsafeBytes(of: checksum.littleEndian) { raw in
            for (index, byte) in raw.enumerated() { bytes[CheckpointFormat.headerChecksumOffset + index] = byte }
        }
        try ByteSurgery.write(bytes, to: path)
        let error = #expect(throws: LogbookError.self) { try store.open() }
        #expect(error?.code == .corruption)
        #expect(error?.message.contains("the log was changed after it was on disk") == true)
    }

    @Test func anIdentifierHeldTwiceUnderSoundChecksumsIsIgnored() throws {
        let store = CheckpointStore()
        let (path, expected) = try makeStore(store)
        let reader = try CheckpointReader(path: path)
        let section = try #require(reader.sections.first { $0.kind == .entity && $0.table == 0 })
        var bytes = try ByteSurgery.bytes(of: path)
        func word(_ offset: Int) -> Int {
            (0..<8).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
        }
        // The entity section's fields (see the On-disk format article), then its identifiers.
        let start = section.range.lowerBound
        let nameLength = (0..<4).reduce(0) { $0 | Int(bytes[start + $1]) << (8 * $1) }
        var position = (4 + nameLength + 7) / 8 * 8
        let slots = word(start + position)
        let uniqueCount = (0..<4).reduce(0) { $0 | Int(bytes[start + position + 24 + $1]) << (8 * $1) }
        position = (position + 32 + 4 * uniqueCount + 7) / 8 * 8 + 8
        let live = (0..<slots).map { start + position + 8 * $0 }.filter { word($0) != 0 }
        try #require(live.count >= 2)
        let twice = word(live[0])
        for index in 0..<8 { bytes[live[1] + index] = bytes[live[0] + index] }
        #expect(CheckpointSeal.reseal(&bytes))
        try ByteSurgery.write(bytes, to: path)
        try expectIgnored(store, path, "identifier \(twice) held twice", expected)
    }

    private func contents(_ path: String) throws -> [UInt8] {
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        return isDirectory.boolValue ? [] : try ByteSurgery.bytes(of: path)
    }
}
