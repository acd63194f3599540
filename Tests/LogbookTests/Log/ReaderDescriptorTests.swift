import Foundation
import Testing

@testable import Logbook

/// Readers close every segment file they open.
///
/// Found by the batch reader fuzz target (`Fuzz/`), which stopped after 19,117 inputs because the
/// process had no file descriptor left: a batch cursor never closed the last segment it read, so
/// every replay, `RecordedSchemas.scan` and `EventStream.forEach` (and so every open of a store)
/// left a descriptor behind.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd"), "lists descriptors in /proc"))
struct ReaderDescriptorTests {
    /// The files under `directory` this process has open.
    private func openFiles(under directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0) }
            .filter { $0.hasPrefix(directory + "/") }
    }

    private func storeOfThreeSegments(_ directory: TemporaryDirectory) throws {
        let log = try EventLog(directory: directory.path, configuration: testConfiguration(segmentSize: 200))
        for id in 1...12 {
            _ = try log.append([
                EventCodec.encode(EventEnvelope(schemaNumber: 1, event: .delete(entity: "Trip", id: UInt64(id))))
            ])
        }
        log.close()
        #expect(try segmentPaths(directory.path).count >= 3)
        #expect(openFiles(under: directory.path).isEmpty)
    }

    @Test func aCursorReadToTheEndLeavesNoSegmentOpen() throws {
        let directory = TemporaryDirectory()
        try storeOfThreeSegments(directory)
        for _ in 0..<3 { #expect(try readAll(directory.path).count == 12) }
        #expect(openFiles(under: directory.path) == [])
    }

    @Test func aCursorLeftHalfWayClosesItsSegmentWhenItGoes() throws {
        let directory = TemporaryDirectory()
        try storeOfThreeSegments(directory)
        do {
            var cursor = LogReader(directory: directory.path).batches()
            _ = try cursor.next()
            #expect(openFiles(under: directory.path).count == 1)
        }
        #expect(openFiles(under: directory.path) == [])
    }

    @Test func scanningSchemasAndStreamingEventsLeaveNoSegmentOpen() throws {
        let directory = TemporaryDirectory()
        try storeOfThreeSegments(directory)
        let reader = LogReader(directory: directory.path)
        #expect(try RecordedSchemas.scan(reader).isEmpty)
        var count = 0
        try EventStream.forEach(reader, through: 6) { _, _ in count += 1 }
        #expect(count == 6)
        #expect(openFiles(under: directory.path) == [])
    }
}
