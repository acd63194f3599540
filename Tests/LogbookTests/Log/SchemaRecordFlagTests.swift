import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// Format version 2 flags the batches that hold a schema record, so that a search for schema
/// records decompresses only those; every reader checks that the flag tells the truth.
struct SchemaRecordFlagTests {
    /// An opaque event that begins as a schema record does.
    private func schemaLike(_ n: UInt8) -> [UInt8] { [LogFormat.schemaRecordKind, n, n, n] }

    /// Opaque events that do not, compressible so that their batch is stored compressed.
    private func plain(_ n: UInt8) -> [UInt8] { [0x42] + [UInt8](repeating: n, count: 200) }

    /// Three batches: a schema-like event and a plain one (events 1 and 2), two plain ones (3
    /// and 4), a schema-like one (5). Returns the segment and each batch's offset.
    private func store(_ directory: TemporaryDirectory) throws -> (segment: String, offsets: [Int]) {
        let log = try EventLog(directory: directory.path, configuration: testConfiguration())
        _ = try log.append([schemaLike(1), plain(2)])
        _ = try log.append([plain(3), plain(4)])
        _ = try log.append([schemaLike(5)])
        log.close()
        let segment = directory.child(SegmentDirectory.fileName(forFirstSequence: 1))
        let bytes = try ByteSurgery.bytes(of: segment)
        var offsets: [Int] = []
        var offset = 0
        while offset < bytes.count {
            offsets.append(offset)
            let header = try #require(bytes[offset...].withUnsafeBytes { BatchHeader.read(from: $0) })
            offset += header.frameSize
        }
        return (segment, offsets)
    }

    private func header(at offset: Int, of segment: String) throws -> BatchHeader {
        let bytes = try ByteSurgery.bytes(of: segment)
        return try #require(bytes[offset...].withUnsafeBytes { BatchHeader.read(from: $0) })
    }

    /// Rewrites the batch at `offset` with `edit` applied to its frame, then seals it again, so
    /// that only what `edit` changed is wrong.
    private func forge(_ segment: String, at offset: Int, _ edit: (UnsafeMutableRawBufferPointer) -> Void) throws {
        var bytes = try ByteSurgery.bytes(of: segment)
        bytes.withUnsafeMutableBytes { raw in
            guard let header = BatchHeader.read(from: UnsafeRawBufferPointer(rebasing: raw[offset...])) else { return }
            let frame = UnsafeMutableRawBufferPointer(rebasing: raw[offset..<(offset + header.frameSize)])
            edit(frame)
            BatchHeader.seal(frame)
        }
        try ByteSurgery.write(bytes, to: segment)
    }

    private func setFlags(_ flags: UInt16, in frame: UnsafeMutableRawBufferPointer) {
        frame.storeBytes(of: flags.littleEndian, toByteOffset: LogFormat.Offset.flags, as: UInt16.self)
    }

    @Test func theFlagMarksExactlyTheBatchesWithASchemaRecord() throws {
        let directory = TemporaryDirectory()
        let (segment, offsets) = try store(directory)
        let headers = try offsets.map { try header(at: $0, of: segment) }
        #expect(headers.map(\.version) == [2, 2, 2])
        #expect(headers.map(\.flagsSchemaRecord) == [true, false, true])
        #expect(headers[1].isCompressed)
        #expect(try readAll(directory.path).map(\.0) == [1, 2, 3, 4, 5])
    }

    @Test func theSchemaRecordKindIsTheCodecsKindOfASchemaRecord() {
        #expect(LogFormat.schemaRecordKind == EventCodec.Kind.schema.rawValue)
    }

    @Test func aSearchForSchemaRecordsDoesNotDecompressTheOtherBatches() throws {
        let directory = TemporaryDirectory()
        let (segment, offsets) = try store(directory)
        // The second batch's LZ4 block, garbled under a checksum that matches: only a reader that
        // decompresses it finds out.
        try forge(segment, at: offsets[1]) { frame in
            for index in LogFormat.headerSize..<frame.count { frame[index] = 0xFF }
        }
        var search = LogReader(directory: directory.path).schemaRecordBatches()
        var found: [UInt64] = []
        while let batch = try search.next() { found.append(batch.firstSequence) }
        #expect(found == [1, 5])

        let error = #expect(throws: LogbookError.self) { try readAll(directory.path) }
        #expect(error?.code == .corruption)
        #expect(error?.offset == Int64(offsets[1]))
        #expect(error?.description.contains("does not decompress") == true)
    }

