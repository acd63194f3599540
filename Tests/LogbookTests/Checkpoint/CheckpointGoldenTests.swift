import Foundation
import InMemoryLogging
import Logging
import SampleTrips
import Testing

@testable import Logbook

/// `Fixtures/sampletrips-v2-checkpoint-1`: the version 2 demo store with the checkpoint that
/// `logbook checkpoint` wrote at checkpoint format 1. Every later release must read it.
struct CheckpointGoldenTests {
    static let fixture = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/sampletrips-v2-checkpoint-1")
    static let checkpoint = fixture.appendingPathComponent("checkpoints/00000000000000000020.checkpoint")

    /// A copy of the fixture, which opening must not change.
    private func copy(into directory: TemporaryDirectory) throws -> URL {
        let target = URL(fileURLWithPath: directory.child("golden.store"))
        try FileManager.default.copyItem(at: Self.fixture, to: target)
        return target
    }

    @Test func theHeaderIsPinned() throws {
        let reader = try CheckpointReader(path: Self.checkpoint.path)
        let header = reader.header
        #expect(header.version == 1)
        #expect(header.sequence == 20)
        #expect(header.segmentFirstSequence == 1)
        #expect(header.batchOffset == 2007)
        #expect(header.logBytes == 2126)
        #expect(header.storeIdentity == (try CheckpointFiles.storeIdentity(of: Self.fixture.path)))
        #expect(header.schemaVersion == Schema.Version(1, 0, 0))
        #expect(reader.sections.count == 15)
        let bytes = try ByteSurgery.bytes(of: Self.checkpoint.path)
        #expect(Array(bytes[0..<16]) == [0x4C, 0x42, 0x43, 0x50, 1, 0, 0, 0, 0xA0, 0, 0, 0, 0x0F, 0, 0, 0])
    }

    @Test func itHoldsWhatTheLogReplaysTo() {
        #expect(CheckpointTool.verify(Self.checkpoint.path, store: Self.fixture.path) == nil)
    }

    @Test func aContainerOfTheVersion2ModelsOpensFromIt() throws {
        let directory = TemporaryDirectory()
        let url = try copy(into: directory)
        let handler = InMemoryLogHandler()
        var configuration = ModelConfiguration(url: url)
        var logger = Logger(label: "test", factory: { _ in handler })
        logger.logLevel = .debug
        configuration.logger = logger
        configuration.checkpointInterval = nil
        func trips() throws -> [String] {
            let container = try ModelContainer(for: SampleTripsSchemaV2.Trip.self, configurations: configuration)
            let context = ModelContext(container)
            return try context.fetch(FetchDescriptor<SampleTripsSchemaV2.Trip>(sortBy: [SortDescriptor(\.name)])).map {
                "\($0.name)|\($0.destination)|\(($0.bucketList ?? []).map(\.title).sorted())|\($0.livingAccommodation?.placeName ?? "-")"
            }
        }
        let fromCheckpoint = try trips()
        #expect(handler.entries.contains { $0.message.description.hasPrefix("opened from checkpoint") })
        #expect(fromCheckpoint.count == 4)
        try FileManager.default.removeItem(at: url.appendingPathComponent("checkpoints"))
        #expect(try trips() == fromCheckpoint)
    }

    @Test func itIsCheckedWholeAtTheOpenAndNothingIsLeftForTheReads() throws {
        let reader = try CheckpointReader(path: Self.checkpoint.path, checking: .onFirstRead)
        #expect(reader.chunks == nil)
        #expect(!reader.checksOnRead)
    }
}

/// `Fixtures/sampletrips-v2-checkpoint-2`: the same store with the checkpoint that
/// `logbook checkpoint` writes at checkpoint format 2, whose values and heaps are checked a chunk
/// at a time as they are read. Every later release must read it.
struct CheckpointFormat2GoldenTests {
    static let fixture = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/sampletrips-v2-checkpoint-2")
    static let checkpoint = fixture.appendingPathComponent("checkpoints/00000000000000000020.checkpoint")

    @Test func theHeaderAndTheChunksSectionArePinned() throws {
        let reader = try CheckpointReader(path: Self.checkpoint.path)
        #expect(reader.header.version == 2)
        #expect(reader.header.sequence == 20)
        #expect(reader.header.batchOffset == 2007)
        #expect(reader.header.schemaVersion == Schema.Version(1, 0, 0))
        // The sections of format 1, and the chunks section after the aliases.
        #expect(reader.sections.count == 16)
        #expect(reader.sections.map(\.kind).prefix(4) == [.state, .schemas, .aliases, .chunks])
        let bytes = try ByteSurgery.bytes(of: Self.checkpoint.path)
        #expect(Array(bytes[0..<16]) == [0x4C, 0x42, 0x43, 0x50, 2, 0, 0, 0, 0xA0, 0, 0, 0, 0x10, 0, 0, 0])
        // The chunk size, then one checksum per chunk of each other section: every section of
        // this small store is one chunk, but the empty ones, which have none.
        let chunks = reader.sections[3].range
        #expect(Array(bytes[chunks.lowerBound..<(chunks.lowerBound + 8)]) == [0, 0, 1, 0, 0, 0, 0, 0])
        let nonEmpty = reader.sections.enumerated().filter { $0.offset != 3 && !$0.element.range.isEmpty }
        #expect(chunks.count == 8 + 4 * nonEmpty.count)
        for (position, (_, section)) in nonEmpty.enumerated() {
            let stored = bytes[(chunks.lowerBound + 8 + 4 * position)...].prefix(4)
                .enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * $1.offset) }
            #expect(stored == CRC32C.checksum(Array(bytes[section.range])))
        }
    }

    @Test func itHoldsWhatTheLogReplaysTo() {
        #expect(CheckpointTool.verify(Self.checkpoint.path, store: Self.fixture.path) == nil)
    }

    @Test func anOpenChecksOnlyTheSmallSectionsAndLeavesTheValuesForTheReads() throws {
        let reader = try CheckpointReader(path: Self.checkpoint.path, checking: .onFirstRead)
        #expect(reader.checksOnRead)
        #expect(reader.chunks != nil)
    }

    @Test func writingItTodayGivesTheCommittedBytes() throws {
        let directory = TemporaryDirectory()
        let target = URL(fileURLWithPath: directory.child("golden.store"))
        try FileManager.default.copyItem(at: Self.fixture, to: target)
        try FileManager.default.removeItem(at: target.appendingPathComponent("checkpoints"))
        let path = try #require(try CheckpointTool.write(store: target.path))
        #expect(try ByteSurgery.bytes(of: path) == (try ByteSurgery.bytes(of: Self.checkpoint.path)))
    }
}
