import Foundation
import Testing

@testable import Logbook

/// `@Attribute(.externalStorage)`: large values in files beside the log, content-addressed,
/// written before the batch that refers to them, read back when a model is made, in history and
/// from checkpoints, and named when their file is missing or damaged.
struct ExternalStorageTests {
    private let directory = TemporaryDirectory("external")
    private var url: URL { URL(fileURLWithPath: directory.child("photos.store")) }

    private func container(threshold: Int? = nil, syscalls: (any Syscalls)? = nil) throws -> ModelContainer {
        var configuration = ModelConfiguration(url: url)
        if let threshold { configuration.externalStorageThreshold = threshold }
        if let syscalls { configuration.syscalls = syscalls }
        return try ModelContainer(for: Snapshot.self, configurations: configuration)
    }

    private func snapshots(_ container: ModelContainer) throws -> [String: Snapshot] {
        let all = try ModelContext(container).fetch(FetchDescriptor<Snapshot>())
        return Dictionary(uniqueKeysWithValues: all.map { ($0.caption, $0) })
    }

    private func batches() throws -> [Batch] {
        var cursor = LogReader(directory: url.path).batches()
        var batches: [Batch] = []
        while let batch = try cursor.next() { batches.append(batch) }
        return batches
    }

    // MARK: - Round trips

    @Test func largeValuesGoToFilesSmallOnesAndOtherAttributesStayInTheLog() throws {
        let large = externalTestBytes(40_000, seed: 1)
        let small = externalTestBytes(100, seed: 2)
        let thumbnail = externalTestBytes(30_000, seed: 3)
        do {
            let context = ModelContext(try container())
            context.insert(Snapshot(caption: "large", image: large, thumbnail: thumbnail))
            context.insert(Snapshot(caption: "small", image: small))
            context.insert(Snapshot(caption: "none", image: nil))
            try context.save()
        }
        let reference = ExternalReference(of: large)
        #expect(externalFiles(in: url) == [reference.relativePath], "one file: the large image's, named by its hash")
        #expect(try Data(contentsOf: url.appendingPathComponent(reference.relativePath)) == large)
        let log = try segmentBytes(of: url)
        #expect(log.count < 40_000, "the log holds a reference, not the image: \(log.count) bytes")
        #expect(log.count > 30_000, "the thumbnail, not marked external, is in the log")

        let reopened = try snapshots(try container())
        #expect(reopened["large"]?.image == large)
        #expect(reopened["large"]?.thumbnail == thumbnail)
        #expect(reopened["small"]?.image == small)
        #expect(reopened["none"]?.image == nil)
    }

    @Test func aBatchWithAReferenceIsOfFormatVersion5AndOthersAreNot() throws {
        do {
            let context = ModelContext(try container())
            context.insert(Snapshot(caption: "small", image: externalTestBytes(10, seed: 1)))
            try context.save()
            context.insert(Snapshot(caption: "large", image: externalTestBytes(20_000, seed: 2)))
            try context.save()
        }
        let headers = try batches().map(\.header)
        try #require(headers.count == 2)
        #expect(headers[0].version == 4 && headers[0].flags & LogFormat.flagExternal == 0)
        #expect(headers[1].version == 5 && headers[1].flags & LogFormat.flagExternal != 0)
    }

    @Test func theThresholdIsTheConfigurations() throws {
        let value = externalTestBytes(2_000, seed: 4)
        do {
            let context = ModelContext(try container(threshold: 1_000))
            context.insert(Snapshot(caption: "medium", image: value))
            try context.save()
        }
        #expect(externalFiles(in: url) == [ExternalReference(of: value).relativePath])
        #expect(try snapshots(try container())["medium"]?.image == value)
    }

    @Test func theSameBytesSavedTwiceAreOneFile() throws {
        let value = externalTestBytes(20_000, seed: 5)
        do {
            let context = ModelContext(try container())
            context.insert(Snapshot(caption: "a", image: value))
            context.insert(Snapshot(caption: "b", image: value))
            try context.save()
            context.insert(Snapshot(caption: "c", image: value))
            try context.save()
        }
        #expect(externalFiles(in: url) == [ExternalReference(of: value).relativePath])
        let reopened = try snapshots(try container())
        #expect(["a", "b", "c"].map { reopened[$0]?.image } == [value, value, value])
    }

