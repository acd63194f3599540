import Foundation
import Testing

@testable import Logbook

/// Damage to the last batch of the log, by byte surgery on stores of one batch and of many:
/// what an open does (refuses naming segment, offset and sequence numbers, or moves a torn
/// tail into quarantine), that quarantined bytes are exactly the cut ones, what verification
/// says, and that salvage gets back every whole batch.
struct TailDamageTests {
    /// A store of `batches` batches of three events in one segment, closed, so that its durable
    /// record names the last batch.
    struct Store {
        let root: TemporaryDirectory
        let directory: StorePath
        let segment: String
        /// Where each batch starts.
        let offsets: [Int]
        /// The segment's bytes as written.
        let original: [UInt8]

        var lastStart: Int { offsets[offsets.count - 1] }
        /// The first sequence number of the last batch.
        var lastFirstSequence: UInt64 { UInt64(offsets.count - 1) * 3 + 1 }

        init(batches: Int, _ name: String = #function) throws {
            root = TemporaryDirectory(name)
            directory = StorePath(path: root.child("store"))
            let log = try EventLog(directory: directory.path, configuration: testConfiguration())
            segment = directory.child(SegmentDirectory.fileName(forFirstSequence: 1))
            var offsets: [Int] = []
            var next: UInt64 = 1
            for _ in 0..<batches {
                offsets.append(FileManager.default.fileExists(atPath: segment) ? try ByteSurgery.size(of: segment) : 0)
                next = try log.append((next..<(next + 3)).map { sampleEvent($0, length: 60) }).upperBound + 1
            }
            log.close()
            self.offsets = offsets
            original = try ByteSurgery.bytes(of: segment)
        }

        func restore() throws {
            try ByteSurgery.write(original, to: segment)
        }

        /// Salvages the store into a new one and returns how many batches were kept.
        func salvagedBatches() throws -> Int {
            let new = root.child("salvaged-\(UUID().uuidString)")
            let report = try Salvage.salvage(from: directory.path, to: new)
            try FileManager.default.removeItem(atPath: new)
            return report.keptBatches
        }
    }

    /// The store's directory, inside the test's temporary directory so that salvage can write
    /// beside it.
    struct StorePath {
        let path: String
        func child(_ name: String) -> String { path + "/" + name }
    }

    enum Part: String, CaseIterable, CustomTestStringConvertible {
        case header, payload, checksum
        var testDescription: String { rawValue }

        /// The offset of a byte of this part, from the batch's start.
        var within: Int {
            switch self {
            case .header: LogFormat.Offset.firstSequence + 1
            case .payload: LogFormat.headerSize + 7
            case .checksum: LogFormat.Offset.checksum + 2
            }
        }
    }

    @Test(arguments: Part.allCases, [1, 5])
    func aFlipInTheLastBatchStopsTheOpenNamingSegmentOffsetAndSequences(part: Part, batches: Int) throws {
        let store = try Store(batches: batches)
        try ByteSurgery.flipByte(in: store.segment, at: store.lastStart + part.within)
        let damaged = try ByteSurgery.bytes(of: store.segment)
        let error = #expect(throws: LogbookError.self) {
            try EventLog(directory: store.directory.path, configuration: testConfiguration())
        }
        #expect(error?.code == .corruption)
        #expect(error?.path == store.segment)
        #expect(error?.offset == Int64(store.lastStart))
        #expect(error?.sequence == store.lastFirstSequence)
        #expect(error?.message.contains("damaged batch at the end of the log") == true, "\(String(describing: error))")
        #expect(error?.message.contains("sequence \(store.lastFirstSequence)") == true)
        #expect(error?.message.contains("logbook salvage") == true)
        #expect(try ByteSurgery.bytes(of: store.segment) == damaged, "nothing is cut")
        #expect(Quarantine.tails(in: store.directory.path).isEmpty)

