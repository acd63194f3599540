import Foundation

@testable import Logbook

/// What the fuzz targets share: a scratch store directory, checksum repair, event framing and the
/// schemas of the golden stores.
enum FuzzSupport {
    /// The repository's root, found from this file's path (the targets are built in place).
    static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// A directory of this process's own, on a memory file system when there is one.
    static let scratch: String = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let path = base + "/logbook-fuzz-\(getpid())"
        try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: FuzzSupport.scratchPathForExit) }
        scratchPathForExit = path
        return path
    }()

    nonisolated(unsafe) static var scratchPathForExit = ""

    /// An empty store directory, emptied again on every call.
    static func freshStore() -> String {
        let store = scratch + "/store"
        if let names = try? FileManager.default.contentsOfDirectory(atPath: store) {
            for name in names { unlink(store + "/" + name) }
        } else {
            try? FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
        }
        return store
    }

    /// Rewrites the checksum of every batch that the bytes frame from the start, so that mutated
    /// headers and payloads get past the checksum and reach decompression and event framing.
    static func fixChecksums(_ bytes: inout [UInt8]) {
        var offset = 0
        bytes.withUnsafeMutableBytes { raw in
            while offset + LogFormat.headerSize <= raw.count {
                let header = UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + LogFormat.headerSize)])
                guard let parsed = BatchHeader.read(from: header) else { return }
                let end = offset + parsed.frameSize
                guard end <= raw.count else { return }
                let checksum = BatchHeader.checksum(
                    header: header,
                    payload: UnsafeRawBufferPointer(rebasing: raw[(offset + LogFormat.headerSize)..<end])
                )
                raw.storeBytes(
                    of: checksum.littleEndian,
                    toByteOffset: offset + LogFormat.Offset.checksum,
                    as: UInt32.self
                )
                offset = end
            }
        }
    }

    /// The first sequence number of the first batch, when the bytes start with a batch header.
    static func firstSequence(of bytes: [UInt8]) -> UInt64? {
        bytes.withUnsafeBytes { BatchHeader.read(from: $0)?.firstSequence }
    }

    /// Splits bytes framed like a batch payload (a varint length before each event) into events;
    /// `nil` when the framing does not account for every byte.
    static func framedEvents(_ bytes: [UInt8]) -> [ArraySlice<UInt8>]? {
        var events: [ArraySlice<UInt8>] = []
        var position = 0
        while position < bytes.count {
            let length = bytes.withUnsafeBytes { LEB128.read($0, at: &position) }
            guard let length, length <= UInt64(bytes.count - position) else { return nil }
            events.append(bytes[position..<(position + Int(length))])
            position += Int(length)
        }
        return events
    }

    /// The bytes of `events` framed like a batch payload.
    static func frame(_ events: [ArraySlice<UInt8>]) -> [UInt8] {
        var bytes: [UInt8] = []
        for event in events {
            LEB128.append(UInt64(event.count), to: &bytes)
            bytes += event
        }
        return bytes
    }

    /// The schemas recorded in a golden store, oldest first.
    static func recordedSchemas(_ fixture: String) -> [Schema] {
        let reader = LogReader(directory: repositoryRoot + "/Fixtures/" + fixture)
        do {
            return try RecordedSchemas.scan(reader).map(\.schema)
        } catch {
            fatalError("the golden store \(fixture) does not read: \(error)")
        }
    }

    /// SampleTrips version 1 and version 2, as the golden stores recorded them.
    static let sampleTripsSchemas: [Schema] = {
        let schemas = recordedSchemas("sampletrips-v1") + recordedSchemas("sampletrips-v2")
        guard schemas.count >= 2 else { fatalError("the golden SampleTrips stores record no schema") }
        return schemas
    }()

    /// Stops the run with a message: libFuzzer saves the input that led here.
    static func failure(_ message: String) -> Never {
        fatalError("fuzz invariant broken: \(message)")
    }
}
