import Foundation
import InMemoryLogging
import Logging
import SampleTrips
import Testing

@testable import Logbook

/// What a container tells the app about an open that recovered: the report and the warning.
struct RecoveryReportTests {
    /// A store of two saves, closed; returns its segment and where the last save's batch starts.
    private func makeStore(_ store: TestStore) throws -> (segment: String, lastStart: Int) {
        let context = ModelContext(try store.container())
        context.insert(makeTrip("Lisbon in spring"))
        try context.save()
        let segment = store.url.path + "/" + SegmentDirectory.fileName(forFirstSequence: 1)
        let lastStart = try ByteSurgery.size(of: segment)
        context.insert(makeTrip("Kyoto in autumn", destination: "Kyoto"))
        try context.save()
        store.close()
        return (segment, lastStart)
    }

    @Test func aTornSaveAfterACrashIsQuarantinedLoggedAndReported() throws {
        let store = TestStore(.disk)
        let (segment, lastStart) = try makeStore(store)
        let original = try ByteSurgery.bytes(of: segment)
        try forgetDurablePoint(store.url.path)
        try ByteSurgery.truncate(segment, to: original.count - 3)
        let handler = InMemoryLogHandler()
        var configuration = store.configuration
        configuration.logger = Logger(label: "test", factory: { _ in handler })
        let container = try ModelContainer(for: Trip.self, configurations: configuration)
        let tail = try #require(container.recoveryReport.quarantinedTail)
        #expect(tail.wasTorn)
        #expect(tail.offset == Int64(lastStart))
        #expect(tail.byteCount == Int64(original.count - 3 - lastStart))
        #expect(try ByteSurgery.bytes(of: tail.quarantinePath) == Array(original[lastStart..<(original.count - 3)]))
        #expect(try ModelContext(container).fetch(FetchDescriptor<Trip>()).map(\.name) == ["Lisbon in spring"])
        let warning = try #require(handler.entries.first { $0.level == .warning })
        #expect(warning.metadata["quarantine"] == "\(tail.quarantinePath)")
        #expect(warning.metadata["bytes"] == "\(tail.byteCount)")
    }

    @Test func aDamagedLastSaveStopsTheOpenUnlessTheAppAsksToQuarantine() throws {
        let store = TestStore(.disk)
        let (segment, lastStart) = try makeStore(store)
        try ByteSurgery.flipByte(in: segment, at: lastStart + LogFormat.headerSize + 5)
        let error = #expect(throws: LogbookError.self) {
            try ModelContainer(for: Trip.self, configurations: store.configuration)
        }
        #expect(error?.code == .corruption)
        #expect(error?.path == segment)
        #expect(error?.offset == Int64(lastStart))
        #expect(error?.message.contains("logbook salvage") == true)

        var configuration = store.configuration
        configuration.damagedTailPolicy = .quarantine
        let container = try ModelContainer(for: Trip.self, configurations: configuration)
        let tail = try #require(container.recoveryReport.quarantinedTail)
        #expect(!tail.wasTorn && tail.includesDurableSaves)
        #expect(try ModelContext(container).fetch(FetchDescriptor<Trip>()).map(\.name) == ["Lisbon in spring"])
    }

    @Test func aWholeStoreReportsNothing() throws {
        let store = TestStore(.disk)
        _ = try makeStore(store)
        #expect(try store.container().recoveryReport.isEmpty)
        let memory = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        #expect(memory.recoveryReport.isEmpty)
    }
}
