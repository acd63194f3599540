import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// Stores written by released versions of the format stay readable forever. Each folder in
/// `Fixtures/` is read here exactly as committed; see `Fixtures/README.md` for how each was made.
struct GoldenStoreTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// What `Fixtures/log-format-1`, `log-format-2` and `log-format-3` hold: sequence numbers
    /// 25...28 are `--noise` events.
    private func expectedEvent(_ sequence: UInt64) -> [UInt8] {
        (25...28).contains(sequence)
            ? ToolProcess.appendLoopNoiseEvent(sequence) : ToolProcess.appendLoopEvent(sequence)
    }

    @Test(arguments: ["log-format-1", "log-format-2", "log-format-3"])
    func theOpaqueStoreReadsBackEveryEvent(name: String) throws {
        let store = Self.fixtures.appendingPathComponent(name).path
        var cursor = LogReader(directory: store).batches()
        var sequences: [UInt64] = []
        var compressed: [Bool] = []
        while let batch = try cursor.next() {
            compressed.append(batch.header.isCompressed)
            for (sequence, bytes) in batch.events {
                sequences.append(sequence)
                #expect([UInt8](bytes) == expectedEvent(sequence), "event \(sequence)")
            }
        }
        #expect(sequences == Array(1...31))
        #expect(compressed == [true, true, true, true, true, true, false, false, true])
    }

    @Test func formatTwoHeaderBytesArePinned() throws {
        let segment = Self.fixtures.appendingPathComponent("log-format-2/00000000000000000001.log")
        let bytes = [UInt8](try Data(contentsOf: segment))
        let header = try #require(bytes.withUnsafeBytes { BatchHeader.read(from: $0) })
        #expect(
            header
                == BatchHeader(
                    version: 2,
                    flags: 1,
                    firstSequence: 1,
                    eventCount: 4,
                    uncompressedLength: 116,
                    storedLength: 52,
                    checksum: 0x2561_9D39
                )
        )
    }

    /// Format 2 changed the headers alone: each batch of a format 2 fixture has the events of
    /// the format 1 one, and flags a schema record exactly where the batch holds one.
    @Test(arguments: ["log-format", "sampletrips-v1", "sampletrips-v2"])
    func theFormatTwoFixturesHoldTheFormatOneBatches(name: String) throws {
        let (one, two) =
            name == "log-format" ? ("log-format-1", "log-format-2") : (name, name + "-format-2")
        func batches(_ fixture: String) throws -> [Batch] {
            var cursor = LogReader(directory: Self.fixtures.appendingPathComponent(fixture).path).batches()
            var batches: [Batch] = []
            while let batch = try cursor.next() { batches.append(batch) }
            return batches
        }
        let old = try batches(one)
        let new = try batches(two)
        #expect(old.count == new.count)
        for (before, after) in zip(old, new) {
            #expect(before.header.version == 1)
            #expect(after.header.version == 2)
            #expect(after.header.firstSequence == before.header.firstSequence)
            #expect(after.header.storedLength == before.header.storedLength)
            #expect(after.header.isCompressed == before.header.isCompressed)
            #expect(after.payload == before.payload)
            let holdsSchema = after.events.contains { $0.bytes.first == LogFormat.schemaRecordKind }
            #expect(after.header.flagsSchemaRecord == holdsSchema)
        }
        let flagged = new.filter(\.header.flagsSchemaRecord).count
        #expect(flagged == (name == "log-format" ? 0 : 1))
    }

    /// Format 3 stores a batch compressed in LZ4 pieces as version 3, and every other batch as
    /// version 2: in `log-format-3`, the compressed batches are in pieces of 64 bytes of payload,
    /// and the two of incompressible events are stored as they are.
    @Test func theFormatThreeFixtureHoldsPiecesAndWholeBatches() throws {
        var cursor = LogReader(directory: Self.fixtures.appendingPathComponent("log-format-3").path).batches()
        var shapes: [String] = []
        while let batch = try cursor.next() {
            let header = batch.header
            #expect(header.version == (header.isInPieces ? 3 : 2))
            // A piece per 64 bytes of payload, each after its four-byte length.
            let pieces = header.isInPieces ? (Int(header.uncompressedLength) + 63) / 64 : 0
            shapes.append("v\(header.version) flags \(header.flags) \(header.eventCount) events in \(pieces) pieces")
            if header.isInPieces {
                let segment = [UInt8](try Data(contentsOf: URL(fileURLWithPath: batch.segment)))
                let start = Int(batch.offset) + LogFormat.headerSize
                let stored = Array(segment[start..<(start + Int(header.storedLength))])
                var offset = 0
                var found = 0
                while offset < stored.count {
                    let length = stored[offset..<(offset + 4)].reversed().reduce(0) { $0 << 8 | Int($1) }
                    offset += 4 + length
                    found += 1
                }
                #expect(offset == stored.count && found == pieces)
            }
        }
        // The events grow longer with their sequence numbers, and the batches with them.
        #expect(
            shapes == [2, 4, 7, 2, 4, 6].map { "v3 flags 5 4 events in \($0) pieces" }
                + Array(repeating: "v2 flags 0 2 events in 0 pieces", count: 2) + ["v3 flags 5 3 events in 3 pieces"]
        )
    }

    @Test func formatThreeHeaderBytesArePinned() throws {
        let segment = Self.fixtures.appendingPathComponent("log-format-3/00000000000000000001.log")
        let bytes = [UInt8](try Data(contentsOf: segment))
        let header = try #require(bytes.withUnsafeBytes { BatchHeader.read(from: $0) })
        #expect(
            header
                == BatchHeader(
                    version: 3,
                    flags: 5,
                    firstSequence: 1,
                    eventCount: 4,
                    uncompressedLength: 116,
                    storedLength: 68,
                    checksum: 0x8E2F_9DCB
                )
        )
        // Two pieces: 39 bytes, then 21.
        #expect(Array(bytes[32..<36]) == [39, 0, 0, 0])
        #expect(Array(bytes[(36 + 39)..<(40 + 39)]) == [21, 0, 0, 0])
    }

    /// Appending the fixture's events in pieces today gives its bytes exactly: the pieces a
    /// writer makes do not change unnoticed.
    @Test func theFormatThreeEventsWrittenTodayGiveTheCommittedBytes() throws {
        let directory = TemporaryDirectory()
        var configuration = LogConfiguration()
        configuration.segmentSize = 300
        let log = try EventLog(directory: directory.path, configuration: configuration)
        for (batches, events, noise) in [(6, 4, false), (2, 2, true), (1, 3, false)] {
            for _ in 0..<batches {
                let first = log.nextSequence
                let bytes = (first..<(first + UInt64(events))).map {
                    noise ? ToolProcess.appendLoopNoiseEvent($0) : ToolProcess.appendLoopEvent($0)
                }
                _ = try log.append(bytes, inPiecesOf: 64)
            }
        }
        log.close()
        let committed = Self.fixtures.appendingPathComponent("log-format-3")
        let names = try FileManager.default.contentsOfDirectory(atPath: committed.path).filter { $0.hasSuffix(".log") }
        #expect(names.count == 6)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".log") }.sorted()
                == names.sorted()
        )
        for name in names {
            let expected = try Data(contentsOf: committed.appendingPathComponent(name))
            let written = try Data(contentsOf: URL(fileURLWithPath: directory.path).appendingPathComponent(name))
            #expect(written == expected, "\(name)")
        }
    }

    @Test func formatOneHeaderBytesArePinned() throws {
        let segment = Self.fixtures.appendingPathComponent("log-format-1/00000000000000000001.log")
        let bytes = [UInt8](try Data(contentsOf: segment))
        let header = try #require(bytes.withUnsafeBytes { BatchHeader.read(from: $0) })
        #expect(
            header
                == BatchHeader(
                    version: 1,
                    flags: 1,
                    firstSequence: 1,
                    eventCount: 4,
                    uncompressedLength: 116,
                    storedLength: 52,
                    checksum: 0x93F9_DF71
                )
        )
        #expect(Array(bytes[0..<4]) == Array("LGBK".utf8))
    }

    @Test func aCopyOfTheFormatOneStoreOpensForWritingAndTakesAppends() throws {
        let copy = TemporaryDirectory()
        let source = Self.fixtures.appendingPathComponent("log-format-1").path
        for name in try FileManager.default.contentsOfDirectory(atPath: source) {
            try FileManager.default.copyItem(atPath: source + "/" + name, toPath: copy.child(name))
        }
        let log = try EventLog(directory: copy.path)
        #expect(log.recovery.cutTail == nil)
        #expect(try log.append([Array("after".utf8)]) == 32...32)
        let verify = try ToolProcess.run(["verify", copy.path])
        #expect(verify.status == 0)
        #expect(verify.stdout.contains("32 events (sequence 1...32)"))
        // The append is a format 2 batch after nine of format 1.
        let info = try ToolProcess.run(["info", copy.path])
        #expect(info.status == 0)
        #expect(info.stdout.contains("format:    version 1: 9 batches, version 2: 1 batch\n"))
        var cursor = LogReader(directory: copy.path).batches()
        var versions: [UInt16] = []
        while let batch = try cursor.next() { versions.append(batch.header.version) }
        #expect(versions == Array(repeating: 1, count: 9) + [2])
    }
}

