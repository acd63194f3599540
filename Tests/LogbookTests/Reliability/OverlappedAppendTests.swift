import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// A large save is appended to the log on another thread while the projection applies it. When
/// that append fails, the container must look as if the save never happened: the objects a
/// fresh context fetches are the ones before it, even when the batch's bytes reached the file.
@Suite
struct OverlappedAppendTests {
    private static let seedTrips = 3
    /// Trips of the large save, each with two bucket-list items: three inserts per trip.
    private static let largeTrips = 100

    @Test func theLargeSaveOfTheseTestsIsAppendedWhileItIsApplied() {
        #expect(Self.largeTrips * 3 >= Store.overlappedAppendInserts)
        #expect(Self.seedTrips < Store.overlappedAppendInserts)
    }

    @Test func aLargeSaveWhoseWriteFailsLeavesTheContainerAsItWasAndCanBeRetried() throws {
        let directory = TemporaryDirectory()
        let failing = try Self.syscallsFailingTheLargeSave(at: "pwrite", with: .fail(.noSpace), in: directory)
        let store = URL(fileURLWithPath: directory.child("store"))
        do {
            let container = try Self.container(store, failing)
            let context = ModelContext(container)
            try Self.seed(context)
            Self.insertLarge(into: context)
            let error = #expect(throws: LogbookError.self) { try context.save() }
            #expect(failing.fired)
            #expect(error?.code == .io, "\(String(describing: error))")
            #expect(context.hasChanges, "the failed save's changes stay pending")
            try Self.expectOnlyTheSeed(in: container)

            // The log stayed usable: the same changes save now.
            try context.save()
            let all = try ModelContext(container).fetchCount(FetchDescriptor<Trip>())
            #expect(all == Self.seedTrips + Self.largeTrips)
        }
        let reopened = ModelContext(try Self.container(store, PosixSyscalls()))
        #expect(try reopened.fetchCount(FetchDescriptor<Trip>()) == Self.seedTrips + Self.largeTrips)
        #expect(try reopened.fetchCount(FetchDescriptor<BucketListItem>()) == Self.largeTrips * 2)
        let lastName = "Large \(Self.largeTrips - 1)"
        let last = try reopened.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == lastName }))
        #expect(last.first?.bucketList?.map(\.title).sorted() == ["first", "second"])
    }

    @Test func aLargeSaveWhoseFlushFailsIsNotSeenThoughItsBytesWereWritten() throws {
        let directory = TemporaryDirectory()
        let failing = try Self.syscallsFailingTheLargeSave(at: "fdatasync", with: .fail(.ioError), in: directory)
        let store = URL(fileURLWithPath: directory.child("store"))
        let container = try Self.container(store, failing)
        let context = ModelContext(container)
        try Self.seed(context)
        let before = try segmentPaths(store.path).map { try Data(contentsOf: URL(fileURLWithPath: $0)).count }
        Self.insertLarge(into: context)
        let error = #expect(throws: LogbookError.self) { try context.save() }
        #expect(failing.fired)
        #expect(error?.code == .writerFailed, "\(String(describing: error))")
        let after = try segmentPaths(store.path).map { try Data(contentsOf: URL(fileURLWithPath: $0)).count }
        #expect(after.reduce(0, +) > before.reduce(0, +), "the batch was written before its flush failed")
        #expect(context.hasChanges, "the failed save's changes stay pending")
        try Self.expectOnlyTheSeed(in: container)
        let refused = #expect(throws: LogbookError.self) { try context.save() }
        #expect(refused?.code == .writerFailed)
    }

    // MARK: - Helpers

    private static func container(_ store: URL, _ syscalls: any Syscalls) throws -> ModelContainer {
        var configuration = ModelConfiguration(url: store)
        configuration.syscalls = syscalls
        return try ModelContainer(for: Trip.self, configurations: configuration)
    }

    private static func seed(_ context: ModelContext) throws {
        for number in 0..<seedTrips {
            context.insert(Trip(name: "Seed \(number)", destination: "Lyon", startDate: .now, endDate: .now))
        }
        try context.save()
    }

    private static func insertLarge(into context: ModelContext) {
        for number in 0..<largeTrips {
            let trip = Trip(name: "Large \(number)", destination: "Oslo", startDate: .now, endDate: .now)
            context.insert(trip)
            for title in ["first", "second"] {
                trip.bucketList?.append(
                    BucketListItem(title: title, details: "", hasReservation: false, isInPlan: true)
                )
            }
        }
    }

    /// What a fresh context of `container` sees: the seed's trips, none of the large save's.
    private static func expectOnlyTheSeed(in container: ModelContainer) throws {
        let fresh = ModelContext(container)
        #expect(try fresh.fetch(FetchDescriptor<Trip>()).map(\.name).sorted() == (0..<seedTrips).map { "Seed \($0)" })
        #expect(try fresh.fetchCount(FetchDescriptor<BucketListItem>()) == 0)
        #expect(try fresh.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Large 0" })).isEmpty)
    }

    /// Syscalls that fail the last `call` of the large save, found by running the same saves on
    /// a probe store first.
    private static func syscallsFailingTheLargeSave(
        at call: String,
        with fault: CountingFaultSyscalls.Fault,
        in directory: TemporaryDirectory
    ) throws -> CountingFaultSyscalls {
        let counting = CountingFaultSyscalls()
        let context = ModelContext(try container(URL(fileURLWithPath: directory.child("probe")), counting))
        try seed(context)
        insertLarge(into: context)
        try context.save()
        // Read while the container is open: closing it records the durable point, with calls of
        // its own after the save's.
        let point = try #require(counting.points.last { $0.call.hasPrefix(call) })
        withExtendedLifetime(context) {}
        return CountingFaultSyscalls(failing: point.number, with: fault)
    }
}
