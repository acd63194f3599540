import Foundation
import Logbook
import SampleTrips
import Testing

@testable import Logbook

/// Opening from a checkpoint and the saves after it gives what a replay of the whole log gives.
struct CheckpointStateTests {
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func aCheckpointPlusItsTailOpensAsTheWholeLogReplays(seed: UInt64) throws {
        let store = CheckpointStore()
        var history = TripsHistory(seed: seed)
        let live: TripsSnapshot
        let liveProjection: Projection
        do {
            let container = try store.open()
            try history.save(container, steps: 40)
            try container.checkpoint()
            try history.save(container, steps: 25)
            live = try TripsSnapshot(container)
            liveProjection = container.store.read { $0.projection }
        }
        #expect(try store.checkpoints().count == 1)

        let fromCheckpoint: TripsSnapshot
        do {
            let container = try store.open()
            #expect(store.openedFromCheckpoint)
            fromCheckpoint = try TripsSnapshot(container)
            let projection = container.store.read { $0.projection }
            #expect(CheckpointTool.firstDifference(checkpoint: projection, log: liveProjection) == nil)
            #expect(projection.nextIdentifier == liveProjection.nextIdentifier)
            // Saves go on from the loaded state.
            try history.save(container, steps: 10)
        }
        #expect(fromCheckpoint == live, "seed \(seed)")

        // The same store, reopened from the checkpoint and from the whole log.
        let reopened = try TripsSnapshot(try store.open())
        try store.hideCheckpoints()
        let replayed = try TripsSnapshot(try store.open())
        #expect(reopened == replayed, "seed \(seed)")
        #expect(store.warnings.isEmpty, "\(store.warnings)")
    }

    @Test func aCheckpointAtTheEndOfTheLogOpensWithoutReplayingAndKeepsTheTwoNewest() throws {
        let store = CheckpointStore()
        var history = TripsHistory(seed: 9)
        let expected: TripsSnapshot
        do {
            let container = try store.open()
            for _ in 0..<3 {
                try history.save(container, steps: 5)
                try container.checkpoint()
            }
            expected = try TripsSnapshot(container)
        }
        let sequences = try store.checkpoints().map(\.sequence)
        #expect(sequences.count == 2)
        #expect(sequences == sequences.sorted(by: >))
        let container = try store.open()
        #expect(store.openedFromCheckpoint)
        #expect(try TripsSnapshot(container) == expected)
        #expect(container.store.read { $0.projection.lastSequence } == sequences[0])
    }

    @Test func aContainerWritesACheckpointAsItClosesOnceTheLogGrewPastTheInterval() throws {
        let store = CheckpointStore()
        var history = TripsHistory(seed: 11)
        do {
            let container = try store.open(interval: 1)
            try history.save(container, steps: 5)
        }
        // Saves may have started checkpoints in the background too; the newest is at the end.
        let written = try store.checkpoints()
        #expect((1...2).contains(written.count))
        let newest = try #require(written.first)
        do {
            // Nothing saved: the log did not grow, so no new checkpoint.
            _ = try store.open(interval: 1)
        }
        #expect(try store.checkpoints() == written)
        do {
            let container = try store.open(interval: 1 << 30)
            try history.save(container, steps: 5)
        }
        #expect(try store.checkpoints().first == newest, "the log grew by less than the interval")
        do {
            let container = try store.open(interval: nil)
            try history.save(container, steps: 5)
        }
        #expect(try store.checkpoints().first == newest, "no interval, no checkpoint on close")
    }

    @Test func aStoreInMemoryOrWithoutSavesWritesNoCheckpoint() throws {
        let memory = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        try memory.checkpoint()
        let store = CheckpointStore()
        try store.open().checkpoint()
        #expect(try store.checkpoints().isEmpty)
    }

    @Test func aContainerThatDoesNotAllowSavingWritesNoCheckpoint() throws {
        let store = CheckpointStore()
        do {
            var history = TripsHistory(seed: 3)
            try history.save(try store.open(), steps: 3)
        }
        var configuration = store.configuration(interval: 1)
        configuration.allowsSave = false
        let container = try ModelContainer(for: Trip.self, configurations: configuration)
        let error = #expect(throws: LogbookError.self) { try container.checkpoint() }
        #expect(error?.code == .saveNotAllowed)
    }

    @Test func aMigrationThatChangesTheSchemaIgnoresTheOldSchemasCheckpoint() throws {
        let store = CheckpointStore()
        do {
            let container = try ModelContainer(
                for: Schema(SampleTripsSchemaV1.models),
                configurations: [store.configuration()]
            )
            let context = ModelContext(container)
            for index in 0..<4 {
                let day = Date(timeIntervalSinceReferenceDate: Double(index))
                context.insert(
                    SampleTripsSchemaV1.Trip(name: "same", destination: "d\(index)", start_date: day, end_date: day)
                )
            }
            try context.save()
            try container.checkpoint()
        }
        #expect(try store.checkpoints().count == 1)
        let migrated = try ModelContainer(
            for: Trip.self,
            migrationPlan: SampleTripsMigrationPlan.self,
            configurations: store.configuration()
        )
        #expect(!store.openedFromCheckpoint)
        #expect(store.warnings.contains { $0.contains("written at another schema") })
        let trips = try ModelContext(migrated).fetch(FetchDescriptor<Trip>())
        #expect(trips.map(\.name) == ["same"])
        // The next checkpoint is at the new schema, and the next open through the plan uses it.
        try migrated.checkpoint()
        let expected = try TripsSnapshot(migrated)
        _ = consume migrated
        let reopened = try ModelContainer(
            for: Trip.self,
            migrationPlan: SampleTripsMigrationPlan.self,
            configurations: store.configuration()
        )
        #expect(store.openedFromCheckpoint)
        #expect(try TripsSnapshot(reopened) == expected)
    }

    @Test func anAppThroughThePlanOpensFromACheckpointTheToolWrote() throws {
        let store = CheckpointStore()
        let expected: TripsSnapshot
        do {
            let container = try ModelContainer(
                for: Trip.self,
                migrationPlan: SampleTripsMigrationPlan.self,
                configurations: store.configuration()
            )
            var history = TripsHistory(seed: 17)
            try history.save(container, steps: 15)
            expected = try TripsSnapshot(container)
        }
        #expect(try CheckpointTool.write(store: store.path) != nil)
        let container = try ModelContainer(
            for: Trip.self,
            migrationPlan: SampleTripsMigrationPlan.self,
            configurations: store.configuration()
        )
        #expect(store.openedFromCheckpoint, "\(store.warnings)")
        #expect(try TripsSnapshot(container) == expected)
    }
}