/// The SampleTrips golden stores, opened with the current models through the talk's plan.
struct SampleTripsGoldenStoreTests {
    /// A copy of a fixture in a temporary directory: opening migrates, and fixtures never change.
    private func copy(_ name: String, into directory: TemporaryDirectory) throws -> URL {
        let source = GoldenStoreTests.fixtures.appendingPathComponent(name)
        let target = URL(fileURLWithPath: directory.child(name))
        try FileManager.default.copyItem(at: source, to: target)
        return target
    }

    /// Writing the demo trips again today, with the time and author `_sample-store` records, gives
    /// the committed format 4 stores byte for byte: the encoding of events, batches and
    /// transaction records has not moved since they were written. (The format 2 stores, written
    /// before saves recorded a transaction record, are read by the tests above.)
    @Test(arguments: [1, 2])
    func theDemoTripsWrittenTodayGiveTheCommittedBytes(version: Int) throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("today.store"))
        do {
            // The time and author `logbook _sample-store` records.
            var configuration = ModelConfiguration(url: url)
            configuration.clock = { Date(timeIntervalSince1970: 1_767_225_600) }
            if version == 1 {
                let container = try ModelContainer(for: SampleTripsSchemaV1.Trip.self, configurations: configuration)
                let context = ModelContext(container)
                context.author = "fixtures"
                try SampleData.insertV1(SampleData.demoTrips, into: context, tripsPerSave: .max)
            } else {
                let container = try ModelContainer(for: SampleTripsSchemaV2.Trip.self, configurations: configuration)
                let context = ModelContext(container)
                context.author = "fixtures"
                try SampleData.insertV2(SampleData.demoTrips, into: context, tripsPerSave: 1)
            }
        }
        let committed = GoldenStoreTests.fixtures.appendingPathComponent("sampletrips-v\(version)-format-4")
        let names = try FileManager.default.contentsOfDirectory(atPath: committed.path).filter { $0.hasSuffix(".log") }
        #expect(!names.isEmpty)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".log") }.sorted()
                == names.sorted()
        )
        for name in names {
            let expected = try Data(contentsOf: committed.appendingPathComponent(name))
            let written = try Data(contentsOf: url.appendingPathComponent(name))
            #expect(written == expected, "\(name) of version \(version)")
        }
    }

    private func day(_ offset: Double) -> Date { Date(timeIntervalSince1970: 1_780_272_000 + offset * 86_400) }

    @Test(arguments: ["sampletrips-v1", "sampletrips-v1-format-2", "sampletrips-v1-format-4"])
    func theVersion1StoreOpensAtVersion3WithEveryValue(name: String) throws {
        let directory = TemporaryDirectory()
        let url = try copy(name, into: directory)
        let container = try ModelContainer(
            for: Trip.self,
            migrationPlan: SampleTripsMigrationPlan.self,
            configurations: ModelConfiguration(url: url)
        )
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.name) == ["Iceland ring road", "Kyoto in autumn", "Summer in Lisbon"])
        #expect(trips.map(\.destination) == ["Iceland", "Kyoto and Nara", "Lisbon and Sintra"])
        #expect(trips.map(\.startDate) == [day(61), day(121), day(2)])
        #expect(trips.map(\.endDate) == [day(75), day(131), day(10)])
        #expect(
            trips.map { Set($0.bucketList?.map(\.title) ?? []) } == [
                ["Jökulsárlón", "Hot pot in Mývatn", "Puffins"],
                ["Fushimi Inari at dawn", "Philosopher's Path", "Deer park in Nara"],
                ["Ride tram 28", "Pastéis de Belém", "Pena Palace"],
            ]
        )
        #expect(trips.map { $0.livingAccommodation?.placeName } == ["Guesthouse Sól", "Machiya Sanjo", "Casa Alfama"])
        #expect(try context.fetchCount(FetchDescriptor<BucketListItem>()) == 9, "no bucket-list item lost")
        #expect(
            try context.fetchCount(FetchDescriptor<LivingAccommodation>()) == 4,
            "the replaced accommodation is kept"
        )
    }

    @Test(arguments: ["sampletrips-v2", "sampletrips-v2-format-2", "sampletrips-v2-format-4"])
    func theVersion2StoreOpensAtVersion3WithEveryValue(name: String) throws {
        let directory = TemporaryDirectory()
        let url = try copy(name, into: directory)
        let container = try ModelContainer(
            for: Trip.self,
            migrationPlan: SampleTripsMigrationPlan.self,
            configurations: ModelConfiguration(url: url)
        )
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.name) == ["Iceland ring road", "Kyoto in autumn", "Kyoto in autumn ", "Summer in Lisbon"])
        #expect(trips.map(\.startDate) == [day(61), day(120), day(121), day(2)])
        #expect(trips.map { $0.bucketList?.count ?? 0 } == [3, 2, 1, 3])
        #expect(try context.fetchCount(FetchDescriptor<BucketListItem>()) == 9)
        #expect(try context.fetchCount(FetchDescriptor<LivingAccommodation>()) == 4)
    }

    @Test(arguments: [
        ("sampletrips-v1", "1 batch, 20 events"), ("sampletrips-v2", "6 batches, 20 events"),
        ("sampletrips-v1-format-2", "1 batch, 20 events"), ("sampletrips-v2-format-2", "6 batches, 20 events"),
        ("sampletrips-v1-format-4", "1 batch, 20 events"), ("sampletrips-v2-format-4", "6 batches, 20 events"),
    ])
    func theFixturesAreSoundAndHoldOnlyWhatTheyWereMadeWith(name: String, content: String) throws {
        let verify = try ToolProcess.run(["verify", GoldenStoreTests.fixtures.appendingPathComponent(name).path])
        #expect(verify.status == 0)
        #expect(verify.stdout.contains("checked 1 segment, \(content)"))
    }
}