    @Test func anUpdateReplacingALargeValueReadsBackTheNewOne() throws {
        let first = externalTestBytes(20_000, seed: 6)
        let second = externalTestBytes(25_000, seed: 7)
        do {
            let context = ModelContext(try container())
            let snapshot = Snapshot(caption: "edited", image: first)
            context.insert(snapshot)
            try context.save()
            snapshot.image = second
            try context.save()
        }
        #expect(
            Set(externalFiles(in: url)) == [
                ExternalReference(of: first).relativePath, ExternalReference(of: second).relativePath,
            ],
            "the first file stays: the log's history refers to it"
        )
        #expect(try snapshots(try container())["edited"]?.image == second)
    }

    @Test func aDeletedObjectStaysDeletedAndItsValueStaysInHistory() throws {
        let value = externalTestBytes(20_000, seed: 8)
        do {
            let container = try container()
            let context = ModelContext(container)
            let snapshot = Snapshot(caption: "gone", image: value)
            context.insert(snapshot)
            try context.save()
            context.delete(snapshot)
            try context.save()
        }
        let reopened = try container()
        #expect(try ModelContext(reopened).fetchCount(FetchDescriptor<Snapshot>()) == 0)
        #expect(externalFiles(in: url) == [ExternalReference(of: value).relativePath])
        let history = try ModelContext(reopened).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        let insert = try #require(
            history.first?.changes.first.flatMap { change -> DefaultHistoryInsert<Snapshot>? in
                guard case .insert(let insert) = change else { return nil }
                return insert as? DefaultHistoryInsert<Snapshot>
            }
        )
        #expect(insert.value(for: \.image) == .some(value))
    }

    @Test func historyUpdatesCarryTheBytes() throws {
        let first = externalTestBytes(20_000, seed: 9)
        let second = externalTestBytes(20_000, seed: 10)
        do {
            let context = ModelContext(try container())
            let snapshot = Snapshot(caption: "history", image: first)
            context.insert(snapshot)
            try context.save()
            snapshot.image = second
            try context.save()
        }
        let history = try ModelContext(try container()).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        try #require(history.count == 2)
        guard case .update(let change) = try #require(history[1].changes.first),
            let update = change as? DefaultHistoryUpdate<Snapshot>
        else {
            Issue.record("the second save is an update of the snapshot")
            return
        }
        #expect(update.value(for: \.image) == .some(second))
    }

    @Test func aCheckpointHoldsTheReferenceAndLoadsTheBytes() throws {
        let value = externalTestBytes(50_000, seed: 11)
        do {
            let container = try container()
            let context = ModelContext(container)
            context.insert(Snapshot(caption: "checkpointed", image: value))
            context.insert(Snapshot(caption: "small", image: externalTestBytes(50, seed: 12)))
            try context.save()
            try container.checkpoint()
        }
        let checkpoints = try FileManager.default.contentsOfDirectory(
            atPath: url.appendingPathComponent("checkpoints").path
        )
        .filter { $0.hasSuffix(".checkpoint") }
        let name = try #require(checkpoints.first)
        let bytes = try Data(contentsOf: url.appendingPathComponent("checkpoints").appendingPathComponent(name))
        #expect(bytes.count < 50_000, "a reference, not the bytes: \(bytes.count) bytes")
        #expect(bytes.range(of: value.prefix(64)) == nil)

        // The segments gone, the checkpoint alone would not open; the log is kept, and the open
        // loads the checkpoint: a value read through it is the file's.
        let reopened = try snapshots(try container())
        #expect(reopened["checkpointed"]?.image == value)
        #expect(reopened["small"]?.image == externalTestBytes(50, seed: 12))
    }

    @Test func aCheckpointLoadsTheReferenceAndAMissingFileFailsOnlyTheFetchThatReadsIt() throws {
        let value = externalTestBytes(50_000, seed: 13)
        do {
            let container = try container()
            let context = ModelContext(container)
            context.insert(Snapshot(caption: "checkpointed", image: value))
            try context.save()
            try container.checkpoint()
        }
        let path = url.appendingPathComponent(ExternalReference(of: value).relativePath).path
        try FileManager.default.removeItem(atPath: path)
        let reopened = try container()
        #expect(try ModelContext(reopened).fetchCount(FetchDescriptor<Snapshot>()) == 1, "the open read no file")
        let error = #expect(throws: LogbookError.self) { try snapshots(reopened) }
        #expect(error?.code == .corruption)
        #expect(error?.path == path)
        #expect(error?.message == "missing external value file \(path) of Snapshot.image of object 1")
    }

    @Test func aMigrationRenamingAnExternalAttributeKeepsItsValues() throws {
        let value = externalTestBytes(30_000, seed: 14)
        do {
            let context = ModelContext(
                try ModelContainer(for: AlbumV1.Picture.self, configurations: ModelConfiguration(url: url))
            )
            context.insert(AlbumV1.Picture(title: "Sunset", bytes: value))
            try context.save()
        }
        #expect(externalFiles(in: url) == [ExternalReference(of: value).relativePath])
        let migrated = try ModelContainer(
            for: AlbumV2.Picture.self,
            migrationPlan: AlbumPlan.self,
            configurations: ModelConfiguration(url: url)
        )
        let pictures = try ModelContext(migrated).fetch(FetchDescriptor<AlbumV2.Picture>())
        #expect(pictures.map(\.title) == ["Sunset"])
        #expect(pictures.first?.image == value)
        let context = ModelContext(migrated)
        context.insert(AlbumV2.Picture(title: "Dawn", image: externalTestBytes(30_000, seed: 15)))
        try context.save()
        #expect(externalFiles(in: url).count == 2)
    }

    @Test func aStoreInMemoryKeepsEveryValueInline() throws {
        let value = externalTestBytes(40_000, seed: 16)
        let container = try ModelContainer(
            for: Snapshot.self,
            configurations: ModelConfiguration(isStoredInMemoryOnly: true)
        )
        let context = ModelContext(container)
        context.insert(Snapshot(caption: "memory", image: value))
        try context.save()
        #expect(try snapshots(container)["memory"]?.image == value)
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func predicatesAndSortsOnAnExternalAttributeWork() throws {
        let large = externalTestBytes(20_000, seed: 17)
        do {
            let context = ModelContext(try container())
            context.insert(Snapshot(caption: "large", image: large))
            context.insert(Snapshot(caption: "none", image: nil))
            try context.save()
        }
        let context = ModelContext(try container())
        let found = try context.fetch(FetchDescriptor<Snapshot>(predicate: #Predicate { $0.image == large }))
        #expect(found.map(\.caption) == ["large"])
        let withImage = try context.fetch(FetchDescriptor<Snapshot>(predicate: #Predicate { $0.image != nil }))
        #expect(withImage.map(\.caption) == ["large"])
    }

    // MARK: - Damage

    @Test func aMissingFileLetsTheStoreOpenAndFailsTheFetchOfItsObjectNamingIt() throws {
        let value = externalTestBytes(20_000, seed: 18)
        let kept = externalTestBytes(20_000, seed: 24)
        do {
            let context = ModelContext(try container())
            context.insert(Snapshot(caption: "lost", image: value))
            context.insert(Snapshot(caption: "kept", image: kept))
            try context.save()
        }
        let path = url.appendingPathComponent(ExternalReference(of: value).relativePath).path
        try FileManager.default.removeItem(atPath: path)
        let reopened = try container()
        let context = ModelContext(reopened)
        let found = try context.fetch(FetchDescriptor<Snapshot>(predicate: #Predicate { $0.caption == "kept" }))
        #expect(found.map(\.image) == [kept], "the other object's file is read")
        let error = #expect(throws: LogbookError.self) {
            try context.fetch(FetchDescriptor<Snapshot>(predicate: #Predicate { $0.caption == "lost" }))
        }
        #expect(error?.code == .corruption)
        #expect(error?.path == path)
        #expect(error?.message == "missing external value file \(path) of Snapshot.image of object 1")
    }

    @Test func aDamagedFileFailsTheFetchOfItsObjectNamingIt() throws {
        let value = externalTestBytes(20_000, seed: 19)
        do {
            let context = ModelContext(try container())
            context.insert(Snapshot(caption: "flipped", image: value))
            try context.save()
        }
        let path = url.appendingPathComponent(ExternalReference(of: value).relativePath).path
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[100] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: LogbookError.self) { try snapshots(try container()) }
        #expect(error?.code == .corruption)
        #expect(error?.path == path)
        let checksum = String(ExternalReference(of: value).checksum, radix: 16)
        let found = String(ExternalReference(of: bytes).checksum, radix: 16)
        #expect(
            error?.message
                == "external value file's CRC32C is \(found) where \(checksum) was written \(path) of Snapshot.image of object 1"
        )

        try bytes.prefix(10).write(to: URL(fileURLWithPath: path))
        let truncated = #expect(throws: LogbookError.self) { try snapshots(try container()) }
        #expect(
            truncated?.message
                == "external value file of 10 bytes where 20000 were written \(path) of Snapshot.image of object 1"
        )
    }

    // MARK: - Durability

    @Test func aFailedCommitLeavesAtMostAnUnreferencedFileAndTheRetryWritesOne() throws {
        let value = externalTestBytes(20_000, seed: 20)
        let syscalls = FaultySyscalls()
        do {
            let context = ModelContext(try container(syscalls: syscalls))
            context.insert(Snapshot(caption: "retried", image: value))
            // The first write is the value's file; the second, the batch.
            syscalls.inject(.fail(.noSpace), at: 2, on: .pwrite)
            #expect(throws: LogbookError.self) { try context.save() }
            #expect(syscalls.injectedCount == 1)
            #expect(externalFiles(in: url) == [ExternalReference(of: value).relativePath], "written before the batch")
            #expect(try ModelContext(context.container).fetchCount(FetchDescriptor<Snapshot>()) == 0)
            try context.save()
        }
        #expect(externalFiles(in: url) == [ExternalReference(of: value).relativePath], "the retry found it written")
        #expect(try snapshots(try container())["retried"]?.image == value)
    }

    @Test func aFileThatCannotBeWrittenFailsTheSaveWithNothingAppended() throws {
        let value = externalTestBytes(20_000, seed: 21)
        let syscalls = FaultySyscalls()
        do {
            let context = ModelContext(try container(syscalls: syscalls))
            context.insert(Snapshot(caption: "first", image: externalTestBytes(10, seed: 1)))
            try context.save()
            context.insert(Snapshot(caption: "unwritten", image: value))
            syscalls.inject(.fail(.noSpace), on: .pwrite)
            let error = #expect(throws: LogbookError.self) { try context.save() }
            #expect(error?.code == .io)
            #expect(error?.path?.contains("/external/") == true)
            #expect(context.hasChanges, "the changes stay pending")
        }
        #expect(try batches().count == 1, "nothing appended")
        #expect(externalFiles(in: url).allSatisfy { $0.hasSuffix(".tmp") == false })
        #expect(try snapshots(try container()).keys.sorted() == ["first"])
    }

    @Test func anUnreferencedFileIsHarmless() throws {
        let value = externalTestBytes(20_000, seed: 23)
        do {
            let context = ModelContext(try container())
            context.insert(Snapshot(caption: "kept", image: value))
            try context.save()
        }
        // As a save that failed after writing its file leaves it.
        let stray = externalTestBytes(20_000, seed: 22)
        try ExternalFiles(storeDirectory: url.path).write(stray)
        #expect(try snapshots(try container())["kept"]?.image == value)
        let check = try ExternalFilesCheck.check(directory: url.path)
        #expect(check.references == 1 && check.damages.isEmpty)
        #expect(check.unreferenced == [url.appendingPathComponent(ExternalReference(of: stray).relativePath).path])
    }
}
