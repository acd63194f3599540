import Foundation
import Logbook
import SampleTrips
import Testing

@testable import Logbook

/// An open that migrates the store writes a checkpoint at the new schema, so that the next
/// open does not replay the log through the upcasters again.
struct CheckpointMigrationTests {
    /// Writes SampleTrips version 1 data with repeated names, in several saves, and no
    /// checkpoint.
    private func writeV1(_ store: CheckpointStore, first: Int = 0) throws {
        let container = try ModelContainer(
            for: Schema(SampleTripsSchemaV1.models),
            configurations: [store.configuration()]
        )
        let trips = (first..<(first + 40)).map { SampleData.generatedTrip($0, duplicateNames: true) }
        try SampleData.insertV1(trips, into: ModelContext(container), tripsPerSave: 7)
    }

    @Test func anOpenThroughThePlanWritesACheckpointAtTheNewSchemaThatTheNextOpenUses() throws {
        let store = CheckpointStore()
        try writeV1(store)
        #expect(try store.checkpoints().isEmpty)
        let expected: TripsSnapshot
        let lastSequence: UInt64
        do {
            // No interval is set: the migration alone writes the checkpoint.
            let migrated = try ModelContainer(
                for: Trip.self,
                migrationPlan: SampleTripsMigrationPlan.self,
                configurations: store.configuration()
            )
            #expect(!store.openedFromCheckpoint)
            expected = try TripsSnapshot(migrated)
            lastSequence = migrated.store.read { $0.projection.lastSequence }
        }
        let entries = try store.checkpoints()
        #expect(entries.map(\.sequence) == [lastSequence], "one checkpoint, at the migration's last stage")
        let entry = try #require(entries.first)
        let header = try CheckpointReader(path: entry.path).header
        #expect(header.schemaVersion == Schema.Version(3, 0, 0))
        #expect(store.warnings.isEmpty, "\(store.warnings)")

        let reopened = try ModelContainer(
            for: Trip.self,
            migrationPlan: SampleTripsMigrationPlan.self,
            configurations: store.configuration()
        )
        #expect(store.openedFromCheckpoint)
        #expect(try TripsSnapshot(reopened) == expected)
        _ = consume reopened
        // The checkpoint holds what a replay of the whole log through the plan gives.
        try store.hideCheckpoints()
        let replayed = try ModelContainer(
            for: Trip.self,
            migrationPlan: SampleTripsMigrationPlan.self,
            configurations: store.configuration()
        )
        #expect(try TripsSnapshot(replayed) == expected)
    }

    @Test func anOpenAtTheModelsVersionWritesNoCheckpointWithoutAnInterval() throws {
        let store = CheckpointStore()
        try writeV1(store)
        _ = try ModelContainer(
            for: Schema(SampleTripsSchemaV1.models),
            configurations: [store.configuration()]
        )
        #expect(try store.checkpoints().isEmpty)
    }

    @Test func aCheckpointThatCannotBeWrittenAfterAMigrationIsLoggedAndTheStoreWorks() throws {
        let store = CheckpointStore()
        try writeV1(store)
        let faults = FaultySyscalls()
        // The checkpoint's rename into place fails; the migration itself renames nothing.
        faults.inject(.fail(.ioError), on: .rename)
        do {
            let migrated = try ModelContainer(
                for: Trip.self,
                migrationPlan: SampleTripsMigrationPlan.self,
                configurations: store.configuration(syscalls: faults)
            )
            let context = ModelContext(migrated)
            context.insert(Trip(name: "after", destination: "d", startDate: .now, endDate: .now))
            try context.save()
        }
        #expect(faults.injectedCount == 1)
        let warned = store.warnings.contains { $0.hasPrefix("could not write a checkpoint in the background") }
        #expect(warned, "\(store.warnings)")
        #expect(try store.checkpoints().isEmpty)
        let reopened = try ModelContainer(
            for: Trip.self,
            migrationPlan: SampleTripsMigrationPlan.self,
            configurations: store.configuration()
        )
        let names = try ModelContext(reopened).fetch(FetchDescriptor<Trip>()).map(\.name)
        #expect(names.contains("after"))
    }

    /// The open of a store whose newest checkpoint is at the models' schema does not look for
    /// the log's schemas ahead of the replay. A checkpoint that is then ignored (here, one
    /// written for another store) must still leave the open migrating the store.
    @Test func aCheckpointAtTheNewSchemaFromAnotherStoreStillLetsTheStoreMigrate() throws {
        let other = CheckpointStore()
        try writeV1(other, first: 100)
        _ = try ModelContainer(
            for: Trip.self,
            migrationPlan: SampleTripsMigrationPlan.self,
            configurations: other.configuration()
        )
        let foreign = try #require(try other.checkpoints().first)
        #expect(try CheckpointReader(path: foreign.path).header.schemaVersion == Schema.Version(3, 0, 0))

        // The same store twice: one migrates alone, the other with the foreign checkpoint.
        let twin = CheckpointStore()
        try writeV1(twin)
        let store = CheckpointStore()
        try writeV1(store)
        try FileManager.default.createDirectory(atPath: store.checkpointsPath, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: foreign.path,
            toPath: store.checkpointsPath + "/" + URL(fileURLWithPath: foreign.path).lastPathComponent
        )

        let alone = try TripsSnapshot(
            try ModelContainer(
                for: Trip.self,
                migrationPlan: SampleTripsMigrationPlan.self,
                configurations: twin.configuration()
            )
        )
        let migrated = try ModelContainer(
            for: Trip.self,
            migrationPlan: SampleTripsMigrationPlan.self,
            configurations: store.configuration()
        )
        #expect(!store.openedFromCheckpoint)
        let found = try TripsSnapshot(migrated)
        let warned = store.warnings.contains { $0.contains("written for another store") }
        #expect(warned, "\(store.warnings)")
        // The plan's dedupe ran as it does alone. (It moves the bucket lists of the trips it
        // deletes in the order of a `Set`, which differs from one run to the next: the lists
        // are compared as sets.)
        #expect(found.counts == [36, 200, 40], "\(found.counts)")
        #expect(found.counts == alone.counts)
        #expect(found.unsorted == alone.unsorted)
        #expect(Set(found.items) == Set(alone.items))
        #expect(found.accommodations == alone.accommodations)
        _ = consume migrated
        // The migration's stages are in the log: a replay without any checkpoint agrees.
        try store.hideCheckpoints()
        let replayed = try ModelContainer(
            for: Trip.self,
            migrationPlan: SampleTripsMigrationPlan.self,
            configurations: store.configuration()
        )
        #expect(try TripsSnapshot(replayed) == found)
    }
}
