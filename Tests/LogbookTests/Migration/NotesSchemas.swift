import Foundation
import Logbook
import Synchronization
import Testing

// A small app whose schema goes through every kind of change, one version at a time.

enum NotesV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Note.self, Tag.self] }

    @Model
    final class Note {
        var title: String
        var body: String
        var legacy: Int = 0

        init(title: String, body: String) {
            self.title = title
            self.body = body
        }
    }

    @Model
    final class Tag {
        var label: String

        init(label: String) {
            self.label = label
        }
    }
}

/// Renames `title` to `heading` and makes it unique, drops `legacy` and the `Tag` entity,
/// adds an optional `pinned` and an `archived` flag with a default.
enum NotesV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Note.self] }

    @Model
    final class Note {
        @Attribute(.unique, originalName: "title") var heading: String
        var body: String
        var pinned: Bool?
        var archived: Bool = false

        init(heading: String, body: String) {
            self.heading = heading
            self.body = body
        }
    }
}

/// Adds a mandatory `priority` with no default: only a custom stage can fill it.
enum NotesV3: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(3, 0, 0) }
    static var models: [any PersistentModel.Type] { [Note.self] }

    @Model
    final class Note {
        @Attribute(.unique) var heading: String
        var body: String
        var pinned: Bool?
        var priority: Int

        init(heading: String, body: String, priority: Int) {
            self.heading = heading
            self.body = body
            self.priority = priority
        }
    }
}

/// The suites that migrate with ``NotesPlan``, one at a time: its stage closures count their
/// runs in one counter (``stageRuns``), which a test reads before and after its migration, and
/// run on the migrating thread, where no task-local value reaches them.
@Suite(.serialized)
enum NotesPlanSuites {}

/// Counts how often the stage closures run.
let stageRuns = Mutex<[String: Int]>([:])

func countRun(_ name: String) {
    stageRuns.withLock { $0[name, default: 0] += 1 }
}

func runs(_ name: String) -> Int {
    stageRuns.withLock { $0[name, default: 0] }
}

enum NotesPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NotesV1.self, NotesV2.self, NotesV3.self] }
    static var stages: [MigrationStage] { [v1ToV2, v2ToV3] }

    static let v1ToV2 = MigrationStage.lightweight(fromVersion: NotesV1.self, toVersion: NotesV2.self)

    static let v2ToV3 = MigrationStage.custom(
        fromVersion: NotesV2.self,
        toVersion: NotesV3.self,
        willMigrate: { context in
            countRun("NotesPlan.willMigrate")
            // Seen at V2: notes already renamed and folded.
            for note in try context.fetch(FetchDescriptor<NotesV2.Note>()) where note.pinned == nil {
                note.pinned = false
            }
            try context.save()
        },
        didMigrate: { context in
            countRun("NotesPlan.didMigrate")
            for note in try context.fetch(FetchDescriptor<NotesV3.Note>()) {
                note.priority = note.heading.count
            }
            try context.save()
        }
    )
}

/// The same versions, but V2 to V3 is lightweight: `priority` stays empty.
enum NotesPlanWithoutFill: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NotesV1.self, NotesV2.self, NotesV3.self] }
    static var stages: [MigrationStage] {
        [
            .lightweight(fromVersion: NotesV1.self, toVersion: NotesV2.self),
            .lightweight(fromVersion: NotesV2.self, toVersion: NotesV3.self),
        ]
    }
}

struct StageFailure: Error, CustomStringConvertible {
    var description: String { "the stage gave up" }
}

/// V2 to V3 throws in `willMigrate`.
enum NotesPlanThatThrows: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NotesV1.self, NotesV2.self, NotesV3.self] }
    static var stages: [MigrationStage] {
        [
            .lightweight(fromVersion: NotesV1.self, toVersion: NotesV2.self),
            .custom(
                fromVersion: NotesV2.self,
                toVersion: NotesV3.self,
                willMigrate: { context in
                    for note in try context.fetch(FetchDescriptor<NotesV2.Note>()) { note.body = "changed" }
                    try context.save()
                    throw StageFailure()
                },
                didMigrate: nil
            ),
        ]
    }
}

/// Skips from V1 to V3.
enum NotesPlanWithGap: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NotesV1.self, NotesV2.self, NotesV3.self] }
    static var stages: [MigrationStage] {
        [.lightweight(fromVersion: NotesV1.self, toVersion: NotesV3.self)]
    }
}

/// Knows only V2 and V3.
enum NotesPlanFromV2: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NotesV2.self, NotesV3.self] }
    static var stages: [MigrationStage] { [NotesPlan.v2ToV3] }
}

/// Knows V1 and V2 only: for code older than a V3 store.
enum NotesPlanUpToV2: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NotesV1.self, NotesV2.self] }
    static var stages: [MigrationStage] { [NotesPlan.v1ToV2] }
}

/// V2 to V3 inserts a note at V2 in `willMigrate`, and `didMigrate` fills `priority` for every
/// note but that one.
enum NotesPlanLeavingAnInsertUnfilled: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NotesV1.self, NotesV2.self, NotesV3.self] }
    static var stages: [MigrationStage] {
        [
            .lightweight(fromVersion: NotesV1.self, toVersion: NotesV2.self),
            .custom(
                fromVersion: NotesV2.self,
                toVersion: NotesV3.self,
                willMigrate: { context in
                    context.insert(NotesV2.Note(heading: "Inserted", body: "by willMigrate"))
                    try context.save()
                },
                didMigrate: { context in
                    for note in try context.fetch(FetchDescriptor<NotesV3.Note>()) where note.heading != "Inserted" {
                        note.priority = 1
                    }
                    try context.save()
                }
            ),
        ]
    }
}
