import Foundation
import Logbook
import Synchronization
import Testing

/// A migration stage that makes a container of the store it migrates: the store is being
/// opened by the container that runs the stage, so the new container is refused instead of
/// waiting for that open forever.
enum ReentrantNotesPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NotesV1.self, NotesV2.self] }
    static var stages: [MigrationStage] { [v1ToV2] }

    /// The store the stage opens again.
    static let store = Mutex<URL?>(nil)

    static let v1ToV2 = MigrationStage.custom(
        fromVersion: NotesV1.self,
        toVersion: NotesV2.self,
        willMigrate: { _ in
            guard let url = store.withLock({ $0 }) else { return }
            _ = try ModelContainer(
                for: NotesV1.Note.self,
                NotesV1.Tag.self,
                configurations: ModelConfiguration(url: url)
            )
        },
        didMigrate: nil
    )
}

struct MigrationStageReentryTests {
    @Test func aContainerOfTheStoreMadeInsideItsOwnStageIsRefusedAndTheStoreIsUntouched() throws {
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
            context.insert(NotesV1.Note(title: "Groceries", body: "milk"))
            try context.save()
        }
        ReentrantNotesPlan.store.withLock { $0 = url }
        defer { ReentrantNotesPlan.store.withLock { $0 = nil } }
        let error = #expect(throws: LogbookError.self) {
            _ = try ModelContainer(
                for: NotesV2.Note.self,
                migrationPlan: ReentrantNotesPlan.self,
                configurations: ModelConfiguration(url: url)
            )
        }
        #expect(error?.code == .migrationFailed)
        let message = error.map { "\($0)" } ?? ""
        #expect(message.contains("willMigrate of the stage from 1.0.0 to 2.0.0 failed; the store is left at 1.0.0"))
        #expect(message.contains("cannot be made inside its own migration stage"), "\(message)")

        // Nothing was appended: the store opens at version 1 with its note.
        let reopened = try ModelContainer(
            for: NotesV1.Note.self,
            NotesV1.Tag.self,
            configurations: ModelConfiguration(url: url)
        )
        let notes = try ModelContext(reopened).fetch(FetchDescriptor<NotesV1.Note>())
        #expect(notes.map(\.title) == ["Groceries"])
    }
}
