import Foundation
import InMemoryLogging
import Logging
import Testing

@testable import Logbook

/// `#Unique` over several attributes: recorded in the schema, enforced as an upsert on the
/// tuple of values, kept after reopening, and folded in when a migration adds it.
struct CompositeUniqueTests {
    private typealias Visit = VisitsV2.Visit
    private let monday = Date(timeIntervalSince1970: 1_780_000_000)
    private var tuesday: Date { monday.addingTimeInterval(86_400) }

    private func container(_ kind: StoreKind, _ directory: TemporaryDirectory) throws -> ModelContainer {
        let configuration =
            kind == .memory
            ? ModelConfiguration(isStoredInMemoryOnly: true)
            : ModelConfiguration(url: URL(fileURLWithPath: directory.child("visits.store")))
        return try ModelContainer(for: Schema(VisitsV2.models), configurations: [configuration])
    }

    // MARK: - Schema

    @Test func theSchemaRecordsTheConstraintsAndAConstraintOnOnePropertyAsItsUniqueOption() throws {
        let visit = try #require(Schema(VisitsV2.models).entity(named: "Visit"))
        #expect(visit.uniquenessConstraints == [["day", "place"]])
        #expect(visit.indexes == [["day"], ["rating", "place"]])
        #expect(visit.attribute(named: "code")?.isUnique == true)
        #expect(visit.uniqueProperties == ["code"])
    }

    @Test func aUniqueOnOneKeyPathIsTheUniqueAttributeInEveryWay() throws {
        let byMacro = Schema([BadgeByMacro.Badge.self])
        let byAttribute = Schema([BadgeByAttribute.Badge.self])
        #expect(byMacro.entities == byAttribute.entities)
        #expect(byMacro.fingerprint == byAttribute.fingerprint)
        #expect(EventCodec.schemaJSON(byMacro) == EventCodec.schemaJSON(byAttribute))
    }

    @Test func constraintsAndIndexesChangeTheFingerprintAndOnlyTheyAddKeysToTheRecord() throws {
        let before = Schema(VisitsV1.models)
        let after = Schema(VisitsV2.models)
        #expect(before.fingerprint != after.fingerprint)
        let json = String(decoding: EventCodec.schemaJSON(before), as: UTF8.self)
        #expect(!json.contains("uniquenessConstraints") && !json.contains("indexes"))
        let recorded = String(decoding: EventCodec.schemaJSON(after), as: UTF8.self)
        #expect(recorded.contains(#""indexes":[["day"],["rating","place"]]"#))
        #expect(recorded.contains(#""uniquenessConstraints":[["day","place"]]"#))
        let decoded = try JSONDecoder().decode(Schema.self, from: Data(EventCodec.schemaJSON(after)))
        #expect(decoded.entities == after.entities)
        #expect(decoded.fingerprint == after.fingerprint)
    }

