import Foundation
import Logbook
import SampleTrips
import Testing

@testable import Logbook

extension NotesPlanSuites {
    @Suite(.serialized)
    struct MigrationTests {
        private func writeV1Notes(_ url: URL) throws {
            let context = ModelContext(
                try ModelContainer(
                    for: NotesV1.Note.self,
                    NotesV1.Tag.self,
                    configurations: ModelConfiguration(url: url)
                )
            )
            let first = NotesV1.Note(title: "Groceries", body: "milk")
            first.legacy = 7
            context.insert(first)
            context.insert(NotesV1.Note(title: "Ideas", body: "a log"))
            context.insert(NotesV1.Tag(label: "home"))
            try context.save()
            context.insert(NotesV1.Note(title: "Groceries", body: "milk, eggs"))
            try context.save()
        }

        @Test func lightweightChangesRenameDropAddAndFold() throws {
            let directory = TemporaryDirectory()
            let url = URL(fileURLWithPath: directory.child("notes.store"))
            try writeV1Notes(url)
            let container = try ModelContainer(
                for: NotesV2.Note.self,
                migrationPlan: NotesPlanUpToV2.self,
                configurations: ModelConfiguration(url: url)
            )
            let context = ModelContext(container)
            let notes = try context.fetch(FetchDescriptor<NotesV2.Note>(sortBy: [SortDescriptor(\.heading)]))
            #expect(notes.map(\.heading) == ["Groceries", "Ideas"], "renamed through originalName, duplicates folded")
            #expect(notes.map(\.body) == ["milk, eggs", "a log"], "the later insert wins")
            #expect(notes.allSatisfy { $0.pinned == nil }, "an added optional attribute is nil")
            #expect(notes.allSatisfy { !$0.archived }, "an added attribute with a default takes the default")
            #expect(container.store.read { $0.projection.table(named: "Tag") } == nil, "a removed entity is dropped")
        }

        @Test func customStagesRunOnceWithContextsAtTheOldAndNewVersions() throws {
            let directory = TemporaryDirectory()
            let url = URL(fileURLWithPath: directory.child("notes.store"))
            try writeV1Notes(url)
            let before = (runs("NotesPlan.willMigrate"), runs("NotesPlan.didMigrate"))
            do {
                let context = ModelContext(
                    try ModelContainer(
                        for: NotesV3.Note.self,
                        migrationPlan: NotesPlan.self,
                        configurations: ModelConfiguration(url: url)
                    )
                )
                let notes = try context.fetch(FetchDescriptor<NotesV3.Note>(sortBy: [SortDescriptor(\.heading)]))
                #expect(notes.map(\.heading) == ["Groceries", "Ideas"])
                #expect(notes.map(\.priority) == [9, 5], "filled by didMigrate")
                #expect(notes.map(\.pinned) == [false, false], "set by willMigrate at V2")
            }
            #expect(runs("NotesPlan.willMigrate") == before.0 + 1)
            #expect(runs("NotesPlan.didMigrate") == before.1 + 1)
            // Reopening replays through the markers: no closure runs again.
            let context = ModelContext(
                try ModelContainer(
                    for: NotesV3.Note.self,
                    migrationPlan: NotesPlan.self,
                    configurations: ModelConfiguration(url: url)
                )
            )
            #expect(try context.fetch(FetchDescriptor<NotesV3.Note>()).count == 2)
            #expect(runs("NotesPlan.willMigrate") == before.0 + 1)
            #expect(runs("NotesPlan.didMigrate") == before.1 + 1)
            let markers = try loggedEvents(url).compactMap { event -> Event.MigrationMarker? in
                if case .migration(let marker) = event { return marker }
                return nil
            }
            #expect(
                markers.map { "\($0.fromVersion)->\($0.toVersion) custom:\($0.isCustom)" } == [
                    "1.0.0->2.0.0 custom:false", "2.0.0->3.0.0 custom:true",
                ]
            )
        }

        @Test func theOldEventsStayByteForByte() throws {
            let directory = TemporaryDirectory()
            let url = URL(fileURLWithPath: directory.child("notes.store"))
            try writeV1Notes(url)
            let before = try storeBytes(url)
            _ = try ModelContainer(
                for: NotesV3.Note.self,
                migrationPlan: NotesPlan.self,
                configurations: ModelConfiguration(url: url)
            )
            let after = try storeBytes(url)
            for (name, bytes) in before {
                let now = try #require(after[name])
                #expect(Array(now.prefix(bytes.count)) == bytes, "\(name) still starts with its old bytes")
                #expect(now.count > bytes.count || after.count > before.count, "the migration appended")
            }
        }

