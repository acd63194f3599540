import Foundation
import InMemoryLogging
import Logging
import Testing

@testable import Logbook

/// A directory store keeps the values of `.externalStorage` attributes by reference in its
/// objects: an open, from the log or from a checkpoint, reads no value file, a save leaves the
/// reference, and a model being made reads the file it needs.
struct ExternalValuesOnDemandTests {
    private let directory = TemporaryDirectory("external-on-demand")
    private var url: URL { URL(fileURLWithPath: directory.child("photos.store")) }

    private func container() throws -> ModelContainer {
        try ModelContainer(for: Snapshot.self, configurations: ModelConfiguration(url: url))
    }

    private func images(_ container: ModelContainer) throws -> [String: Data?] {
        let all = try ModelContext(container).fetch(FetchDescriptor<Snapshot>())
        return Dictionary(uniqueKeysWithValues: all.map { ($0.caption, $0.image) })
    }

    /// The `image` values the store's objects hold, by identifier, as stored.
    private func storedImages(_ container: ModelContainer) throws -> [UInt64: AttributeValue] {
        try #require(
            container.store.read { state -> [UInt64: AttributeValue]? in
                guard let table = state.projection.table(named: "Snapshot"),
                    let image = state.projection.tables[table].entity.attributes.firstIndex(where: {
                        $0.name == "image"
                    })
                else { return nil }
                var values: [UInt64: AttributeValue] = [:]
                for (id, slot) in state.projection.tables[table].identifiersInOrder() {
                    values[id] = state.projection.tables[table].row(at: slot).values[image]
                }
                return values
            }
        )
    }

    private func removeFile(of value: Data) throws {
        try FileManager.default.removeItem(at: url.appendingPathComponent(ExternalReference(of: value).relativePath))
    }

    private func saveSeveral() throws -> [String: Data] {
        let values = (0..<4).map { externalTestBytes(30_000 + $0, seed: 100 + UInt64($0)) }
        let context = ModelContext(try container())
        for (index, value) in values.enumerated() { context.insert(Snapshot(caption: "photo \(index)", image: value)) }
        context.insert(Snapshot(caption: "small", image: externalTestBytes(64, seed: 99)))
        try context.save()
        var byCaption = Dictionary(uniqueKeysWithValues: values.enumerated().map { ("photo \($0.offset)", $0.element) })
        byCaption["small"] = externalTestBytes(64, seed: 99)
        return byCaption
    }

    // MARK: - Open

    @Test(arguments: [false, true])
    func anOpenKeepsReferencesAndReadsNoFile(fromCheckpoint: Bool) throws {
        let values = try saveSeveral()
        if fromCheckpoint { try container().checkpoint() }
        let reopened = try container()
        let stored = try storedImages(reopened)
        let references = Set(stored.values.compactMap { ExternalPlaceholder.reference(in: $0) })
        #expect(references == Set((0..<4).compactMap { values["photo \($0)"].map(ExternalReference.init(of:)) }))
        #expect(stored.values.contains(.data(externalTestBytes(64, seed: 99))), "a small value stays inline")
        #expect(try images(reopened) == values.mapValues { Optional($0) }, "models read the files")
    }

    @Test(arguments: [false, true])
    func anOpenSucceedsWithAMissingFileAndOnlyItsObjectFails(fromCheckpoint: Bool) throws {
        let values = try saveSeveral()
        if fromCheckpoint { try container().checkpoint() }
        let lost = try #require(values["photo 2"])
        try removeFile(of: lost)
        let context = ModelContext(try container())
        for caption in ["photo 0", "photo 1", "photo 3", "small"] {
            let found = try context.fetch(FetchDescriptor<Snapshot>(predicate: #Predicate { $0.caption == caption }))
            #expect(found.map(\.image) == [values[caption]])
        }
        let error = #expect(throws: LogbookError.self) {
            try context.fetch(FetchDescriptor<Snapshot>(predicate: #Predicate { $0.caption == "photo 2" }))
        }
        let path = url.appendingPathComponent(ExternalReference(of: lost).relativePath).path
        #expect(error?.code == .corruption)
        #expect(error?.message == "missing external value file \(path) of Snapshot.image of object 3")
    }

    // MARK: - Saves

    @Test(arguments: [false, true])
    func aSmallValueShapedLikeAReferenceIsKeptInAFileAndReadsBackAsItself(fromCheckpoint: Bool) throws {
        let other = externalTestBytes(40_000, seed: 7)
        // 60 bytes that name the other value's file the way the store's objects do.
        let lookalike = Data(ExternalPlaceholder.prefix + ExternalReference(of: other).fixedBytes)
        #expect(lookalike.count == ExternalPlaceholder.size)
        do {
            let context = ModelContext(try container())
            context.insert(Snapshot(caption: "other", image: other))
            context.insert(Snapshot(caption: "lookalike", image: lookalike))
            try context.save()
        }
        if fromCheckpoint { try container().checkpoint() }
        let read = try images(try container())
        #expect(read["lookalike"] == lookalike)
        #expect(read["other"] == other)
        // It went to a file of its own, below the threshold.
        let file = url.appendingPathComponent(ExternalReference(of: lookalike).relativePath)
        #expect(try Data(contentsOf: file) == lookalike)
    }

    @Test func aSaveLeavesTheReferenceInTheStoreAndTheBytesInTheModel() throws {
        let value = externalTestBytes(40_000, seed: 7)
        let container = try container()
        let context = ModelContext(container)
        let snapshot = Snapshot(caption: "fresh", image: value)
        context.insert(snapshot)
        try context.save()
        let stored = try storedImages(container)
        #expect(stored.values.compactMap { ExternalPlaceholder.reference(in: $0) } == [ExternalReference(of: value)])
        #expect(snapshot.image == value)
        #expect(try images(container)["fresh"] == value, "another context reads the file")

        let second = externalTestBytes(45_000, seed: 8)
        snapshot.image = second
        try context.save()
        #expect(
            try storedImages(container).values.compactMap { ExternalPlaceholder.reference(in: $0) } == [
                ExternalReference(of: second)
            ]
        )
    }

    @Test func anUpdatedValueReadsBackAfterReopeningFromTheLogAndFromACheckpoint() throws {
        let first = externalTestBytes(20_000, seed: 11)
        let second = externalTestBytes(21_000, seed: 12)
        do {
            let context = ModelContext(try container())
            let snapshot = Snapshot(caption: "edited", image: first)
            context.insert(snapshot)
            try context.save()
        }
        do {
            let container = try container()
            let context = ModelContext(container)
            let snapshot = try #require(try context.fetch(FetchDescriptor<Snapshot>()).first)
            #expect(snapshot.image == first)
            snapshot.image = second
            try context.save()
        }
        #expect(try images(try container())["edited"] == second, "from the log")
        try container().checkpoint()
        #expect(try images(try container())["edited"] == second, "from the checkpoint")
    }

    @Test func aCheckpointOfReferencesWritesNoFileAndReadsNone() throws {
        let values = try saveSeveral()
        let reopened = try container()
        // The files gone, the checkpoint is still written: it takes the references it holds.
        for index in 0..<4 { try removeFile(of: try #require(values["photo \(index)"])) }
        try reopened.checkpoint()
        let checkpoints = url.appendingPathComponent("checkpoints")
        let names = try FileManager.default.contentsOfDirectory(atPath: checkpoints.path)
        let name = try #require(names.first { $0.hasSuffix(".checkpoint") })
        let bytes = try Data(contentsOf: checkpoints.appendingPathComponent(name))
        #expect(bytes.count < 30_000, "references, not bytes: \(bytes.count) bytes")
        #expect(externalFiles(in: url).isEmpty, "no file was written again")
    }

    // MARK: - Reads

    @Test func aPredicateOnTheExternalAttributeComparesTheBytes() throws {
        let values = try saveSeveral()
        let wanted = try #require(values["photo 1"])
        let context = ModelContext(try container())
        let found = try context.fetch(FetchDescriptor<Snapshot>(predicate: #Predicate { $0.image == wanted }))
        #expect(found.map(\.caption) == ["photo 1"])
        #expect(try context.fetchCount(FetchDescriptor<Snapshot>(predicate: #Predicate { $0.image == wanted })) == 1)
        let small = externalTestBytes(64, seed: 99)
        let inline = try context.fetch(FetchDescriptor<Snapshot>(predicate: #Predicate { $0.image == small }))
        #expect(inline.map(\.caption) == ["small"])
    }

    @Test func historyCarriesTheBytesOfAStoreOpenedByReference() throws {
        let values = try saveSeveral()
        let history = try ModelContext(try container()).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        var inserted: [String: Data] = [:]
        for change in try #require(history.first).changes {
            guard case .insert(let insert) = change, let snapshot = insert as? DefaultHistoryInsert<Snapshot>,
                let caption = snapshot.value(for: \.caption), let image = snapshot.value(for: \.image) ?? nil
            else { continue }
            inserted[caption] = image
        }
        #expect(inserted == values)
    }

    // MARK: - Deleting history

    @Test func deletingHistoryKeepsTheReferencesAndTheValuesReadBack() throws {
        let first = externalTestBytes(20_000, seed: 31)
        let second = externalTestBytes(22_000, seed: 32)
        let kept = externalTestBytes(24_000, seed: 33)
        do {
            let context = ModelContext(try container())
            let edited = Snapshot(caption: "edited", image: first)
            context.insert(edited)
            context.insert(Snapshot(caption: "kept", image: kept))
            try context.save()
            edited.image = second
            try context.save()
        }
        do {
            // Opened by reference: the base is written from the references, no file read.
            let context = ModelContext(try container())
            let tokens = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).map(\.token)
            let horizon = try #require(tokens.last)
            try context.deleteHistory(
                HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token <= horizon })
            )
        }
        let base = try FileManager.default.contentsOfDirectory(atPath: url.path)
            .filter { !$0.hasSuffix(".lock") }
            .map { url.appendingPathComponent($0).path }
            .filter { path in
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
            }
        let sizes = try base.map { try FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int ?? 0 }
        #expect(sizes.reduce(0, +) < 20_000, "the log and its base hold references, not bytes: \(sizes)")
        let reopened = try container()
        #expect(try images(reopened) == ["edited": second, "kept": kept])
        #expect(
            Set(try storedImages(reopened).values.compactMap { ExternalPlaceholder.reference(in: $0) }) == [
                ExternalReference(of: second), ExternalReference(of: kept),
            ]
        )
    }

    // MARK: - Other contexts and migrations

    @Test func aModelOfAnotherContextTakesTheNewValueAfterASave() throws {
        let first = externalTestBytes(20_000, seed: 41)
        let second = externalTestBytes(20_500, seed: 42)
        do {
            let context = ModelContext(try container())
            context.insert(Snapshot(caption: "shared", image: first))
            context.insert(Snapshot(caption: "still", image: externalTestBytes(20_000, seed: 43)))
            try context.save()
        }
        let container = try container()
        let reader = ModelContext(container)
        let held = try reader.fetch(FetchDescriptor<Snapshot>(sortBy: [SortDescriptor(\.caption)]))
        #expect(held.map(\.image) == [first, externalTestBytes(20_000, seed: 43)])
        let writer = ModelContext(container)
        let edited = try #require(try writer.fetch(FetchDescriptor<Snapshot>()).first { $0.caption == "shared" })
        edited.image = second
        try writer.save()
        // The next fetch brings the reader's models up to date: the changed one from its file.
        _ = try reader.fetchCount(FetchDescriptor<Snapshot>())
        _ = try reader.fetch(FetchDescriptor<Snapshot>())
        #expect(held.map(\.image) == [second, externalTestBytes(20_000, seed: 43)])
    }

    @Test(arguments: [false, true])
    func anOpenWithAMigrationPlanAtTheModelsVersionReadsNoFile(fromCheckpoint: Bool) throws {
        let lost = externalTestBytes(30_000, seed: 61)
        let kept = externalTestBytes(30_000, seed: 62)
        func open() throws -> ModelContainer {
            try ModelContainer(
                for: AlbumV2.Picture.self,
                migrationPlan: AlbumPlan.self,
                configurations: ModelConfiguration(url: url)
            )
        }
        do {
            let container = try open()
            let context = ModelContext(container)
            context.insert(AlbumV2.Picture(title: "Lost", image: lost))
            context.insert(AlbumV2.Picture(title: "Kept", image: kept))
            try context.save()
            if fromCheckpoint { try container.checkpoint() }
        }
        try removeFile(of: lost)
        let context = ModelContext(try open())
        let found = try context.fetch(FetchDescriptor<AlbumV2.Picture>(predicate: #Predicate { $0.title == "Kept" }))
        #expect(found.map(\.image) == [kept])
        let error = #expect(throws: LogbookError.self) {
            try context.fetch(FetchDescriptor<AlbumV2.Picture>(predicate: #Predicate { $0.title == "Lost" }))
        }
        #expect(error?.code == .corruption)
        #expect(error?.message.hasPrefix("missing external value file") == true)
    }

    @Test func aRelatedObjectWhoseFileIsMissingIsLeftOutOfTheRelationshipAndLogged() throws {
        let lost = externalTestBytes(20_000, seed: 71)
        let kept = externalTestBytes(20_000, seed: 72)
        let handler = InMemoryLogHandler()
        var configuration = ModelConfiguration(url: url)
        configuration.logger = Logger(label: "test", factory: { [handler] _ in handler })
        do {
            let context = ModelContext(try ModelContainer(for: PhotoAlbum.self, configurations: configuration))
            let album = PhotoAlbum(name: "Trip")
            context.insert(album)
            album.photos = [AlbumPhoto(caption: "lost", image: lost), AlbumPhoto(caption: "kept", image: kept)]
            try context.save()
        }
        try removeFile(of: lost)
        let context = ModelContext(try ModelContainer(for: PhotoAlbum.self, configurations: configuration))
        let album = try #require(try context.fetch(FetchDescriptor<PhotoAlbum>()).first)
        #expect(album.photos.map(\.caption) == ["kept"])
        let path = url.appendingPathComponent(ExternalReference(of: lost).relativePath).path
        #expect(
            handler.entries.contains {
                $0.level == .error && $0.message.description.contains("missing external value file \(path)")
            }
        )
    }

    @Test func aCustomStageFromACheckpointSeesTheBytes() throws {
        let value = externalTestBytes(30_000, seed: 51)
        do {
            let container = try ModelContainer(for: AlbumV1.Picture.self, configurations: ModelConfiguration(url: url))
            let context = ModelContext(container)
            context.insert(AlbumV1.Picture(title: "Sunset", bytes: value))
            try context.save()
            try container.checkpoint()
        }
        for _ in 0..<2 {
            let migrated = try ModelContainer(
                for: AlbumV2.Picture.self,
                migrationPlan: CountingAlbumPlan.self,
                configurations: ModelConfiguration(url: url)
            )
            let pictures = try ModelContext(migrated).fetch(FetchDescriptor<AlbumV2.Picture>())
            #expect(pictures.map(\.title) == ["Sunset (30000 bytes)"], "the stage read the bytes, not a reference")
            #expect(pictures.map(\.image) == [value])
        }
    }
}

/// ``AlbumPlan`` with a custom stage whose `willMigrate` writes each picture's size into its title.
private enum CountingAlbumPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [AlbumV1.self, AlbumV2.self] }
    static var stages: [MigrationStage] {
        [
            .custom(
                fromVersion: AlbumV1.self,
                toVersion: AlbumV2.self,
                willMigrate: { context in
                    for picture in try context.fetch(FetchDescriptor<AlbumV1.Picture>()) {
                        picture.title = "\(picture.title) (\(picture.bytes.count) bytes)"
                    }
                    try context.save()
                },
                didMigrate: nil
            )
        ]
    }
}
