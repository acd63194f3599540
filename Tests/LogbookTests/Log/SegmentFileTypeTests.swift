import Foundation
import Testing

@testable import Logbook

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file named like a segment that is not a regular file is refused with a typed error, never
/// waited on (a FIFO) or followed (a symbolic link, which could lead to `/dev/zero`).
struct SegmentFileTypeTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case fifo, symlinkToDevZero, symlinkToASegment, directory
        var testDescription: String { rawValue }
    }

    /// A store whose only segment is a file of `kind`; returns the segment's path.
    private func makeStore(_ kind: Kind, in directory: TemporaryDirectory) throws -> String {
        let segment = directory.child(SegmentDirectory.fileName(forFirstSequence: 1))
        switch kind {
        case .fifo:
            #expect(mkfifo(segment, 0o644) == 0)
        case .symlinkToDevZero:
            try FileManager.default.createSymbolicLink(atPath: segment, withDestinationPath: "/dev/zero")
        case .symlinkToASegment:
            let elsewhere = directory.child("elsewhere")
            let log = try EventLog(directory: elsewhere, configuration: testConfiguration())
            _ = try log.append([sampleEvent(1)])
            log.close()
            try FileManager.default.createSymbolicLink(
                atPath: segment,
                withDestinationPath: elsewhere + "/" + SegmentDirectory.fileName(forFirstSequence: 1)
            )
        case .directory:
            try FileManager.default.createDirectory(atPath: segment, withIntermediateDirectories: false)
        }
        return segment
    }

    @Test(arguments: Kind.allCases)
    func aSegmentThatIsNotARegularFileIsRefused(kind: Kind) throws {
        let directory = TemporaryDirectory()
        let segment = try makeStore(kind, in: directory)
        let expected =
            switch kind {
            case .fifo: "a FIFO"
            case .symlinkToDevZero, .symlinkToASegment: "a symbolic link"
            case .directory: "a directory"
            }
        let open = #expect(throws: LogbookError.self) {
            try EventLog(directory: directory.path, configuration: testConfiguration())
        }
        #expect(open?.code == .corruption)
        #expect(open?.path == segment)
        #expect(open?.message.contains(expected) == true, "\(String(describing: open))")
        let verify = #expect(throws: LogbookError.self) { try LogVerifier.verify(directory: directory.path) }
        #expect(verify?.code == .corruption)
        let read = #expect(throws: LogbookError.self) { try readAll(directory.path) }
        #expect(read?.code == .corruption)
    }
}
