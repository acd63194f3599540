// A note-taking app's model that started unversioned and was moved under `VersionedSchema`, the
// way SwiftData's guides on versioned schemas show it: the model becomes a typealias of the
// newest version, versions carry explicit identifiers, and the container is made from a
// `Schema` built without `try`. The second version adds a word count that `didMigrate` fills in
// and drops blank records in `willMigrate`: a stage with both closures.

import Foundation
import Logbook

typealias Record = RecordSchemaV2.Record

enum RecordSchemaV1: VersionedSchema {
    static var models: [any PersistentModel.Type] {
        [Record.self]
    }

    static var versionIdentifier: Schema.Version = Schema.Version(0, 0, 1)

    @Model
    final class Record {
        var title: String
        var content: String
        var createTime: Date

        init(title: String, content: String, createTime: Date) {
            self.title = title
            self.content = content
            self.createTime = createTime
        }
    }
}

enum RecordSchemaV2: VersionedSchema {
    static var models: [any PersistentModel.Type] {
        [Record.self]
    }

    static var versionIdentifier: Schema.Version = Schema.Version(0, 0, 2)

    @Model
    final class Record {
        var title: String
        var content: String
        var createTime: Date
        var wordCount: Int = 0

        init(title: String, content: String, createTime: Date) {
            self.title = title
            self.content = content
            self.createTime = createTime
            self.wordCount = content.split(separator: " ").count
        }
    }
}

enum RecordMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] {
        [RecordSchemaV1.self, RecordSchemaV2.self]
    }

    static var stages: [MigrationStage] {
        [migrateV1toV2]
    }

    static let migrateV1toV2 = MigrationStage.custom(
        fromVersion: RecordSchemaV1.self,
        toVersion: RecordSchemaV2.self,
        willMigrate: { context in
            let blank = #Predicate<RecordSchemaV1.Record> { $0.title == "" && $0.content == "" }
            try context.delete(model: RecordSchemaV1.Record.self, where: blank)
            try context.save()
        },
        didMigrate: { context in
            let records = try context.fetch(FetchDescriptor<RecordSchemaV2.Record>())
            for record in records {
                record.wordCount = record.content.split(separator: " ").count
            }
            try context.save()
        }
    )
}

/// How the app makes its container.
func makeRecordContainer(url: URL) throws -> ModelContainer {
    let schema = Schema([Record.self])
    let configuration = ModelConfiguration(schema: schema, url: url)
    return try ModelContainer(for: schema, migrationPlan: RecordMigrationPlan.self, configurations: [configuration])
}
