import Foundation
import Logbook
import Testing

@testable import Logbook

/// Version 1 of a checklist: an item's note is optional.
enum ChecklistV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Item.self] }

    @Model
    final class Item {
        var title: String
        var note: String?

        init(title: String, note: String?) {
            self.title = title
            self.note = note
        }
    }
}

/// Version 2: the note becomes mandatory, without a default.
enum ChecklistV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Item.self] }

    @Model
    final class Item {
        var title: String
        var note: String

        init(title: String, note: String) {
            self.title = title
            self.note = note
        }
    }
}

enum ChecklistPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ChecklistV1.self, ChecklistV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: ChecklistV1.self, toVersion: ChecklistV2.self)] }
}

/// A migration refuses to leave objects without a value for a mandatory attribute, and looks
/// only where one can be missing.
@Suite(.serialized)
struct MandatoryValueTests {
    private func writeV1(_ url: URL, notes: [String?]) throws {
        let context = ModelContext(
            try ModelContainer(for: ChecklistV1.Item.self, configurations: ModelConfiguration(url: url))
        )
        for (index, note) in notes.enumerated() {
            context.insert(ChecklistV1.Item(title: "Item \(index)", note: note))
        }
        try context.save()
    }

    @Test func anOptionalAttributeThatBecomesMandatoryIsCheckedAndANilRefusesTheMigration() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("checklist.store"))
        try writeV1(url, notes: ["milk", nil, "eggs", nil])
        let before = try storeBytes(url)
        let error = #expect(throws: LogbookError.self) {
            try ModelContainer(
                for: ChecklistV2.Item.self,
                migrationPlan: ChecklistPlan.self,
                configurations: ModelConfiguration(url: url)
            )
        }
        #expect(error?.code == .migrationFailed)
        #expect(
            error?.description.contains(
                "Item.note is not optional and has no default, but 2 object(s) would have no value after migrating from 1.0.0 to 2.0.0"
            ) == true
        )
        #expect(try storeBytes(url) == before)
    }

    @Test func whenEveryObjectHasAValueTheMigrationGoesThrough() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("checklist.store"))
        try writeV1(url, notes: ["milk", "eggs"])
        let context = ModelContext(
            try ModelContainer(
                for: ChecklistV2.Item.self,
                migrationPlan: ChecklistPlan.self,
                configurations: ModelConfiguration(url: url)
            )
        )
        let items = try context.fetch(FetchDescriptor<ChecklistV2.Item>(sortBy: [SortDescriptor(\.title)]))
        #expect(items.map(\.note) == ["milk", "eggs"])
    }

    @Test func onlyAttributesSomeVersionLeftOptionalOrAbsentAreScanned() throws {
        let plan = try MigrationPlanChain(ChecklistPlan.self, current: Schema(versionedSchema: ChecklistV2.self))
        let projection = Projection(schema: plan.current, history: plan.history)
        let table = try #require(projection.table(named: "Item"))
        let title = try #require(plan.current.entity(named: "Item")?.attributes.firstIndex { $0.name == "title" })
        let note = try #require(plan.current.entity(named: "Item")?.attributes.firstIndex { $0.name == "note" })
        let v1 = plan.schemas[0].fingerprint.hexString
        let v2 = plan.schemas[1].fingerprint.hexString
        #expect(
            MandatoryValues.alwaysPresent(in: projection, plan: plan, recorded: [v1]) == [table: [title]],
            "title is mandatory at every version, note was optional at 1.0.0"
        )
        #expect(MandatoryValues.alwaysPresent(in: projection, plan: plan, recorded: [v2]) == [table: [title, note]])
        #expect(
            MandatoryValues.alwaysPresent(in: projection, plan: plan, recorded: [v1, "not in the plan"]).isEmpty,
            "a schema the plan does not know leaves nothing known"
        )
    }
}
