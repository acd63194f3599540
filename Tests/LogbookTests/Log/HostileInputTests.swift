import Foundation
import Testing

@testable import Logbook

struct HostileInputTests {
    /// A store of one sound batch followed by a second batch whose header says what `edit` makes it say,
    /// with a valid checksum, so that only the bounds checks stand between the reader and the lie.
    private func storeWithForgedSecondBatch(
        _ directory: TemporaryDirectory,
        inPieces: Bool = false,
        edit: (inout BatchHeader) -> Void
    ) throws -> (segment: String, offset: Int) {
        let log = try EventLog(directory: directory.path, configuration: testConfiguration())
        _ = try log.append([sampleEvent(1)])
        let second = [[UInt8](repeating: 2, count: 300), [UInt8](repeating: 3, count: 300)]
        _ = try inPieces ? log.append(second, inPiecesOf: 256) : log.append(second)
        _ = try log.append([sampleEvent(4)])
        log.close()
        let segment = directory.child(SegmentDirectory.fileName(forFirstSequence: 1))
        var bytes = try ByteSurgery.bytes(of: segment)
        let offset = LogFormat.headerSize + 1 + sampleEvent(1).count
        bytes.withUnsafeMutableBytes { raw in
            let frame = UnsafeMutableRawBufferPointer(rebasing: raw[offset...])
            guard var header = BatchHeader.read(from: UnsafeRawBufferPointer(frame)) else { return }
            edit(&header)
            header.write(to: frame)
            let end = min(frame.count, header.frameSize)
            header.checksum = BatchHeader.checksum(
                header: UnsafeRawBufferPointer(rebasing: frame[..<LogFormat.headerSize]),
                payload: UnsafeRawBufferPointer(rebasing: frame[LogFormat.headerSize..<max(LogFormat.headerSize, end)])
            )
            header.write(to: frame)
        }
        try ByteSurgery.write(bytes, to: segment)
        return (segment, offset)
    }

    @Test func aHugeStoredLengthIsRejectedBeforeAnythingIsAllocated() throws {
        let directory = TemporaryDirectory()
        let (segment, offset) = try storeWithForgedSecondBatch(directory) { $0.storedLength = .max }
        var scanner = try SegmentScanner(
            file: try SystemFile.open(segment, flags: O_RDONLY, syscalls: PosixSyscalls()),
            maximumBatchSize: 1 << 20
        )
        _ = try scanner.next(.decode)
        guard case .damaged(let damage) = try scanner.next(.decode) else {
            Issue.record("the forged batch was accepted")
            return
        }
        #expect(damage.offset == Int64(offset))
        #expect(damage.reason == .lengthOutOfBounds(field: "stored length", value: .max, maximum: 1 << 20))
        let error = #expect(throws: LogbookError.self) { try readAll(directory.path) }
        #expect(error?.code == .corruption)
        #expect(error?.description.contains("stored length 4294967295 is out of bounds") == true)
    }

    @Test func aWrongDecompressedSizeFailsCleanly() throws {
        let directory = TemporaryDirectory()
        _ = try storeWithForgedSecondBatch(directory) { header in
            #expect(header.isCompressed)
            header.uncompressedLength += 1
        }
        let error = #expect(throws: LogbookError.self) { try readAll(directory.path) }
        #expect(error?.code == .corruption)
        #expect(error?.description.contains("does not decompress to its declared") == true)
    }

    /// A compressed batch that declares no bytes at all, whole or in pieces, fails cleanly: with
    /// its events, which no bytes can hold, or without them, which its stored bytes do not
    /// decompress to.
    @Test func aCompressedBatchDeclaringNoBytesFailsCleanly() throws {
        for inPieces in [false, true] {
            let empty = TemporaryDirectory()
            _ = try storeWithForgedSecondBatch(empty, inPieces: inPieces) { header in
                #expect(header.isCompressed)
                header.uncompressedLength = 0
                header.eventCount = 0
            }
            let refused = #expect(throws: LogbookError.self) { try readAll(empty.path) }
            #expect(refused?.code == .corruption, "in pieces: \(inPieces)")
            #expect(refused?.description.contains("does not decompress to its declared") == true)

            let directory = TemporaryDirectory()
            _ = try storeWithForgedSecondBatch(directory, inPieces: inPieces) { header in
                header.uncompressedLength = 0
            }
            let error = #expect(throws: LogbookError.self) { try readAll(directory.path) }
            #expect(error?.code == .corruption, "in pieces: \(inPieces)")
            #expect(error?.description.contains("event count 2 is out of bounds (maximum 0)") == true)
        }
    }

    @Test func anEventCountThatDoesNotMatchThePayloadFailsCleanly() throws {
        let directory = TemporaryDirectory()
        _ = try storeWithForgedSecondBatch(directory) { $0.eventCount = 3 }
        let error = #expect(throws: LogbookError.self) { try readAll(directory.path) }
        #expect(error?.description.contains("malformed event framing") == true)
    }

    @Test func anEventCountLargerThanThePayloadIsRejected() throws {
        let directory = TemporaryDirectory()
        _ = try storeWithForgedSecondBatch(directory) { $0.eventCount = .max }
        let error = #expect(throws: LogbookError.self) { try readAll(directory.path) }
        #expect(error?.description.contains("event count 4294967295 is out of bounds") == true)
    }

