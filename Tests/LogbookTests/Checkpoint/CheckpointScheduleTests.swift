import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// Checkpoints a store writes by itself, in the background, once its log grew past the
/// configured interval: after saves, and after an open that replayed that much.
struct CheckpointScheduleTests {
    /// Whether `condition` holds within ten seconds.
    private func eventually(_ condition: () throws -> Bool) rethrows -> Bool {
        for _ in 0..<1_000 {
            if try condition() { return true }
            usleep(10_000)
        }
        return try condition()
    }

    @Test func savesPastTheIntervalStartACheckpointWhileTheContainerIsOpen() throws {
        let store = CheckpointStore()
        var history = TripsHistory(seed: 41)
        let expected: TripsSnapshot
        do {
            let container = try store.open(interval: 1)
            try history.save(container, steps: 8)
            #expect(try eventually { try !store.checkpoints().isEmpty }, "no checkpoint while the container is open")
            container.store.checkpoints.close()
            // Whatever the last background write covered, every file loads and names a batch
            // of the log.
            let last = container.store.read { $0.projection.lastSequence }
            for entry in try store.checkpoints() {
                #expect(entry.sequence <= last)
                let reader = try CheckpointReader(path: entry.path)
                _ = try reader.load(schema: container.schema, history: [], valueBytesLimit: .max)
            }
            expected = try TripsSnapshot(container)
        }
        let reopened = try store.open()
        #expect(store.openedFromCheckpoint)
        #expect(try TripsSnapshot(reopened) == expected)
    }

    @Test func anOpenThatReplayedMoreThanTheIntervalWritesOneWithoutASave() throws {
        let store = CheckpointStore()
        var history = TripsHistory(seed: 42)
        let expected: TripsSnapshot
        let last: UInt64
        do {
            let container = try store.open()
            try history.save(container, steps: 10)
            expected = try TripsSnapshot(container)
            last = container.store.read { $0.projection.lastSequence }
        }
        #expect(try store.checkpoints().isEmpty)
        do {
            let container = try store.open(interval: 1)
            #expect(try eventually { try store.checkpoints().first?.sequence == last })
            #expect(try TripsSnapshot(container) == expected)
        }
        let reopened = try store.open()
        #expect(store.openedFromCheckpoint)
        #expect(try TripsSnapshot(reopened) == expected)
    }

    @Test func savesGoOnWhileCheckpointsAreWrittenAndEachOpenSeesThemAll() throws {
        let store = CheckpointStore()
        var history = TripsHistory(seed: 43)
        do {
            let container = try store.open(interval: 1)
            // Each save may start a checkpoint, and the saves after it run while it is built.
            try history.save(container, steps: 60)
            // A checkpoint on request waits for the one in the background, then writes its own.
            try container.checkpoint()
            try history.save(container, steps: 20)
        }
        let fromCheckpoint = try TripsSnapshot(try store.open())
        #expect(store.openedFromCheckpoint)
        try store.hideCheckpoints()
        let fromLog = try TripsSnapshot(try store.open())
        #expect(fromCheckpoint == fromLog)
        #expect(store.warnings.isEmpty, "\(store.warnings)")
    }

    @Test func aFailedBackgroundCheckpointIsLoggedAndSavesGoOn() throws {
        let store = CheckpointStore()
        var history = TripsHistory(seed: 44)
        let faults = FaultySyscalls()
        let expected: TripsSnapshot
        do {
            let container = try ModelContainer(
                for: Trip.self,
                configurations: store.configuration(interval: 1, durability: .durable, syscalls: faults)
            )
            // The first checkpoint's rename into place fails.
            faults.inject(.fail(.ioError), on: .rename)
            try history.save(container, steps: 3)
            #expect(eventually { store.warnings.contains { $0.contains("in the background") } }, "\(store.warnings)")
            #expect(faults.injectedCount == 1)
            try history.save(container, steps: 3)
            expected = try TripsSnapshot(container)
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: store.checkpointsPath)) ?? []
        #expect(names.filter { $0.hasSuffix(".tmp") }.isEmpty, "\(names)")
        let reopened = try store.open()
        #expect(store.openedFromCheckpoint, "a later write, or the one at close, succeeded")
        #expect(try TripsSnapshot(reopened) == expected)
    }

    @Test func aConfigurationWritesCheckpointsEverySixteenMebibytesUnlessToldOtherwise() {
        let configuration = ModelConfiguration(url: URL(fileURLWithPath: "/tmp/unused.store"))
        #expect(configuration.checkpointInterval == 16 << 20)
    }

    /// The last container writes one as it goes once the log grew by a quarter of the
    /// interval since the newest checkpoint, and none for less.
    @Test func aClosingStoreWritesOnePastAQuarterOfTheInterval() throws {
        let interval = 64 << 10
        for (target, expectsOne) in [(interval / 4 + 2_048, true), (interval / 8, false)] {
            let store = CheckpointStore()
            var history = TripsHistory(seed: 43)
            let expected: TripsSnapshot
            let last: UInt64
            do {
                let container = try store.open(interval: interval)
                while try CheckpointFiles.logBytes(of: store.path) < UInt64(target) {
                    try history.save(container, steps: 1)
                }
                #expect(try CheckpointFiles.logBytes(of: store.path) < UInt64(interval))
                #expect(try store.checkpoints().isEmpty, "no background write below the interval")
                expected = try TripsSnapshot(container)
                last = container.store.read { $0.projection.lastSequence }
            }
            let written = try store.checkpoints()
            #expect(written.map(\.sequence) == (expectsOne ? [last] : []), "log of \(target) bytes")
            let reopened = try store.open()
            #expect(store.openedFromCheckpoint == expectsOne)
            #expect(try TripsSnapshot(reopened) == expected)
        }
    }

    /// An open that ignores a damaged checkpoint writes a sound one in its place, so that the
    /// next open neither warns nor replays.
    @Test func anOpenThatIgnoredACheckpointWritesAFreshOne() throws {
        let store = CheckpointStore()
        var history = TripsHistory(seed: 44)
        let expected: TripsSnapshot
        let last: UInt64
        do {
            let container = try store.open()
            try history.save(container, steps: 12)
            try container.checkpoint()
            expected = try TripsSnapshot(container)
            last = container.store.read { $0.projection.lastSequence }
        }
        let path = try #require(try store.checkpoints().first?.path)
        try ByteSurgery.flipByte(in: path, at: 20)
        do {
            let container = try store.open(interval: 1 << 20)
            #expect(!store.openedFromCheckpoint)
            #expect(store.warnings.contains { $0.contains("ignored checkpoint \(path)") })
            #expect(try TripsSnapshot(container) == expected)
        }
        let entries = try store.checkpoints()
        #expect(entries.map(\.sequence) == [last])
        let reader = try CheckpointReader(path: path)
        #expect(reader.header.sequence == last)
        let warnings = store.warnings.count
        let reopened = try store.open()
        #expect(store.openedFromCheckpoint)
        #expect(store.warnings.count == warnings)
        #expect(try TripsSnapshot(reopened) == expected)
    }
}
