import Foundation
import Logbook
import Testing

/// A poster whose image is kept beside the log.
@Model
final class Poster {
    var title: String
    @Attribute(.externalStorage) var image: Data?

    init(title: String, image: Data?) {
        self.title = title
        self.image = image
    }
}

/// `logbook verify`, `dump` and `salvage` on a store with values of `.externalStorage`
/// attributes kept in files.
struct ExternalValueToolTests {
    private static let image = Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) })
    private static let reference = ExternalReference(of: image)

    /// A store with one poster whose image is in a file.
    private func makeStore(_ path: String) throws {
        let context = ModelContext(
            try ModelContainer(for: Poster.self, configurations: ModelConfiguration(url: URL(fileURLWithPath: path)))
        )
        context.insert(Poster(title: "Lisbon", image: Self.image))
        try context.save()
    }

    @Test func verifyChecksTheFilesAndNamesAMissingOneWithItsEvent() throws {
        let directory = TemporaryDirectory()
        let store = directory.child("posters.store")
        try makeStore(store)
        let sound = try ToolProcess.run(["verify", store])
        #expect(sound.status == 0, "\(sound.stdout)\(sound.stderr)")
        #expect(sound.stdout.contains("external values: 1 reference to 1 file\n"))

        let path = store + "/" + Self.reference.relativePath
        try FileManager.default.removeItem(atPath: path)
        let missing = try ToolProcess.run(["verify", store])
        #expect(missing.status == 1)
        #expect(
            missing.stdout.contains(
                "damage: external value file \(path): missing external value file, the value of Poster.image of object 1 at sequence 2 (batch at byte offset 0 of 00000000000000000001.log)\n"
            ),
            "\(missing.stdout)"
        )
        #expect(missing.stdout.hasSuffix("unsound: 1 reference to missing or damaged external value files\n"))
    }

    @Test func verifyListsAFileNoBatchRefersTo() throws {
        let directory = TemporaryDirectory()
        let store = directory.child("posters.store")
        try makeStore(store)
        let stray = Data(repeating: 7, count: 20_000)
        let strayPath = try ExternalFiles(storeDirectory: store).path(
            of: ExternalFiles(storeDirectory: store).write(stray)
        )
        let outcome = try ToolProcess.run(["verify", store])
        #expect(outcome.status == 0, "unreferenced files are harmless")
        #expect(outcome.stdout.contains("unreferenced: \(strayPath): no batch refers to it"))
    }

    @Test func dumpShowsTheReferenceAndTheFileInsteadOfTheBytes() throws {
        let directory = TemporaryDirectory()
        let store = directory.child("posters.store")
        try makeStore(store)
        let text = try ToolProcess.run(["dump", store])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(
            text.stdout.contains(
                "title=\"Lisbon\""
            ) || text.stdout.contains("title=Lisbon"),
            "\(text.stdout)"
        )
        #expect(
            text.stdout.contains(
                "image=<external 20000 bytes, sha256 \(Self.reference.fileName), file \(Self.reference.relativePath)>"
            ),
            "\(text.stdout)"
        )
        #expect(text.stdout.count < 2_000)
        let json = try ToolProcess.run(["dump", store, "--format", "json"])
        #expect(
            json.stdout.contains(
                "\"image\":{\"external\":{\"length\":20000,\"sha256\":\"\(Self.reference.fileName)\",\"crc32c\":\"\(String(Self.reference.checksum, radix: 16))\",\"file\":\"\(Self.reference.relativePath)\"}}"
            ),
            "\(json.stdout)"
        )
    }

    @Test func salvageCopiesTheFilesTheKeptBatchesReferToAndReportsMissingOnes() throws {
        let directory = TemporaryDirectory()
        let store = directory.child("posters.store")
        try makeStore(store)
        let copy = directory.child("copy.store")
        let outcome = try ToolProcess.run(["salvage", store, copy])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("external     copied 1 value file the kept batches refer to\n"))
        let reopened = try ModelContext(
            try ModelContainer(for: Poster.self, configurations: ModelConfiguration(url: URL(fileURLWithPath: copy)))
        ).fetch(FetchDescriptor<Poster>())
        #expect(reopened.first?.image == Self.image)

        try FileManager.default.removeItem(atPath: store + "/" + Self.reference.relativePath)
        let second = directory.child("second.store")
        let missing = try ToolProcess.run(["salvage", store, second])
        #expect(
            missing.stdout.contains(
                "external     reference kept, file not copied: \(store)/\(Self.reference.relativePath): missing external value file"
            ),
            "\(missing.stdout)"
        )
    }
}

