import Foundation
import Testing

@testable import Logbook

/// The transaction record that begins a batch of format version 4 (flag bit 3).
struct TransactionRecordTests {
    private let record = BatchTransaction(timestamp: Date(timeIntervalSince1970: 1_767_225_600), author: "ana")

    private func appendWithRecord(_ events: [[UInt8]], to log: EventLog) throws -> ClosedRange<UInt64> {
        var payload = BatchPayload()
        payload.appendTransaction(record)
        for event in events { payload.append(event) }
        return try log.append(payload)
    }

    @Test func aBatchWithATransactionRecordIsVersionFourAndTheRecordTakesNoSequenceNumber() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(directory: directory.path, configuration: testConfiguration())
        #expect(try appendWithRecord([Array("first".utf8), Array("second".utf8)], to: log) == 1...2)
        #expect(try log.append([Array("third".utf8)]) == 3...3, "a batch without a record")
        log.close()
        var cursor = LogReader(directory: directory.path).batches()
        let batch = try #require(try cursor.next())
        #expect(batch.header.version == 4)
        #expect(batch.header.flags & LogFormat.flagTransaction != 0)
        #expect(batch.header.eventCount == 2)
        #expect(batch.events.map { Array($0.bytes) } == [Array("first".utf8), Array("second".utf8)])
        #expect(try batch.transaction() == record)
        let plain = try #require(try cursor.next())
        #expect(plain.header.version == 2)
        #expect(try plain.transaction() == nil)
    }

    @Test(arguments: [nil, "", "Zoë"])
    func theRecordRoundTrips(author: String?) throws {
        let record = BatchTransaction(timestamp: Date(timeIntervalSinceReferenceDate: -12.5), author: author)
        var writer = BinaryWriter()
        record.encode(into: &writer)
        #expect(try BatchTransaction.decode(writer.bytes[...]) == record)
    }

    @Test(arguments: [
        ([UInt8](repeating: 0, count: 7), "truncated timestamp"),
        ([0, 0, 0, 0, 0, 0, 0xF0, 0x7F, 0], "not a finite number"),
        ([0, 0, 0, 0, 0, 0, 0, 0, 2], "invalid author marker"),
        ([0, 0, 0, 0, 0, 0, 0, 0, 1, 5, 65], "invalid author"),
        ([0, 0, 0, 0, 0, 0, 0, 0, 0, 9], "1 bytes after it"),
    ])
    func aMalformedRecordIsCorruption(bytes: [UInt8], problem: String) {
        #expect {
            try BatchTransaction.decode(bytes[...])
        } throws: { error in
            guard let error = error as? LogbookError else { return false }
            return error.code == .corruption && error.message.contains(problem)
        }
    }

    @Test func aMalformedRecordInTheLogNamesItsSegmentAndOffset() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(directory: directory.path, configuration: testConfiguration())
        _ = try log.append([Array("before".utf8)])
        var payload = BatchPayload()
        payload.appendTransaction(encoded: [0, 0, 0, 0, 0, 0, 0, 0, 7][...])
        payload.append(Array("event".utf8))
        _ = try log.append(payload)
        log.close()
        var cursor = LogReader(directory: directory.path).batches(from: 2)
        let batch = try #require(try cursor.next())
        let error = #expect(throws: LogbookError.self) { try batch.transaction() }
        #expect(error?.code == .corruption)
        #expect(error?.path == batch.segment)
        #expect(error?.offset == batch.offset)
        #expect(error?.offset ?? 0 > 0)
    }

    @Test func aVersionThreeBatchThatFlagsATransactionRecordIsRefused() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(directory: directory.path, configuration: testConfiguration())
        _ = try appendWithRecord([Array("event".utf8)], to: log)
        // A second batch, so that the damaged first one is not the end of the log.
        _ = try appendWithRecord([Array("later".utf8)], to: log)
        log.close()
        let segment = try #require(try LogReader(directory: directory.path).segments().first).path
        var bytes = try ByteSurgery.bytes(of: segment)
        bytes[LogFormat.Offset.version] = 3
        let storedLength =
            Int(bytes[LogFormat.Offset.storedLength]) | Int(bytes[LogFormat.Offset.storedLength + 1]) << 8
        bytes.withUnsafeMutableBytes { raw in
            let checksum = BatchHeader.checksum(
                header: UnsafeRawBufferPointer(rebasing: raw[..<LogFormat.headerSize]),
                payload: UnsafeRawBufferPointer(
                    rebasing: raw[LogFormat.headerSize..<LogFormat.headerSize + storedLength]
                )
            )
            raw.storeBytes(of: checksum.littleEndian, toByteOffset: LogFormat.Offset.checksum, as: UInt32.self)
        }
        try ByteSurgery.write(bytes, to: segment)
        var cursor = LogReader(directory: directory.path).batches()
        let error = #expect(throws: LogbookError.self) { try cursor.next() }
        #expect(error?.offset == 0)
    }
}
