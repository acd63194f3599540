import Foundation
import Testing

@testable import Logbook

/// The golden store of format version 5, `Fixtures/external-format-5`: its references and
/// files read back as written.
struct ExternalGoldenStoreTests {
    private var fixture: URL { GoldenStoreTests.fixtures.appendingPathComponent("external-format-5") }

    @Test func theFormatFiveStoreVerifiesAndItsImagesReadBack() throws {
        let verify = try ToolProcess.run(["verify", fixture.path])
        #expect(verify.status == 0, "\(verify.stdout)")
        #expect(verify.stdout.contains("checked 1 segment, 3 batches, 4 events"))
        #expect(verify.stdout.contains("external values: 3 references to 2 files\n"))

        var cursor = LogReader(directory: fixture.path).batches()
        var headers: [BatchHeader] = []
        while let batch = try cursor.next() { headers.append(batch.header) }
        #expect(headers.map(\.version) == [5, 5, 5])
        #expect(headers.allSatisfy { $0.flags & LogFormat.flagExternal != 0 })

        let directory = TemporaryDirectory()
        let copy = URL(fileURLWithPath: directory.child("external-format-5"))
        try FileManager.default.copyItem(at: fixture, to: copy)
        let check = try ToolProcess.run(["_external-loop", copy.path, "--check", "3"])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout == "checked 3 posters, 3 acknowledged\n")
    }
}