/// `logbook prune-external`: removes the files no batch refers to, and only those.
struct PruneExternalToolTests {
    @Test func removesOnlyUnreferencedFilesAndTemporaryOnes() throws {
        let directory = TemporaryDirectory()
        let store = directory.child("posters.store")
        let image = Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        do {
            let context = ModelContext(
                try ModelContainer(
                    for: Poster.self,
                    configurations: ModelConfiguration(url: URL(fileURLWithPath: store))
                )
            )
            context.insert(Poster(title: "Porto", image: image))
            try context.save()
        }
        let files = ExternalFiles(storeDirectory: store)
        let kept = files.path(of: ExternalReference(of: image))
        let stray = files.path(of: try files.write(Data(repeating: 1, count: 20_000)))
        let temporary = kept + ".5eed.tmp"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: temporary))

        let outcome = try ToolProcess.run(["prune-external", store])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let removed = [temporary, stray].sorted().map { "removed \($0)\n" }.joined()
        #expect(outcome.stdout == removed + "removed 2 files no batch refers to\n")
        #expect(FileManager.default.fileExists(atPath: kept))
        #expect(!FileManager.default.fileExists(atPath: stray))
        #expect(!FileManager.default.fileExists(atPath: temporary))
        let reopened = try ModelContext(
            try ModelContainer(for: Poster.self, configurations: ModelConfiguration(url: URL(fileURLWithPath: store)))
        ).fetch(FetchDescriptor<Poster>())
        #expect(reopened.first?.image == image)
    }

    @Test func refusesAStoreOpenForWriting() throws {
        let directory = TemporaryDirectory()
        let store = directory.child("posters.store")
        let container = try ModelContainer(
            for: Poster.self,
            configurations: ModelConfiguration(url: URL(fileURLWithPath: store))
        )
        let outcome = try ToolProcess.run(["prune-external", store])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("is already open for writing"), "\(outcome.stderr)")
        _ = container
    }
}

/// A writer of external values killed with SIGKILL at random moments: every acknowledged save
/// reads back whole, and the store verifies (files no batch refers to are allowed).
@Suite(.serialized)
struct ExternalValueCrashTests {
    @Test func everyKillLeavesEveryAcknowledgedValueReadable() throws {
        let directory = TemporaryDirectory()
        let store = directory.child("posters.store")
        var random = SystemRandomNumberGenerator()
        var acknowledged = 0
        for round in 0..<6 {
            let (process, out) = try ToolProcess.start(["_external-loop", store])
            usleep(UInt32.random(in: 20_000...150_000, using: &random))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let acks = output.split(separator: "\n").compactMap { line in
                line.hasPrefix("ack ") ? Int(line.dropFirst(4)) : nil
            }
            acknowledged = max(acknowledged, acks.max() ?? 0)
            let check = try ToolProcess.run(["_external-loop", store, "--check", "\(acknowledged)"])
            #expect(check.status == 0, "round \(round): \(check.stderr)")
            let verify = try ToolProcess.run(["verify", store])
            #expect(verify.status == 0 || verify.status == 3, "round \(round): \(verify.stdout)")
            #expect(!verify.stdout.contains("damage:"), "round \(round): \(verify.stdout)")
        }
        #expect(acknowledged > 0, "the writer saved before it was killed")
    }
}
