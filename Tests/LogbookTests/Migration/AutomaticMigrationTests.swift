import Foundation
import SampleTrips
import Testing

@testable import Logbook

struct AutomaticMigrationTests {
    private let day = Date(timeIntervalSince1970: 1_700_000_000)

    /// Writes two trips with items and a note at ``AutoBase``, without a plan.
    func writeBase(_ url: URL) throws {
        let context = ModelContext(try ModelContainer(for: Schema(AutoBase.models), configurations: [.init(url: url)]))
        let lisbon = AutoBase.Trip(name: "Lisbon", startDate: day)
        lisbon.legacy = 7
        let item = AutoBase.Item(title: "Tram 28")
        context.insert(lisbon)
        lisbon.items = [item]
        context.insert(AutoBase.Trip(name: "Oslo", startDate: day.addingTimeInterval(86_400)))
        context.insert(AutoBase.Note(text: "pack light"))
        try context.save()
    }

    private func openLight(_ url: URL) throws -> ModelContext {
        ModelContext(try ModelContainer(for: Schema(AutoLight.models), configurations: [.init(url: url)]))
    }

    func expectLightTrips(_ context: ModelContext, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let trips = try context.fetch(FetchDescriptor<AutoLight.Trip>(sortBy: [SortDescriptor(\.title)]))
        #expect(
            trips.map(\.title) == ["Lisbon", "Oslo"],
            "renamed through originalName",
            sourceLocation: sourceLocation
        )
        #expect(trips.map(\.startDate) == [day, day.addingTimeInterval(86_400)], sourceLocation: sourceLocation)
        #expect(trips.map(\.rating) == [nil, nil], "an added optional is nil", sourceLocation: sourceLocation)
        #expect(trips.map(\.archived) == [false, false], "an added default", sourceLocation: sourceLocation)
        #expect(trips.map { $0.companion == nil } == [true, true], sourceLocation: sourceLocation)
        #expect(trips.map { $0.items?.map(\.title) ?? [] } == [["Tram 28"], []], sourceLocation: sourceLocation)
    }

    func markers(_ url: URL) throws -> [Event.MigrationMarker] {
        try loggedEvents(url).compactMap { event in
            if case .migration(let marker) = event { return marker }
            return nil
        }
    }

    // MARK: - Lightweight changes

    @Test func lightweightChangesMigrateWithoutAPlanAndReadBackAfterReopening() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("trips.store"))
        try writeBase(url)
        do {
            let context = try openLight(url)
            try expectLightTrips(context)
            #expect(context.container.store.read { $0.projection.table(named: "Note") } == nil, "entity removed")
            let oslo = try #require(try context.fetch(FetchDescriptor<AutoLight.Trip>()).first { $0.title == "Oslo" })
            oslo.companion = AutoLight.Companion(name: "Ada")
            try context.save()
        }
        let recorded = try markers(url)
        #expect(recorded.count == 1)
        #expect(recorded.first?.isCustom == false)
        #expect(recorded.first?.fromFingerprint == Schema(AutoBase.models).fingerprint.hexString)
        #expect(recorded.first?.toFingerprint == Schema(AutoLight.models).fingerprint.hexString)
        for _ in 0..<2 {
            // Reopening twice: replay through the recorded schemas is stable, and writes nothing.
            let before = try storeBytes(url)
            let context = try openLight(url)
            let trips = try context.fetch(FetchDescriptor<AutoLight.Trip>(sortBy: [SortDescriptor(\.title)]))
            #expect(trips.map { $0.companion?.name } == [nil, "Ada"])
            #expect(trips.map(\.title) == ["Lisbon", "Oslo"])
            #expect(trips.first?.items?.map(\.title) == ["Tram 28"])
            #expect(try storeBytes(url) == before)
            #expect(try markers(url).count == 1)
        }
    }

    /// Also with a checkpoint after every open that replays (an interval of one byte): an open
    /// without a plan first replays the store only to look at it, without the schemas in
    /// between, and a checkpoint of those objects would lose the renamed values.
    @Test(arguments: [nil, 1] as [Int?])
    func namesChangedTwiceAreFollowedThroughTheRecordedSchemas(checkpointInterval: Int?) throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("trips.store"))
        try writeBase(url)
        _ = try openLight(url)
        let models: [any PersistentModel.Type] = [
            AutoLighter.Trip.self, AutoLighter.Item.self, AutoLighter.Companion.self,
        ]
        var configuration = ModelConfiguration(url: url)
        if let checkpointInterval { configuration.checkpointInterval = checkpointInterval }
        for _ in 0..<3 {
            let context = ModelContext(try ModelContainer(for: Schema(models), configurations: [configuration]))
            let trips = try context.fetch(FetchDescriptor<AutoLighter.Trip>(sortBy: [SortDescriptor(\.label)]))
            #expect(trips.map(\.label) == ["Lisbon", "Oslo"], "name → title → label")
            #expect(trips.first?.items?.map(\.title) == ["Tram 28"])
        }
        #expect(try markers(url).count == 2)
    }

    @Test func aStoreMigratedAutomaticallyOpensThroughAPlanWithBothVersions() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("trips.store"))
        try writeBase(url)
        _ = try openLight(url)
        let before = try storeBytes(url)
        let context = ModelContext(
            try ModelContainer(
                for: AutoLight.Trip.self,
                migrationPlan: AutoAdoptedPlan.self,
                configurations: ModelConfiguration(url: url)
            )
        )
        try expectLightTrips(context)
        #expect(try storeBytes(url) == before, "already at the plan's newest version: nothing to run")
    }

    // MARK: - Refused changes

    @Test(arguments: [
        (
            Schema([AutoRetyped.Trip.self]),
            "\n- Trip.startDate: type Date → String"
        ),
        (
            Schema([AutoMandatory.Trip.self]),
            "\n- Trip.rating: added, not optional and without a default value"
        ),
        (
            Schema([AutoRefusedTwice.Trip.self]),
            "\n- Trip.rating: added, not optional and without a default value\n- Trip.startDate: type Date → String"
        ),
    ])
    func changesThatNeedAPlanAreRefusedListingEachAndLeaveTheStoreAsItWas(_ models: Schema, _ changes: String) throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("trips.store"))
        try writeBase(url)
        let before = try storeBytes(url)
        let error = try #require(
            #expect(throws: LogbookError.self) {
                try ModelContainer(for: models, configurations: [ModelConfiguration(url: url)])
            }
        )
        #expect(error.code == .schemaMismatch)
        #expect(
            error.message
                == "the store was written with models that differ from these by changes that need a migration plan (store schema 1.0.0, models 1.0.0):\(changes)\nDeclare both as VersionedSchema types in a SchemaMigrationPlan, with a custom stage for these changes"
        )
        #expect(error.path == url.path)
        #expect(try storeBytes(url) == before)
        // The store still opens with the models that wrote it.
        let context = ModelContext(try ModelContainer(for: Schema(AutoBase.models), configurations: [.init(url: url)]))
        #expect(try context.fetchCount(FetchDescriptor<AutoBase.Trip>()) == 2)
        #expect(try storeBytes(url) == before)
    }

    @Test func aStoreWrittenAtANewerVersionIsRefusedWithoutAPlan() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("trips.store"))
        do {
            let newer = Schema(AutoLight.models, version: Schema.Version(2, 0, 0))
            let context = ModelContext(try ModelContainer(for: newer, configurations: [.init(url: url)]))
            context.insert(AutoLight.Trip(title: "Rome", startDate: day))
            try context.save()
        }
        let before = try storeBytes(url)
        let error = try #require(
            #expect(throws: LogbookError.self) {
                try ModelContainer(for: Schema(AutoBase.models), configurations: [.init(url: url)])
            }
        )
        #expect(error.code == .schemaMismatch)
        #expect(
            error.message
                == "the store was written by a newer version of the app: its schema 2.0.0 is newer than the models' 1.0.0"
        )
        #expect(try storeBytes(url) == before)
    }
}

