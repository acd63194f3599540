import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// Opening, reading and failing to open a store, over and over, leaves no file descriptor open:
/// a server that opens stores for the life of the process must not run out of them.
@Suite(.serialized)
struct DescriptorLeakTests {
    /// The descriptors this process holds on files under `directory`; other tests running at
    /// the same time hold descriptors of their own, so only the store's own files count.
    private func descriptors(under directory: TemporaryDirectory) -> [String] {
        let manager = FileManager.default
        let numbers = (try? manager.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return numbers.compactMap { try? manager.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)") }
            .filter { $0.hasPrefix(directory.path) }
    }

    private func makeStore(_ directory: TemporaryDirectory) throws -> URL {
        let url = URL(fileURLWithPath: directory.child("trips.store"))
        var configuration = ModelConfiguration(url: url)
        configuration.segmentSize = 1_024
        let container = try ModelContainer(for: SampleTripsSchemaV1.Trip.self, configurations: configuration)
        try SampleData.insertV1(
            (0..<30).map { SampleData.generatedTrip($0) },
            into: ModelContext(container),
            tripsPerSave: 5
        )
        return url
    }

    @Test func openingAndReadingAStoreManyTimesLeavesNoDescriptorOpen() throws {
        guard FileManager.default.fileExists(atPath: "/proc/self/fd") else { return }
        let directory = TemporaryDirectory()
        let url = try makeStore(directory)
        #expect(try segmentPaths(url.path).count > 2, "several segments")
        #expect(descriptors(under: directory).isEmpty)
        for _ in 0..<20 {
            let container = try ModelContainer(
                for: SampleTripsSchemaV1.Trip.self,
                configurations: ModelConfiguration(url: url)
            )
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<SampleTripsSchemaV1.Trip>()) == 30)
        }
        #expect(descriptors(under: directory) == [], "containers opened and released")
        for _ in 0..<20 {
            #expect(throws: LogbookError.self) {
                // A non-optional attribute without a default: refused without a plan.
                _ = try ModelContainer(for: AutoMandatory.Trip.self, configurations: ModelConfiguration(url: url))
            }
        }
        #expect(descriptors(under: directory) == [], "opens refused for a schema mismatch")
        for _ in 0..<20 {
            var cursor = LogReader(directory: url.path).batches()
            _ = try cursor.next()  // dropped part way through
            var whole = LogReader(directory: url.path).batches()
            while try whole.next() != nil {}
            _ = try LogVerifier.verify(directory: url.path)
        }
        #expect(descriptors(under: directory) == [], "readers dropped part way and at the end")
    }

    @Test func failingToOpenADamagedStoreManyTimesLeavesNoDescriptorOpen() throws {
        guard FileManager.default.fileExists(atPath: "/proc/self/fd") else { return }
        let directory = TemporaryDirectory()
        let url = try makeStore(directory)
        // Flip a byte in the first (sealed) segment: every open fails with corruption.
        let first = try #require(try segmentPaths(url.path).first)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: first)))
        bytes[40] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: first))
        #expect(descriptors(under: directory).isEmpty)
        for _ in 0..<20 {
            let error = #expect(throws: LogbookError.self) {
                _ = try ModelContainer(for: SampleTripsSchemaV1.Trip.self, configurations: ModelConfiguration(url: url))
            }
            #expect(error?.code == .corruption)
        }
        #expect(descriptors(under: directory) == [])
    }
}