        /// The error opening the store at `url` for `model` through `plan` throws; an issue,
        /// recorded at the caller's line, when it throws no ``LogbookError``.
        private func openingError(
            _ model: any PersistentModel.Type,
            through plan: any SchemaMigrationPlan.Type,
            at url: URL,
            sourceLocation: SourceLocation = #_sourceLocation
        ) -> LogbookError? {
            #expect(throws: LogbookError.self, sourceLocation: sourceLocation) {
                try ModelContainer(for: model, migrationPlan: plan, configurations: ModelConfiguration(url: url))
            }
        }

        /// Opens V1 notes through `plan` and expects the migration to be refused with a message
        /// holding every one of `fragments`, leaving the store's bytes as they were.
        private func expectRefusal(by plan: any SchemaMigrationPlan.Type, saying fragments: [String]) throws {
            let directory = TemporaryDirectory()
            let url = URL(fileURLWithPath: directory.child("notes.store"))
            try writeV1Notes(url)
            let before = try storeBytes(url)
            let error = openingError(NotesV3.Note.self, through: plan, at: url)
            #expect(error?.code == .migrationFailed)
            for fragment in fragments {
                #expect(error?.description.contains(fragment) == true, "\(fragment)")
            }
            #expect(try storeBytes(url) == before)
        }

        @Test func aNonOptionalAttributeThatNoStageFillsIsAnErrorAndTheStoreIsUntouched() throws {
            try expectRefusal(
                by: NotesPlanWithoutFill.self,
                saying: [
                    "Note.priority is not optional and has no default", "from 1.0.0 to 3.0.0",
                    "missing attribute values on mandatory destination attribute",
                ]
            )
        }

        @Test func anObjectAStageInsertsWithoutAMandatoryValueIsAnErrorAndTheStoreIsUntouched() throws {
            try expectRefusal(
                by: NotesPlanLeavingAnInsertUnfilled.self,
                saying: ["Note.priority is not optional and has no default, but 1 object(s) would have no value"]
            )
        }

        @Test func aStageThatThrowsAppendsNothingAndTheErrorReachesTheCaller() throws {
            let directory = TemporaryDirectory()
            let url = URL(fileURLWithPath: directory.child("notes.store"))
            try writeV1Notes(url)
            let before = try storeBytes(url)
            let error = openingError(NotesV3.Note.self, through: NotesPlanThatThrows.self, at: url)
            #expect(error?.code == .migrationFailed)
            #expect(error?.description.contains("willMigrate of the stage from 2.0.0 to 3.0.0 failed") == true)
            #expect(error?.description.contains("the stage gave up") == true)
            #expect(try storeBytes(url) == before)
            // The store still opens at its old version.
            let context = ModelContext(
                try ModelContainer(
                    for: NotesV1.Note.self,
                    NotesV1.Tag.self,
                    configurations: ModelConfiguration(url: url)
                )
            )
            #expect(try context.fetchCount(FetchDescriptor<NotesV1.Note>()) == 3)
        }

        @Test func aV2StoreGoesOnlyThroughTheV2ToV3Stage() throws {
            let directory = TemporaryDirectory()
            let url = URL(fileURLWithPath: directory.child("notes.store"))
            do {
                let context = ModelContext(
                    try ModelContainer(for: NotesV2.Note.self, configurations: ModelConfiguration(url: url))
                )
                context.insert(NotesV2.Note(heading: "Only", body: "v2"))
                try context.save()
            }
            let container = try ModelContainer(
                for: NotesV3.Note.self,
                migrationPlan: NotesPlan.self,
                configurations: ModelConfiguration(url: url)
            )
            let notes = try ModelContext(container).fetch(FetchDescriptor<NotesV3.Note>())
            #expect(notes.map(\.priority) == [4])
            let markers = try loggedEvents(url).compactMap { event -> String? in
                if case .migration(let marker) = event { return "\(marker.fromVersion)->\(marker.toVersion)" }
                return nil
            }
            #expect(markers == ["2.0.0->3.0.0"])
        }

        @Test func storesAndPlansThatDoNotFitAreRefusedNamingTheVersions() throws {
            let directory = TemporaryDirectory()
            let url = URL(fileURLWithPath: directory.child("notes.store"))
            try writeV1Notes(url)
            _ = try ModelContainer(
                for: NotesV3.Note.self,
                migrationPlan: NotesPlan.self,
                configurations: ModelConfiguration(url: url)
            )
            let before = try storeBytes(url)
            // A V3 store opened by code that only knows V1 and V2.
            let newer = openingError(NotesV2.Note.self, through: NotesPlanUpToV2.self, at: url)
            #expect(newer?.code == .schemaMismatch)
            #expect(newer?.description.contains("newer than the models' 2.0.0") == true)
            // Models that are in no version of the plan.
            let changed = openingError(NotesV1.Tag.self, through: NotesPlan.self, at: url)
            #expect(changed?.description.contains("the models changed without a new VersionedSchema") == true)
            #expect(
                changed?.message.hasSuffix(
                    "\nThey differ from NotesV3 by:\n- Note: entity removed\n- Tag: entity added"
                ) == true
            )
            // Stages that skip a version.
            let gap = openingError(NotesV3.Note.self, through: NotesPlanWithGap.self, at: url)
            #expect(gap?.description.contains("do not chain") == true)
            // A V1 store opened with a plan that starts at V2.
            let v1 = TemporaryDirectory()
            let v1URL = URL(fileURLWithPath: v1.child("notes.store"))
            try writeV1Notes(v1URL)
            let missing = openingError(NotesV3.Note.self, through: NotesPlanFromV2.self, at: v1URL)
            #expect(missing?.description.contains("is not one of the versions of NotesPlanFromV2") == true)
            #expect(
                missing?.message.hasSuffix(
                    "is not one of the versions of NotesPlanFromV2; the closest is version 2.0.0, which differs from it by:\n- Note.archived: added, with a default value\n- Note.heading: renamed from title\n- Note.heading: option unique added\n- Note.pinned: added, optional\n- Note.legacy: removed\n- Tag: entity removed"
                ) == true
            )
            #expect(try storeBytes(url) == before)
        }

        @Test func theTalksPlanFoldsDuplicateTripsAndKeepsEveryItem() throws {
            let directory = TemporaryDirectory()
            let url = URL(fileURLWithPath: directory.child("trips.store"))
            do {
                let context = ModelContext(
                    try ModelContainer(for: SampleTripsSchemaV1.Trip.self, configurations: ModelConfiguration(url: url))
                )
                let trips = [
                    ("Summer", "Lisbon"), ("Summer ", "Porto"), ("Winter", "Oslo"), ("\tAutumn\n", "Rome"),
                    ("Spring  break", "Paris"), ("Café\u{00A0}", "Vienna"), (" ", "Nowhere"),
                ]
                for (name, destination) in trips {
                    let trip = SampleTripsSchemaV1.Trip(
                        name: name,
                        destination: destination,
                        start_date: baseDate,
                        end_date: baseDate + day
                    )
                    context.insert(trip)
                    trip.bucketList?.append(
                        SampleTripsSchemaV1.BucketListItem(
                            title: "See \(destination)",
                            details: "",
                            hasReservation: false,
                            isInPlan: true
                        )
                    )
                }
                try context.save()
            }
            let context = ModelContext(
                try ModelContainer(
                    for: Trip.self,
                    migrationPlan: SampleTripsMigrationPlan.self,
                    configurations: ModelConfiguration(url: url)
                )
            )
            let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
            // White space (spaces, tabs, newlines, no-break spaces) is trimmed at both ends only.
            #expect(trips.map(\.name) == ["", "Autumn", "Café", "Spring  break", "Summer", "Winter"])
            let summer = try #require(trips.first { $0.name == "Summer" })
            #expect(summer.destination == "Porto")
            #expect(summer.startDate == baseDate, "start_date is now startDate")
            #expect(summer.endDate == baseDate + day)
            #expect(Set(summer.bucketList?.map(\.title) ?? []) == ["See Lisbon", "See Porto"])
            #expect(try context.fetchCount(FetchDescriptor<BucketListItem>()) == 7)
        }
    }
}