extension AutomaticMigrationTests {
    @Test func olderModelsAreRefusedByAStoreMigratedPastThem() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("trips.store"))
        try writeBase(url)
        do {
            let context = try openLight(url)
            try expectLightTrips(context)
            try #require(try context.fetch(FetchDescriptor<AutoLight.Trip>()).first).rating = 5
            try context.save()
        }
        let before = try storeBytes(url)
        let error = try #require(
            #expect(throws: LogbookError.self) {
                try ModelContainer(for: Schema(AutoBase.models), configurations: [.init(url: url)])
            }
        )
        #expect(error.code == .schemaMismatch)
        #expect(error.message.hasPrefix("the store was migrated past these models: its schema 1.0.0 (fingerprint "))
        #expect(error.message.hasSuffix("so this code is older than the store; open it with the newer models"))
        #expect(try storeBytes(url) == before, "nothing written")
        let trips = try openLight(url).fetch(FetchDescriptor<AutoLight.Trip>(sortBy: [SortDescriptor(\.title)]))
        #expect(trips.map(\.title) == ["Lisbon", "Oslo"])
        #expect(trips.compactMap(\.rating) == [5], "the newer models still read what they saved")
    }

    @Test func aUniqueConstraintAddedWithoutAPlanFoldsDuplicatesAsALightweightStageDoes() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("trips.store"))
        do {
            let context = ModelContext(
                try ModelContainer(for: SampleTripsSchemaV1.Trip.self, configurations: ModelConfiguration(url: url))
            )
            for (destination, end) in [("Lisbon", 1.0), ("Porto", 2.0), ("Oslo", 1.0)] {
                let name = destination == "Oslo" ? "Winter" : "Summer"
                context.insert(
                    SampleTripsSchemaV1.Trip(
                        name: name,
                        destination: destination,
                        start_date: Date(timeIntervalSince1970: 0),
                        end_date: Date(timeIntervalSince1970: end * 86_400)
                    )
                )
            }
            try context.save()
        }
        // Version 1 to 3: `name` becomes unique, `start_date` and `end_date` are renamed.
        for _ in 0..<2 {
            let context = ModelContext(
                try ModelContainer(for: SampleTripsSchemaV3.Trip.self, configurations: ModelConfiguration(url: url))
            )
            let trips = try context.fetch(FetchDescriptor<SampleTripsSchemaV3.Trip>(sortBy: [SortDescriptor(\.name)]))
            #expect(trips.map(\.name) == ["Summer", "Winter"])
            #expect(trips.map(\.destination) == ["Porto", "Oslo"], "the newest values of the folded trips win")
            #expect(
                trips.map(\.endDate) == [Date(timeIntervalSince1970: 2 * 86_400), Date(timeIntervalSince1970: 86_400)]
            )
        }
    }
}

extension AutomaticMigrationTests {
    @Test func aContainerThatDoesNotAllowSavingRefusesToMigrateAndWritesNothing() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("trips.store"))
        try writeBase(url)
        let error = try #require(throws: LogbookError.self) {
            try ModelContainer(
                for: Schema(AutoLight.models),
                configurations: [ModelConfiguration(url: url, allowsSave: false)]
            )
        }
        #expect(error.code == .schemaMismatch)
        #expect(error.message.contains("cannot migrate"))
        #expect(try markers(url).isEmpty)
        // A writer migrates it; a read-only container opens it afterwards.
        _ = try ModelContainer(for: Schema(AutoLight.models), configurations: [ModelConfiguration(url: url)])
        let container = try ModelContainer(
            for: Schema(AutoLight.models),
            configurations: [ModelConfiguration(url: url, allowsSave: false)]
        )
        try expectLightTrips(ModelContext(container))
        #expect(try markers(url).count == 1)
    }
}