    @Test func unknownFlagsAreRejected() throws {
        let directory = TemporaryDirectory()
        _ = try storeWithForgedSecondBatch(directory) { $0.flags |= 0x80 }
        let error = #expect(throws: LogbookError.self) { try readAll(directory.path) }
        #expect(error?.description.contains("unknown batch flags 0x81") == true)
    }

    @Test func piecesAreKnownOnlyFromVersionThreeAndOnlyCompressed() throws {
        let directory = TemporaryDirectory()
        _ = try storeWithForgedSecondBatch(directory, inPieces: true) { header in
            #expect(header.version == 3 && header.flags == 5)
            header.version = 2
        }
        let error = #expect(throws: LogbookError.self) { try readAll(directory.path) }
        #expect(error?.description.contains("unknown batch flags 0x5") == true)

        // Without the flag that says it is compressed, the batch's stored bytes are taken for the
        // payload itself, and their number does not match.
        let uncompressed = TemporaryDirectory()
        _ = try storeWithForgedSecondBatch(uncompressed, inPieces: true) { $0.flags = LogFormat.flagPieces }
        let refused = #expect(throws: LogbookError.self) { try readAll(uncompressed.path) }
        #expect(refused?.code == .corruption)
        #expect(refused?.description.contains("stored length of an uncompressed batch") == true)
    }

    @Test func piecesThatDoNotDecompressToTheDeclaredSizeFailCleanly() throws {
        for change in [1, -1] {
            let directory = TemporaryDirectory()
            _ = try storeWithForgedSecondBatch(directory, inPieces: true) { header in
                #expect(header.isInPieces)
                header.uncompressedLength = UInt32(Int(header.uncompressedLength) + change)
            }
            let error = #expect(throws: LogbookError.self) { try readAll(directory.path) }
            #expect(error?.code == .corruption)
            #expect(error?.description.contains("does not decompress to its declared") == true)
        }
    }

    @Test func aPieceLengthPastTheStoredBytesFailsCleanly() throws {
        let directory = TemporaryDirectory()
        let (segment, offset) = try storeWithForgedSecondBatch(directory, inPieces: true) { _ in }
        #expect(try readAll(directory.path).count == 4)
        // The first piece's length, made to run past the batch, with the checksum made right.
        var bytes = try ByteSurgery.bytes(of: segment)
        bytes.replaceSubrange(
            (offset + LogFormat.headerSize)..<(offset + LogFormat.headerSize + 4),
            with: [0xFF, 0xFF, 0, 0]
        )
        bytes.withUnsafeMutableBytes { raw in
            let frame = UnsafeMutableRawBufferPointer(rebasing: raw[offset...])
            guard let header = BatchHeader.read(from: UnsafeRawBufferPointer(frame)) else { return }
            _ = BatchHeader.seal(UnsafeMutableRawBufferPointer(rebasing: frame[..<header.frameSize]))
        }
        try ByteSurgery.write(bytes, to: segment)
        let error = #expect(throws: LogbookError.self) { try readAll(directory.path) }
        #expect(error?.code == .corruption)
        #expect(error?.description.contains("does not decompress to its declared") == true)
    }

    @Test func garbageFilesNamedLikeSegmentsNeverCrashTheReader() throws {
        let directory = TemporaryDirectory()
        var generator = SystemRandomNumberGenerator()
        for round in 0..<200 {
            let length = Int.random(in: 0...600, using: &generator)
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if round % 2 == 0 && length >= 4 {
                bytes.replaceSubrange(0..<4, with: [0x4C, 0x47, 0x42, 0x4B])  // a valid magic
            }
            let segment = directory.child(SegmentDirectory.fileName(forFirstSequence: 1))
            try ByteSurgery.write(bytes, to: segment)
            do {
                _ = try readAll(directory.path)
            } catch let error as LogbookError {
                #expect(error.code == .corruption || error.code == .unsupportedFormat)
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif

struct SeekTests {
    @Test func readingFromALaterSequenceDoesNotDecompressTheBatchesBeforeIt() throws {
        // Batch 2 checks out (valid checksum) but cannot be decompressed: a reader that starts
        // after it must never try.
        let directory = TemporaryDirectory()
        let log = try EventLog(directory: directory.path, configuration: testConfiguration())
        _ = try log.append([sampleEvent(1)])
        _ = try log.append([[UInt8](repeating: 2, count: 300)])
        _ = try log.append([sampleEvent(3)])
        log.close()
        let segment = directory.child(SegmentDirectory.fileName(forFirstSequence: 1))
        var bytes = try ByteSurgery.bytes(of: segment)
        let offset = LogFormat.headerSize + 1 + sampleEvent(1).count
        bytes.withUnsafeMutableBytes { raw in
            let frame = UnsafeMutableRawBufferPointer(rebasing: raw[offset...])
            guard var header = BatchHeader.read(from: UnsafeRawBufferPointer(frame)) else { return }
            header.uncompressedLength += 1
            header.write(to: frame)
            header.checksum = BatchHeader.checksum(
                header: UnsafeRawBufferPointer(rebasing: frame[..<LogFormat.headerSize]),
                payload: UnsafeRawBufferPointer(rebasing: frame[LogFormat.headerSize..<header.frameSize])
            )
            header.write(to: frame)
        }
        try ByteSurgery.write(bytes, to: segment)
        #expect(try readAll(directory.path, from: 3).map(\.1) == [sampleEvent(3)])
        #expect(throws: LogbookError.self) { try readAll(directory.path, from: 2) }
    }
}
