import Foundation
import Testing

@testable import Logbook

/// Finding the schemas a store recorded, as `logbook dump` and `replay` do before anything else.
struct RecordedSchemasTests {
    @Test func aSchemaRecordThatDoesNotDecodeIsNamedBySegmentOffsetAndSequence() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(directory: directory.path, configuration: testConfiguration())
        let opaque = Array("opaque".utf8)
        _ = try log.append([opaque])
        // A schema record (kind 1, schema 1, record 1, version 1.0.0, no fingerprint) whose JSON
        // description is cut short after its first byte.
        _ = try log.append([[1, 1, 1, 1, 0, 0, 0, 1, UInt8(ascii: "{")]])
        log.close()
        let error = #expect(throws: LogbookError.self) {
            try RecordedSchemas.scan(LogReader(directory: directory.path))
        }
        #expect(error?.code == .corruption)
        #expect(error?.path == directory.child(SegmentDirectory.fileName(forFirstSequence: 1)))
        #expect(error?.offset == Int64(LogFormat.headerSize + 1 + opaque.count))
        #expect(error?.sequence == 2)
        #expect(error?.message.hasPrefix("undecodable event: invalid schema description") == true)
    }
}
