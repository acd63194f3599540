import Foundation
import Logbook
import LogbookPostgres
import SampleTrips
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A private server of its own, stopped and restarted while a container saves: every save
/// either lands whole, once, or throws and leaves its changes pending.
struct ServerRestartTests {
    /// A server started with `Scripts/postgres-test-server.sh` in a temporary directory.
    final class PrivateServer: Sendable {
        let directory: String

        init() throws {
            _ = try TestServer.socketDirectory()
            directory =
                FileManager.default.temporaryDirectory.appendingPathComponent(
                    "logbook-pg-\(UUID().uuidString.prefix(8))"
                ).path
            try Self.script("start", directory)
        }

        deinit {
            try? Self.script("stop", directory)
        }

        var configuration: PostgresStoreConfiguration { PostgresStoreConfiguration(socketDirectory: directory) }

        func restart() throws { try Self.script("restart", directory) }

        /// Runs `Scripts/postgres-test-server.sh` with `arguments` and waits for it.
        static func script(_ arguments: String...) throws {
            let script = URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Scripts/postgres-test-server.sh").path
            let argv = ([script] + arguments).map { strdup($0) } + [nil]
            defer { for argument in argv { free(argument) } }
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, script, nil, nil, argv, environ)
            try #require(spawned == 0, "could not start \(script): error \(spawned)")
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            try #require(
                status == 0,
                "postgres-test-server.sh \(arguments.joined(separator: " ")) failed with status \(status)"
            )
        }
    }

    @Test(.timeLimit(.minutes(2))) func savesDuringARestartLandWholeOnceOrStayPending() async throws {
        let server = try PrivateServer()
        let store = TestServer.uniqueStore()
        let container = try host(store, server.configuration)
        let saves = 40
        let outcome: (saved: [String], pending: [String]) = try await withCheckedThrowingContinuation { done in
            Thread.detachNewThread {
                let context = ModelContext(container)
                var saved: [String] = []
                var pending: [String] = []
                for number in 0..<saves {
                    let name = "trip-\(number)"
                    context.insert(Trip(name: name, destination: "", startDate: Date(), endDate: Date()))
                    do {
                        try context.save()
                        saved.append(name)
                    } catch {
                        // A failed save keeps its changes: drop them, and remember them.
                        if !context.hasChanges { return done.resume(throwing: error) }
                        pending.append(name)
                        context.rollback()
                    }
                    if number == 10 {
                        Thread.detachNewThread { try? server.restart() }
                    }
                    Thread.sleep(forTimeInterval: 0.02)
                }
                done.resume(returning: (saved, pending))
            }
        }
        #expect(outcome.saved.count + outcome.pending.count == saves)
        // What another host reads: exactly the saves that returned, each once.
        let reader = ModelContext(try host(store, server.configuration))
        let stored = try reader.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name)
        #expect(stored == outcome.saved.sorted())
        #expect(outcome.saved.count > 10)
        // The writer's own objects, after the restart: the same.
        let writer = ModelContext(container)
        #expect(try writer.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name) == stored)
    }

    @Test(.timeLimit(.minutes(2))) func aSaveWhileTheServerIsDownThrowsStaysPendingAndLandsOnceLater() throws {
        let server = try PrivateServer()
        let store = TestServer.uniqueStore()
        var configuration = server.configuration
        configuration.inDoubtTimeout = .seconds(1)
        let context = ModelContext(try host(store, configuration))
        context.insert(Trip(name: "Before", destination: "", startDate: Date(), endDate: Date()))
        try context.save()
        try PrivateServer.script("pause", server.directory)
        context.insert(Trip(name: "While down", destination: "", startDate: Date(), endDate: Date()))
        let clock = ContinuousClock()
        let started = clock.now
        let error = try #require(throws: LogbookError.self) { try context.save() }
        // It gives up after the in-doubt timeout, connecting again included, not after the
        // pool's own attempts to connect (about 15 seconds).
        #expect(clock.now - started < .seconds(8))
        #expect(error.code == .io)
        #expect(error.path?.contains(store) == true)
        #expect(context.hasChanges)
        try PrivateServer.script("resume", server.directory)
        try context.save()
        #expect(!context.hasChanges)
        let reader = ModelContext(try host(store, server.configuration))
        #expect(
            try reader.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name) == [
                "Before", "While down",
            ]
        )
    }
}