        let report = try LogVerifier.verify(directory: store.directory.path)
        #expect(!report.isSound)
        #expect(report.incompleteTail == nil)
        #expect(report.damages.first?.offset == Int64(store.lastStart))
        #expect(try store.salvagedBatches() == batches - 1)

        var configuration = testConfiguration()
        configuration.damagedTailPolicy = .quarantine
        let log = try EventLog(directory: store.directory.path, configuration: configuration)
        #expect(log.nextSequence == store.lastFirstSequence)
        let kept = try #require(log.recovery.report.quarantinedTail)
        #expect(!kept.wasTorn)
        #expect(kept.includesDurableSaves, "the durable record named the damaged batch")
        #expect(kept.offset == Int64(store.lastStart))
        #expect(try ByteSurgery.bytes(of: kept.quarantinePath) == Array(damaged[store.lastStart...]))
        #expect(try ByteSurgery.size(of: store.segment) == store.lastStart)
        log.close()
        // The record that named the cut batch is gone; the next open is clean.
        let reopened = try EventLog(directory: store.directory.path, configuration: testConfiguration())
        #expect(reopened.recovery.report.isEmpty)
        #expect(reopened.nextSequence == store.lastFirstSequence)
    }

    @Test(arguments: [1, 4])
    func truncationAnywhereInTheLastBatchOfAClosedStoreStopsTheOpen(batches: Int) throws {
        let store = try Store(batches: batches)
        for cut in store.lastStart..<store.original.count {
            try store.restore()
            try ByteSurgery.truncate(store.segment, to: cut)
            let error = #expect(throws: LogbookError.self, "cut at \(cut)") {
                try EventLog(directory: store.directory.path, configuration: testConfiguration())
            }
            #expect(error?.code == .corruption)
            #expect(error?.sequence == store.lastFirstSequence, "cut at \(cut)")
            #expect(try ByteSurgery.size(of: store.segment) == cut, "nothing is cut")
            let report = try LogVerifier.verify(directory: store.directory.path)
            #expect(!report.isSound, "cut at \(cut): the log ends before its durable point")
        }
        #expect(Quarantine.tails(in: store.directory.path).isEmpty)
        try ByteSurgery.truncate(store.segment, to: store.lastStart + 5)
        #expect(try store.salvagedBatches() == batches - 1)
    }

    @Test(arguments: [1, 4])
    func truncationAnywhereInTheLastBatchAfterACrashIsQuarantined(batches: Int) throws {
        let store = try Store(batches: batches)
        try forgetDurablePoint(store.directory.path)
        for cut in (store.lastStart + 1)..<store.original.count {
            try store.restore()
            try ByteSurgery.truncate(store.segment, to: cut)
            let report = try LogVerifier.verify(directory: store.directory.path)
            #expect(report.isSound && report.incompleteTail?.offset == Int64(store.lastStart), "cut at \(cut)")
            #expect(report.incompleteTail?.byteCount == Int64(cut - store.lastStart))
            #expect(try store.salvagedBatches() == batches - 1)
            let log = try EventLog(directory: store.directory.path, configuration: testConfiguration())
            #expect(log.nextSequence == store.lastFirstSequence, "cut at \(cut)")
            let kept = try #require(log.recovery.report.quarantinedTail, "cut at \(cut)")
            #expect(kept.wasTorn && !kept.includesDurableSaves)
            #expect(try ByteSurgery.bytes(of: kept.quarantinePath) == Array(store.original[store.lastStart..<cut]))
            #expect(try ByteSurgery.size(of: store.segment) == store.lastStart)
            log.close()
        }
        #expect(Quarantine.tails(in: store.directory.path).count == store.original.count - store.lastStart - 1)
    }

    @Test(arguments: [1, 4])
    func aZeroFilledStretchAtTheEndOfTheLastBatchIsATornWrite(batches: Int) throws {
        let store = try Store(batches: batches)
        let zeroFrom = store.lastStart + LogFormat.headerSize
        try ByteSurgery.overwrite(
            store.segment,
            at: zeroFrom,
            with: [UInt8](repeating: 0, count: store.original.count - zeroFrom)
        )
        let zeroed = try ByteSurgery.bytes(of: store.segment)
        // The durable record says the batch was on disk: its loss is damage all the same.
        #expect(throws: LogbookError.self) {
            try EventLog(directory: store.directory.path, configuration: testConfiguration())
        }
        #expect(try ByteSurgery.bytes(of: store.segment) == zeroed)

        try forgetDurablePoint(store.directory.path)
        let report = try LogVerifier.verify(directory: store.directory.path)
        #expect(report.isSound && report.incompleteTail?.offset == Int64(store.lastStart))
        let log = try EventLog(directory: store.directory.path, configuration: testConfiguration())
        let kept = try #require(log.recovery.report.quarantinedTail)
        #expect(kept.wasTorn)
        #expect(kept.lastSequence == store.lastFirstSequence + 2, "the header was written")
        #expect(try ByteSurgery.bytes(of: kept.quarantinePath) == Array(zeroed[store.lastStart...]))
        #expect(log.nextSequence == store.lastFirstSequence)
    }

    @Test func writtenBytesAfterTheZerosMakeItDamage() throws {
        let store = try Store(batches: 2)
        try forgetDurablePoint(store.directory.path)
        let zeroFrom = store.lastStart + LogFormat.headerSize
        var bytes = store.original
        for index in zeroFrom..<(bytes.count - 1) { bytes[index] = 0 }
        bytes[bytes.count - 1] = 0x5A
        try ByteSurgery.write(bytes, to: store.segment)
        let error = #expect(throws: LogbookError.self) {
            try EventLog(directory: store.directory.path, configuration: testConfiguration())
        }
        #expect(error?.message.contains("damaged batch") == true)
    }

    @Test func sixtyFourBytesOfFFAreDamageNotATornWrite() throws {
        let directory = TemporaryDirectory()
        let segment = directory.child(SegmentDirectory.fileName(forFirstSequence: 1))
        try ByteSurgery.write([UInt8](repeating: 0xFF, count: 64), to: segment)
        let error = #expect(throws: LogbookError.self) {
            try EventLog(directory: directory.path, configuration: testConfiguration())
        }
        #expect(error?.code == .corruption)
        #expect(error?.offset == 0)
        #expect(error?.message.contains("no batch header") == true)
        #expect(try ByteSurgery.size(of: segment) == 64)
        let report = try LogVerifier.verify(directory: directory.path)
        #expect(!report.isSound && report.incompleteTail == nil)
    }

    /// Found by the fuzzer: a torn tail in a segment named after sequence number 0 made the
    /// open compute the sequence number before 0.
    @Test func aTornTailInASegmentNamedZeroIsQuarantined() throws {
        let directory = TemporaryDirectory()
        let segment = directory.child(SegmentDirectory.fileName(forFirstSequence: 0))
        try ByteSurgery.write([0x4C, 0x47, 0x42, 0x4B, 3, 0, 5, 0, 0, 0], to: segment)
        let log = try EventLog(directory: directory.path, configuration: testConfiguration())
        #expect(log.nextSequence == 0)
        #expect(log.recovery.report.quarantinedTail?.byteCount == 10)
    }

    @Test func aSegmentOfZerosIsATornWrite() throws {
        let directory = TemporaryDirectory()
        let segment = directory.child(SegmentDirectory.fileName(forFirstSequence: 1))
        try ByteSurgery.write([UInt8](repeating: 0, count: 4096), to: segment)
        let log = try EventLog(directory: directory.path, configuration: testConfiguration())
        #expect(log.nextSequence == 1)
        #expect(log.recovery.report.quarantinedTail?.byteCount == 4096)
        #expect(try ByteSurgery.size(of: segment) == 0)
    }
}
