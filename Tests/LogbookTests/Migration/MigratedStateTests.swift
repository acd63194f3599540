import Foundation
import Logbook
import SampleTrips
import Testing

@testable import Logbook

extension NotesPlanSuites {
    /// A migration replays the log at the final schema while its stages run, then applies the
    /// stages' batches to that replay. What it leaves in memory must be exactly what replaying the
    /// migrated store from the start gives, and later saves must carry on from it.
    @Suite(.serialized)
    struct MigratedStateTests {
        /// Everything a projection holds that a replay decides.
        private struct Snapshot: Equatable, CustomStringConvertible {
            var rows: [String: [UInt64: Row]]
            var uniqueIndexes: [String: [[AttributeValue: UInt64]]]
            var aliases: [UInt64: UInt64]
            var foldCounts: [Int]
            var nextIdentifier: UInt64
            var lastSequence: UInt64
            var currentSchemaNumber: UInt32?
            var lastSchemaNumber: UInt32

            init(_ container: ModelContainer) {
                let state = container.store.read { state in
                    (state.projection, state.currentSchemaNumber, state.lastSchemaNumber)
                }
                var rows: [String: [UInt64: Row]] = [:]
                var uniqueIndexes: [String: [[AttributeValue: UInt64]]] = [:]
                for table in state.0.tables {
                    rows[table.entity.name] = table.rowsByIdentifier
                    uniqueIndexes[table.entity.name] = table.uniqueIndexContents
                }
                self.rows = rows
                self.uniqueIndexes = uniqueIndexes
                aliases = state.0.aliases
                foldCounts = state.0.foldCounts
                nextIdentifier = state.0.nextIdentifier
                lastSequence = state.0.lastSequence
                currentSchemaNumber = state.1
                lastSchemaNumber = state.2
            }

            var description: String {
                let counts = rows.keys.sorted().map { "\($0): \(rows[$0]?.count ?? 0)" }.joined(separator: ", ")
                return
                    "rows (\(counts)), aliases \(aliases.count), folds \(foldCounts), next id \(nextIdentifier), last sequence \(lastSequence), schema \(currentSchemaNumber.map(String.init) ?? "nil") of \(lastSchemaNumber)"
            }
        }

        private func writeV1Trips(_ url: URL) throws {
            let context = ModelContext(
                try ModelContainer(for: SampleTripsSchemaV1.Trip.self, configurations: ModelConfiguration(url: url))
            )
            for index in 0..<40 {
                // Every fourth name repeats an earlier one, once with a trailing space that the
                // talk's custom stage trims.
                let name = index % 4 == 3 ? "Trip \(index - 3)" + (index % 8 == 3 ? " " : "") : "Trip \(index)"
                let trip = SampleTripsSchemaV1.Trip(
                    name: name,
                    destination: "City \(index % 5)",
                    start_date: baseDate + Double(index) * day,
                    end_date: baseDate + Double(index + 3) * day
                )
                context.insert(trip)
                for item in 0..<2 {
                    trip.bucketList?.append(
                        SampleTripsSchemaV1.BucketListItem(
                            title: "Item \(index).\(item)",
                            details: "",
                            hasReservation: item == 0,
                            isInPlan: true
                        )
                    )
                }
                trip.livingAccommodation = SampleTripsSchemaV1.LivingAccommodation(
                    address: "\(index) Main Street",
                    placeName: "Hotel \(index)"
                )
                if index % 10 == 9 { try context.save() }
            }
        }

        @Test func theTalksPlanLeavesTheStateAReplayOfTheMigratedStoreGives() throws {
            let directory = TemporaryDirectory()
            let url = URL(fileURLWithPath: directory.child("trips.store"))
            try writeV1Trips(url)
            let configuration = ModelConfiguration(url: url)
            let migrated: Snapshot
            do {
                let container = try ModelContainer(
                    for: Trip.self,
                    migrationPlan: SampleTripsMigrationPlan.self,
                    configurations: configuration
                )
                migrated = Snapshot(container)
            }
            #expect(migrated.rows["Trip"]?.count == 30, "ten duplicate names folded")
            #expect(migrated.rows["BucketListItem"]?.count == 80, "no item lost")
            #expect(migrated.currentSchemaNumber != nil, "the store is at the models' schema")
            let reopened = Snapshot(
                try ModelContainer(
                    for: Trip.self,
                    migrationPlan: SampleTripsMigrationPlan.self,
                    configurations: configuration
                )
            )
            #expect(migrated == reopened)
        }

        /// Each migration blocks its caller until its stages' thread is done; callers that hold
        /// threads of the task pool, more of them than there are cores, all get through.
        @Test func migrationsOpenedFromMoreTasksThanCoresAllFinish() async throws {
            let directory = TemporaryDirectory()
            let urls = (0..<6).map { URL(fileURLWithPath: directory.child("trips-\($0).store")) }
            for url in urls { try writeV1Trips(url) }
            let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                for url in urls {
                    group.addTask {
                        let container = try ModelContainer(
                            for: Trip.self,
                            migrationPlan: SampleTripsMigrationPlan.self,
                            configurations: ModelConfiguration(url: url)
                        )
                        return try ModelContext(container).fetchCount(FetchDescriptor<Trip>())
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(counts == Array(repeating: 30, count: 6))
        }

        @Test func aPlanWithCustomClosuresLeavesTheReplayedStateAndSavesCarryOnFromIt() throws {
            let directory = TemporaryDirectory()
            let url = URL(fileURLWithPath: directory.child("notes.store"))
            do {
                let context = ModelContext(
                    try ModelContainer(
                        for: NotesV1.Note.self,
                        NotesV1.Tag.self,
                        configurations: ModelConfiguration(url: url)
                    )
                )
                for index in 0..<25 {
                    context.insert(NotesV1.Note(title: "Note \(index % 20)", body: "body \(index)"))
                }
                try context.save()
            }
            let configuration = ModelConfiguration(url: url)
            let migrated: Snapshot
            do {
                let container = try ModelContainer(
                    for: NotesV3.Note.self,
                    migrationPlan: NotesPlan.self,
                    configurations: configuration
                )
                migrated = Snapshot(container)
                // A save right after the migration uses the schema the migration recorded.
                let context = ModelContext(container)
                context.insert(NotesV3.Note(heading: "After", body: "saved after migrating", priority: 1))
                try context.save()
            }
            #expect(migrated.rows["Note"]?.count == 20)
            let schemaRecords = try loggedEvents(url).filter { if case .schema = $0 { true } else { false } }.count
            let container = try ModelContainer(
                for: NotesV3.Note.self,
                migrationPlan: NotesPlan.self,
                configurations: configuration
            )
            let reopened = Snapshot(container)
            #expect(reopened.rows["Note"]?.count == 21)
            #expect(reopened.currentSchemaNumber == migrated.currentSchemaNumber)
            #expect(reopened.lastSchemaNumber == migrated.lastSchemaNumber)
            #expect(
                reopened.lastSequence == migrated.lastSequence + 1,
                "the save after the migration appended one event"
            )
            let notes = try ModelContext(container).fetch(
                FetchDescriptor<NotesV3.Note>(sortBy: [SortDescriptor(\.heading)])
            )
            #expect(notes.first?.heading == "After")
            #expect(notes.dropFirst().allSatisfy { $0.priority == $0.heading.count }, "filled by didMigrate")
            #expect(notes.dropFirst().allSatisfy { $0.pinned == false }, "set by willMigrate")
            #expect(schemaRecords == 3, "V1, V2 and V3 recorded once each; the later save recorded none")
        }
    }
}