    @Test func aSearchThroughASequenceNumberStopsBeforeTheBatchesAfterIt() throws {
        let directory = TemporaryDirectory()
        _ = try store(directory)
        var search = LogReader(directory: directory.path).schemaRecordBatches(through: 4)
        var found: [UInt64] = []
        while let batch = try search.next() { found.append(batch.firstSequence) }
        #expect(found == [1])
    }

    @Test func aBatchThatHidesItsSchemaRecordIsDamage() throws {
        let directory = TemporaryDirectory()
        let (segment, offsets) = try store(directory)
        try forge(segment, at: offsets[2]) { setFlags(0, in: $0) }
        let error = #expect(throws: LogbookError.self) { try readAll(directory.path) }
        #expect(error?.code == .corruption)
        #expect(error?.path == segment)
        #expect(error?.offset == Int64(offsets[2]))
        #expect(
            error?.description.contains("event 0 of the batch is a schema record, but the header does not flag one")
                == true
        )
    }

    @Test func verificationReportsABatchWhoseFlagDisagreesWithItsEvents() throws {
        let directory = TemporaryDirectory()
        let (segment, offsets) = try store(directory)
        try forge(segment, at: offsets[2]) { setFlags(0, in: $0) }
        let report = try LogVerifier.verify(directory: directory.path)
        #expect(report.damages.map(\.offset) == [Int64(offsets[2])])
        #expect(report.damages.map(\.reason) == [.schemaRecordFlagMismatch(flagged: false, event: 0)])
        #expect(report.incompleteTail == nil, "a batch whose checksum matches is no torn write")
    }

    @Test func aBatchThatFlagsASchemaRecordItDoesNotHoldIsDamage() throws {
        let directory = TemporaryDirectory()
        let (segment, offsets) = try store(directory)
        try forge(segment, at: offsets[1]) { setFlags(LogFormat.flagCompressed | LogFormat.flagSchemaRecord, in: $0) }
        let error = #expect(throws: LogbookError.self) { try readAll(directory.path) }
        #expect(error?.offset == Int64(offsets[1]))
        #expect(
            error?.description.contains("the header flags a schema record, but no event of the batch is one") == true
        )
    }

    @Test func aVersion1BatchCannotSetTheFlag() throws {
        let directory = TemporaryDirectory()
        let (segment, offsets) = try store(directory)
        try forge(segment, at: offsets[0]) { frame in
            frame.storeBytes(of: UInt16(1).littleEndian, toByteOffset: LogFormat.Offset.version, as: UInt16.self)
        }
        let error = #expect(throws: LogbookError.self) { try readAll(directory.path) }
        #expect(error?.offset == 0)
        #expect(error?.description.contains("unknown batch flags 0x3") == true)
    }

    @Test func aVersion1BatchIsSearchedForSchemaRecordsWhateverItHolds() throws {
        let directory = TemporaryDirectory()
        let (segment, offsets) = try store(directory)
        // The plain batch rewritten as version 1, which has no flag to say what it holds.
        try forge(segment, at: offsets[1]) { frame in
            frame.storeBytes(of: UInt16(1).littleEndian, toByteOffset: LogFormat.Offset.version, as: UInt16.self)
        }
        var search = LogReader(directory: directory.path).schemaRecordBatches()
        var found: [UInt64] = []
        while let batch = try search.next() { found.append(batch.firstSequence) }
        #expect(found == [1, 3, 5])
        #expect(try readAll(directory.path).map(\.0) == [1, 2, 3, 4, 5])
    }

    /// A store's first save flags its batch, which records the schema; later saves do not.
    @Test func aContainerFlagsTheSaveThatRecordsItsSchemaAndNoOther() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("trips.store"))
        do {
            let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url))
            let context = ModelContext(container)
            for trip in SampleData.demoTrips.prefix(3) {
                context.insert(
                    Trip(
                        name: trip.name,
                        destination: trip.destination,
                        startDate: trip.startDate,
                        endDate: trip.endDate
                    )
                )
                try context.save()
            }
        }
        var cursor = LogReader(directory: url.path).batches()
        var flags: [Bool] = []
        var holds: [Bool] = []
        while let batch = try cursor.next() {
            flags.append(batch.header.flagsSchemaRecord)
            holds.append(batch.events.contains { $0.bytes.first == EventCodec.Kind.schema.rawValue })
        }
        #expect(flags == [true, false, false])
        #expect(holds == flags)
        let records = try RecordedSchemas.scan(LogReader(directory: url.path))
        #expect(records.map(\.number) == [1])
    }
}
