import Foundation
import Logbook
import LogbookPostgres
import SampleTrips
import Testing

/// Stores copied between a directory and PostgreSQL, in both directions, through the API and
/// through `logbook-postgres copy`.
struct StoreCopyTests {
    /// A path in a new temporary directory, which does not exist yet.
    private func temporaryURL(_ name: String = "trips.store") throws -> URL {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("logbook-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        return parent.appendingPathComponent(name)
    }

    /// A store in a directory with `count` trips saved one by one, then one renamed and one
    /// deleted: inserts, updates and deletes to copy.
    private func writeDirectoryStore(_ url: URL, count: Int = 30) throws {
        let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        for index in 0..<count {
            context.insert(
                Trip(name: "Trip \(index)", destination: "City \(index)", startDate: Date(), endDate: Date())
            )
            try context.save()
        }
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        trips[0].destination = "Renamed"
        context.delete(trips[1])
        try context.save()
    }

    private func summary(_ container: ModelContainer) throws -> [String] {
        try ModelContext(container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map {
            "\($0.name)@\($0.destination)"
        }
    }

    private func directoryContainer(_ url: URL) throws -> ModelContainer {
        try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url))
    }

    /// The stored frames of every batch of a store's log, in order.
    private func frames(_ url: URL) throws -> [[UInt8]] {
        var segments = try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".log") }
        segments.sort()
        return try segments.flatMap { name -> [[UInt8]] in
            let bytes = [UInt8](try Data(contentsOf: url.appendingPathComponent(name)))
            var frames: [[UInt8]] = []
            var offset = 0
            while offset < bytes.count, let header = header(of: bytes[offset...]), header.frameSize > 0 {
                frames.append(Array(bytes[offset..<(offset + header.frameSize)]))
                offset += header.frameSize
            }
            return frames
        }
    }

    private func header(of bytes: ArraySlice<UInt8>) -> BatchHeader? {
        bytes.withUnsafeBytes { BatchHeader.read(from: $0) }
    }

    @Test func aStoreCopiedIntoPostgreSQLAndBackHoldsTheSameBatchesAndObjects() throws {
        let source = try temporaryURL()
        try writeDirectoryStore(source)
        let expected = try summary(try directoryContainer(source))
        let server = try TestServer.configuration()
        let store = TestServer.uniqueStore()
        let up = try server.copy(directory: source, toStore: store)
        #expect(up.batches == 31, "thirty saves and one of a change and a deletion")
        #expect(up.resumedAfter == 0)
        // A container on the server sees the directory's objects, and saves on after them.
        let shared = try ModelContainer(
            for: Trip.self,
            configurations: ModelConfiguration(postgres: server, store: store)
        )
        #expect(try summary(shared) == expected)
        let context = ModelContext(shared)
        context.insert(Trip(name: "Trip on the server", destination: "Oslo", startDate: Date(), endDate: Date()))
        try context.save()
        // And back into a directory: every batch, the server's save included, byte for byte.
        let back = try temporaryURL()
        let down = try server.copy(store: store, toDirectory: back)
        #expect(down.batches == 32)
        #expect(down.lastSequence > up.lastSequence)
        let copied = try frames(back)
        #expect(Array(copied.prefix(31)) == (try frames(source)))
        #expect(Set(try summary(try directoryContainer(back))) == Set(expected + ["Trip on the server@Oslo"]))
    }

    @Test func aCopyRunAgainGoesOnWhereTheServerEndsAndRefusesAnotherStoresBatches() throws {
        let source = try temporaryURL()
        try writeDirectoryStore(source, count: 5)
        let server = try TestServer.configuration()
        let store = TestServer.uniqueStore()
        let first = try server.copy(directory: source, toStore: store)
        // More saves in the directory, then the copy again: only the new batches go up.
        let context = ModelContext(try directoryContainer(source))
        context.insert(Trip(name: "Later", destination: "Rome", startDate: Date(), endDate: Date()))
        try context.save()
        let again = try server.copy(directory: source, toStore: store)
        #expect(again.resumedAfter == first.lastSequence)
        #expect(again.batches == 1)
        let shared = try ModelContainer(
            for: Trip.self,
            configurations: ModelConfiguration(postgres: server, store: store)
        )
        #expect(try summary(shared).contains("Later@Rome"))
        // Another directory's store under the same name is refused, and nothing is appended.
        let other = try temporaryURL()
        try writeDirectoryStore(other, count: 8)
        let error = try #require(throws: LogbookError.self) { try server.copy(directory: other, toStore: store) }
        #expect(error.code == .conflict)
        #expect(error.message.contains("holds other batches under the store name '\(store)'"))
        #expect(try server.copy(store: store, toDirectory: try temporaryURL()).batches == first.batches + 1)
    }

    @Test func copiesRefuseAMissingSourceAFullDestinationAndADamagedLog() throws {
        let server = try TestServer.configuration()
        let missing = try #require(throws: LogbookError.self) {
            try server.copy(store: TestServer.uniqueStore(), toDirectory: try temporaryURL())
        }
        #expect(missing.code == .notAStore)
        #expect(missing.message.contains("holds no batches of the store"))
        let source = try temporaryURL()
        try writeDirectoryStore(source, count: 3)
        let store = TestServer.uniqueStore()
        _ = try server.copy(directory: source, toStore: store)
        let full = try #require(throws: LogbookError.self) { try server.copy(store: store, toDirectory: source) }
        #expect(full.code == .invalidArgument)
        #expect(full.message.contains("holds a store already"))
        // A byte flipped in the payload of the directory's second batch.
        let damaged = try temporaryURL()
        try writeDirectoryStore(damaged, count: 3)
        let segment = try #require(
            try FileManager.default.contentsOfDirectory(atPath: damaged.path).filter { $0.hasSuffix(".log") }.sorted()
                .first
        )
        let path = damaged.appendingPathComponent(segment)
        var bytes = [UInt8](try Data(contentsOf: path))
        let firstSize = try #require(header(of: bytes[...])).frameSize
        bytes[firstSize + 45] ^= 0xFF
        try Data(bytes).write(to: path)
        let corrupt = try #require(throws: LogbookError.self) {
            try server.copy(directory: damaged, toStore: TestServer.uniqueStore())
        }
        #expect(corrupt.code == .corruption)
        #expect(corrupt.path?.hasSuffix(segment) == true)
    }

    @Test func theToolCopiesBothWaysAndNamesWhatIsWrong() throws {
        let socket = try TestServer.socketDirectory()
        let source = try temporaryURL()
        try writeDirectoryStore(source, count: 4)
        let store = TestServer.uniqueStore()
        let url = "postgresql:///postgres?host=\(socket)&store=\(store)"
        let up = try runTool(["copy", source.path, url])
        #expect(up.status == 0)
        #expect(
            up.stdout
                == "copied 5 batches (\(try frames(source).map(\.count).reduce(0, +)) bytes); the destination ends at sequence \(try lastSequence(source))\n"
        )
        let back = try temporaryURL()
        let down = try runTool(["copy", url, back.path])
        #expect(down.status == 0)
        #expect(try frames(back) == (try frames(source)))
        let both = try runTool(["copy", url, url])
        #expect(both.status == 64)
        #expect(both.stderr.contains("both SOURCE and DEST are PostgreSQL URLs"))
        let noStore = try runTool(["copy", source.path, "postgresql:///postgres?host=\(socket)"])
        #expect(noStore.status == 2)
        #expect(noStore.stderr.contains("names no store: add ?store=NAME"))
    }

    @Test func logbookCopyRunsLogbookPostgresBothWaysAndPassesOnItsErrors() throws {
        let socket = try TestServer.socketDirectory()
        let source = try temporaryURL()
        try writeDirectoryStore(source, count: 4)
        let expected = try summary(try directoryContainer(source))
        let store = TestServer.uniqueStore()
        let url = "postgresql:///postgres?host=\(socket)&store=\(store)"
        let up = try runTool(["copy", source.path, url], tool: "logbook")
        #expect(up.status == 0, "\(up.stderr)")
        #expect(
            up.stdout
                == "copied 5 batches (\(try frames(source).map(\.count).reduce(0, +)) bytes); the destination ends at sequence \(try lastSequence(source))\n"
        )
        #expect(up.stderr.isEmpty)
        // The server's store holds the directory's objects, and takes a save after them.
        let server = try TestServer.configuration()
        let shared = try ModelContainer(
            for: Trip.self,
            configurations: ModelConfiguration(postgres: server, store: store)
        )
        #expect(try summary(shared) == expected)
        let context = ModelContext(shared)
        context.insert(Trip(name: "Trip on the server", destination: "Oslo", startDate: Date(), endDate: Date()))
        try context.save()
        // And back down, the server's save included.
        let back = try temporaryURL()
        let down = try runTool(["copy", url, back.path], tool: "logbook")
        #expect(down.status == 0, "\(down.stderr)")
        #expect(down.stdout.hasPrefix("copied 6 batches ("))
        #expect(Array(try frames(back).prefix(5)) == (try frames(source)))
        #expect(Set(try summary(try directoryContainer(back))) == Set(expected + ["Trip on the server@Oslo"]))
        // A destination directory that holds a store: logbook-postgres's error and status.
        let again = try runTool(["copy", url, back.path], tool: "logbook")
        #expect(again.status == 2)
        #expect(again.stdout.isEmpty)
        #expect(again.stderr.contains("\(back.path) holds a store already: copy into a new or empty directory"))
        // Another directory's store under the same name on the server: refused, nothing appended.
        let other = try temporaryURL()
        try writeDirectoryStore(other, count: 2)
        let conflict = try runTool(["copy", other.path, url], tool: "logbook")
        #expect(conflict.status == 2)
        #expect(conflict.stderr.contains("holds other batches under the store name '\(store)'"))
        #expect(try server.copy(store: store, toDirectory: try temporaryURL()).batches == 6)
    }

    @Test func theLogbookToolReadsAStoreKeptInPostgreSQL() throws {
        let socket = try TestServer.socketDirectory()
        let source = try temporaryURL()
        try writeDirectoryStore(source, count: 3)
        let store = TestServer.uniqueStore()
        _ = try TestServer.configuration().copy(directory: source, toStore: store)
        let url = "postgresql:///postgres?host=\(socket)&store=\(store)"
        let info = try runTool(["info", url], tool: "logbook")
        #expect(info.status == 0)
        #expect(info.stdout.hasPrefix("store:     \(url) (read from a copy)\n"))
        // The same output as for the directory it was copied from, but for the store's name.
        let dump = try runTool(["dump", url, "--format", "json"], tool: "logbook")
        #expect(dump.status == 0)
        #expect(dump.stdout == (try runTool(["dump", source.path, "--format", "json"], tool: "logbook")).stdout)
        #expect(try runTool(["verify", url], tool: "logbook").status == 0)
        let history = try runTool(["history", url], tool: "logbook")
        #expect(history.stdout == (try runTool(["history", source.path], tool: "logbook")).stdout)
        let checkpoint = try runTool(["checkpoint", url], tool: "logbook")
        #expect(checkpoint.status == 2)
        #expect(checkpoint.stderr.contains("checkpoint works on a store in a directory only"))
        let follow = try runTool(["tail", "--follow", url], tool: "logbook")
        #expect(follow.status == 2)
        #expect(follow.stderr.contains("tail --follow works on a store in a directory only"))
        let missing = try runTool(
            ["info", "postgresql:///postgres?host=\(socket)&store=\(store)-missing"],
            tool: "logbook"
        )
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("holds no batches of the store"))
        // The copies are gone once the tool exits.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter {
            $0.hasPrefix("logbook-") && $0.count == "logbook-".count + 36
        }
        #expect(
            leftovers.allSatisfy { name in
                !FileManager.default.fileExists(atPath: NSTemporaryDirectory() + "/" + name + "/store")
            }
        )
    }

    private func lastSequence(_ url: URL) throws -> UInt64 {
        let last = try #require(try frames(url).last)
        return try #require(header(of: last[...])).lastSequence
    }

    private func runTool(
        _ arguments: [String],
        tool: String = "logbook-postgres"
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = (executable as NSString).deletingLastPathComponent
        while directory.hasSuffix(".xctest") || directory.hasSuffix("Contents") || directory.hasSuffix("MacOS") {
            directory = (directory as NSString).deletingLastPathComponent
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: directory + "/" + tool)
        process.arguments = arguments
        let (out, err) = (Pipe(), Pipe())
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self)
        )
    }
}

/// A model with a value kept beside the log when large.
@Model final class Poster {
    var title: String
    @Attribute(.externalStorage) var image: Data

    init(title: String, image: Data) {
        self.title = title
        self.image = image
    }
}

struct StoreCopyExternalValueTests {
    @Test func aStoreWithValuesInFilesBesideItsLogIsNotCopiedUp() async throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("logbook-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        let url = parent.appendingPathComponent("posters.store")
        do {
            let context = ModelContext(
                try ModelContainer(for: Poster.self, configurations: ModelConfiguration(url: url))
            )
            context.insert(Poster(title: "Small", image: Data(repeating: 1, count: 10)))
            try context.save()
            context.insert(Poster(title: "Large", image: Data(repeating: 7, count: 40_000)))
            try context.save()
        }
        let store = TestServer.uniqueStore()
        let error = try #require(throws: LogbookError.self) {
            try TestServer.configuration().copy(directory: url, toStore: store)
        }
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains("the batch at sequence 3 refers to them"))
        #expect(error.message.hasSuffix("nothing was copied"))
        #expect(try await TestServer.rows(of: store).isEmpty)
    }
}