    @Test func aConstraintOverSeveralPropertiesThatNamesARelationshipIsRefused() throws {
        let directory = TemporaryDirectory()
        let error = try #require(throws: (any Error).self) {
            try ModelContainer(
                for: Schema([PairingModels.Pairing.self]),
                configurations: [ModelConfiguration(url: URL(fileURLWithPath: directory.child("p.store")))]
            )
        }
        #expect(
            "\(error)".contains(
                "'#Unique(guide, name)' names the relationship 'guide'; a unique constraint over several properties "
                    + "takes attributes only"
            )
        )
        #expect("\(error)".contains("Pairing"))
        #expect(!FileManager.default.fileExists(atPath: directory.child("p.store") + "/00000000000000000001.log"))
    }

    @Test func aConstraintOnAnArrayOrAMissingPropertyIsRefusedWithItsName() throws {
        let tags = Schema.Attribute(name: "tags", type: .array(.string))
        let name = Schema.Attribute(name: "name", type: .string)
        for (constraint, message) in [
            (["name", "tags"], "'#Unique(name, tags)' names 'tags', an array"),
            (["name", "missing"], "'#Unique(missing, name)' names 'missing', which is not a persisted property"),
        ] {
            let entity = Schema.Entity(
                name: "Tag",
                attributes: [tags, name],
                relationships: [],
                uniquenessConstraints: [constraint]
            )
            let error = try #require(throws: SchemaError.self) {
                try Schema(entities: [entity], version: .init(1, 0, 0))
            }
            #expect(error.code == .invalidUniqueConstraint)
            #expect(error.message.contains(message), "\(error.message)")
        }
        let indexed = Schema.Entity(name: "Tag", attributes: [name], relationships: [], indexes: [["nope"]])
        let error = try #require(throws: SchemaError.self) { try Schema(entities: [indexed], version: .init(1, 0, 0)) }
        #expect(error.code == .invalidIndex)
        #expect(error.message.contains("'#Index(nope)' names 'nope', which is not a persisted attribute"))
    }

    // MARK: - Upserts

    @Test(arguments: StoreKind.allCases)
    func insertingATupleThatExistsUpdatesTheStoredObject(kind: StoreKind) throws {
        let directory = TemporaryDirectory()
        var context = ModelContext(try container(kind, directory))
        let first = Visit(place: "Lisbon", day: monday, rating: 1)
        first.code = "L1"
        context.insert(first)
        context.insert(Visit(place: "Lisbon", day: tuesday, rating: 2))
        context.insert(Visit(place: "Porto", day: monday, rating: 3))
        try context.save()

        let again = Visit(place: "Lisbon", day: monday, rating: 9)
        context.insert(again)
        try context.save()
        #expect(again.persistentModelID == first.persistentModelID, "the insert stands for the stored visit")

        for reopened in [false, true] {
            if reopened && kind == .disk { context = ModelContext(try container(kind, directory)) }
            let visits = try context.fetch(
                FetchDescriptor<Visit>(sortBy: [SortDescriptor(\.place), SortDescriptor(\.day)])
            )
            #expect(visits.map(\.place) == ["Lisbon", "Lisbon", "Porto"], "reopened: \(reopened)")
            #expect(visits.map(\.rating) == [9, 2, 3], "the newest values win")
            #expect(visits.map(\.code) == [nil, nil, nil], "every attribute of the insert wins, nil included")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anUpsertUnitesToManyAndReplacesASetToOne(kind: StoreKind) throws {
        let directory = TemporaryDirectory()
        var context = ModelContext(try container(kind, directory))
        let stored = Visit(place: "Oslo", day: monday)
        context.insert(stored)
        stored.stamps = [VisitsV2.Stamp(label: "museum")]
        stored.guide = VisitsV2.Guide(name: "Ada")
        try context.save()

        let newer = Visit(place: "Oslo", day: monday, rating: 4)
        context.insert(newer)
        newer.stamps = [VisitsV2.Stamp(label: "fjord")]
        newer.guide = VisitsV2.Guide(name: "Bo")
        try context.save()

        if kind == .disk { context = ModelContext(try container(kind, directory)) }
        let visits = try context.fetch(FetchDescriptor<Visit>())
        #expect(visits.count == 1)
        let visit = try #require(visits.first)
        #expect(visit.rating == 4)
        #expect(Set(visit.stamps?.map(\.label) ?? []) == ["museum", "fjord"])
        #expect(visit.guide?.name == "Bo")
        #expect(try context.fetchCount(FetchDescriptor<VisitsV2.Guide>()) == 2, "the former guide is kept, unlinked")
    }

    @Test(arguments: StoreKind.allCases)
    func aTupleWithANilIsNotHeldToTheConstraintAndDifferentTuplesStayApart(kind: StoreKind) throws {
        let directory = TemporaryDirectory()
        var context = ModelContext(try container(kind, directory))
        context.insert(Visit(place: "Rome", day: monday))
        context.insert(Visit(place: "Rome", day: tuesday))
        context.insert(Visit(place: "Roma", day: monday))
        try context.save()
        if kind == .disk { context = ModelContext(try container(kind, directory)) }
        #expect(try context.fetchCount(FetchDescriptor<Visit>()) == 3)
        // The code alone is unique, as `@Attribute(.unique)` makes it: two visits without a
        // code stay two.
        let coded = Visit(place: "Rome", day: tuesday.addingTimeInterval(86_400))
        coded.code = "R"
        context.insert(coded)
        let sameCode = Visit(place: "Nice", day: monday)
        sameCode.code = "R"
        context.insert(sameCode)
        try context.save()
        let visits = try context.fetch(FetchDescriptor<Visit>(sortBy: [SortDescriptor(\.place)]))
        #expect(visits.map(\.place) == ["Nice", "Roma", "Rome", "Rome"], "the second code upserts the first")
    }

    @Test func anUpdateThatGivesAnObjectAStoredTupleFoldsItIntoTheHolder() throws {
        let directory = TemporaryDirectory()
        let context = ModelContext(try container(.disk, directory))
        let kept = Visit(place: "Bern", day: monday, rating: 1)
        let moved = Visit(place: "Bern", day: tuesday, rating: 2)
        context.insert(kept)
        context.insert(moved)
        try context.save()
        moved.day = monday
        try context.save()
        let reopened = ModelContext(try container(.disk, directory))
        let visits = try reopened.fetch(FetchDescriptor<Visit>())
        #expect(visits.map(\.rating) == [2], "one visit, with the updated values")
        #expect(visits.first?.persistentModelID == kept.persistentModelID)
    }

    // MARK: - Migration

    /// Writes three visits to Lisbon on Monday (and one elsewhere) at the first release.
    private func writeDuplicates(_ url: URL) throws {
        let context = ModelContext(try ModelContainer(for: Schema(VisitsV1.models), configurations: [.init(url: url)]))
        for rating in 1...3 {
            let visit = VisitsV1.Visit(place: "Lisbon", day: monday, rating: rating)
            context.insert(visit)
            visit.stamps = [VisitsV1.Stamp(label: "stamp \(rating)")]
        }
        context.insert(VisitsV1.Visit(place: "Lisbon", day: tuesday, rating: 7))
        try context.save()
    }

    private func expectFolded(_ context: ModelContext, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let visits = try context.fetch(FetchDescriptor<Visit>(sortBy: [SortDescriptor(\.day)]))
        #expect(visits.map(\.rating) == [3, 7], "the newest values win", sourceLocation: sourceLocation)
        #expect(
            Set(visits.first?.stamps?.map(\.label) ?? []) == ["stamp 1", "stamp 2", "stamp 3"],
            "to-many relationships are united",
            sourceLocation: sourceLocation
        )
        #expect(try context.fetchCount(FetchDescriptor<VisitsV2.Stamp>()) == 3, sourceLocation: sourceLocation)
    }

    @Test func aLightweightStageThatAddsTheConstraintFoldsDuplicates() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("visits.store"))
        try writeDuplicates(url)
        for _ in 0..<2 {
            let container = try ModelContainer(
                for: Schema(versionedSchema: VisitsV2.self),
                migrationPlan: VisitsPlan.self,
                configurations: [.init(url: url)]
            )
            try expectFolded(ModelContext(container))
        }
    }

    @Test func openingWithoutAPlanAddsTheConstraintAndFoldsDuplicates() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("visits.store"))
        try writeDuplicates(url)
        let difference = SchemaDifference(from: Schema(VisitsV1.models), to: Schema(VisitsV2.models))
        #expect(difference.isLightweight)
        #expect(
            difference.changes.filter { $0.property == nil }.map(\.description) == [
                "Visit: #Unique(day, place) added", "Visit: #Index(day) added", "Visit: #Index(rating, place) added",
            ]
        )
        for _ in 0..<2 {
            let container = try ModelContainer(for: Schema(VisitsV2.models), configurations: [.init(url: url)])
            try expectFolded(ModelContext(container))
        }
    }

    @Test func theMigrationPreviewNamesTheNewConstraint() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("visits.store"))
        try writeDuplicates(url)
        let preview = try ModelContainer.previewMigration(
            for: VisitsV2.Visit.self,
            VisitsV2.Stamp.self,
            VisitsV2.Guide.self,
            migrationPlan: VisitsPlan.self,
            configuration: ModelConfiguration(url: url)
        )
        let stage = try #require(preview.stages.first)
        #expect(stage.newlyUnique == ["Visit.code", "Visit.(day, place)"])
        #expect(stage.folded["Visit"] == 2)
    }
}

