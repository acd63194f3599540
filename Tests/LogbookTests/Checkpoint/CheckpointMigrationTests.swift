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
    private func writeV1(_ store: CheckpointStore) throws {
        let container = try ModelContainer(
            for: Schema(SampleTripsSchemaV1.models),
            configurations: [store.configuration()]
        )
        let trips = (0..<40).map { SampleData.generatedTrip($0, duplicateNames: true) }
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
}