/// Constraints over several attributes survive a checkpoint and act within one save.
struct CompositeUniqueCheckpointTests {
    private let monday = Date(timeIntervalSince1970: 1_780_000_000)

    @Test func twoInsertsOfOneTupleInOneSaveAreOneObject() throws {
        let container = try ModelContainer(
            for: Schema(VisitsV2.models),
            configurations: [ModelConfiguration(isStoredInMemoryOnly: true)]
        )
        let context = ModelContext(container)
        context.insert(VisitsV2.Visit(place: "Gent", day: monday, rating: 1))
        context.insert(VisitsV2.Visit(place: "Gent", day: monday, rating: 2))
        try context.save()
        let visits = try ModelContext(container).fetch(FetchDescriptor<VisitsV2.Visit>())
        #expect(visits.map(\.rating) == [2])
    }

    @Test func aStoreOpenedFromACheckpointKeepsEnforcingTheConstraint() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("visits.store"))
        let handler = InMemoryLogHandler()
        var configuration = ModelConfiguration(url: url)
        var logger = Logger(label: "test", factory: { _ in handler })
        logger.logLevel = .debug
        configuration.logger = logger
        do {
            let container = try ModelContainer(for: Schema(VisitsV2.models), configurations: [configuration])
            let context = ModelContext(container)
            for n in 0..<20 { context.insert(VisitsV2.Visit(place: "P\(n)", day: monday, rating: n)) }
            try context.save()
            try container.checkpoint()
        }
        #expect(try CheckpointFiles.list(in: url.path).count == 1)
        let container = try ModelContainer(for: Schema(VisitsV2.models), configurations: [configuration])
        #expect(handler.entries.contains { $0.message.description.hasPrefix("opened from checkpoint") })
        let context = ModelContext(container)
        context.insert(VisitsV2.Visit(place: "P7", day: monday, rating: 70))
        try context.save()
        let visits = try ModelContext(container).fetch(
            FetchDescriptor<VisitsV2.Visit>(predicate: #Predicate { $0.place == "P7" })
        )
        #expect(visits.map(\.rating) == [70])
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<VisitsV2.Visit>()) == 20)
    }
}
