import Foundation
import InMemoryLogging
import Logbook
import LogbookPostgres
import Logging
import SampleTrips
import Testing

/// Checkpoints kept on the server: a host that writes one shares it, and a new host with an
/// empty directory starts from it instead of replaying every row.
struct SharedCheckpointTests {
    private func save(_ count: Int, in container: ModelContainer, from first: Int = 0) throws {
        let context = ModelContext(container)
        for index in first..<(first + count) {
            context.insert(
                Trip(name: "Trip \(index)", destination: "City \(index % 7)", startDate: Date(), endDate: Date())
            )
            try context.save()
        }
    }

    private func names(_ container: ModelContainer) throws -> Set<String> {
        Set(try ModelContext(container).fetch(FetchDescriptor<Trip>()).map(\.name))
    }

    private func checkpointRows(_ store: String) async throws -> [Int64] {
        try await TestServer.withClient { client in
            try await client.query(
                "SELECT sequence FROM logbook_checkpoints WHERE store = \(store) ORDER BY sequence"
            ).decode(Int64.self).reduce(into: []) { $0.append($1) }
        }
    }

    @Test func aNewHostStartsFromTheCheckpointAnotherHostKeptAndReplaysOnlyWhatFollows() async throws {
        let store = TestServer.uniqueStore()
        let writer = try host(store)
        try save(40, in: writer)
        try writer.checkpoint()
        try save(5, in: writer, from: 40)
        try writer.checkpoint()
        try save(5, in: writer, from: 45)
        try writer.checkpoint()
        // The two newest are kept.
        let kept = try await checkpointRows(store)
        #expect(kept.count == 2)
        // A new host, whose directory cuts the log into segments of other sizes than the
        // writer's: the checkpoint is placed in its copy, checked, and loaded.
        try save(3, in: writer, from: 50)
        let handler = InMemoryLogHandler()
        var configuration = ModelConfiguration(
            postgres: try TestServer.configuration(),
            store: store,
            logger: Logger(label: "test", factory: { _ in handler })
        )
        configuration.segmentSize = 4096
        configuration.logger.logLevel = .debug
        let newHost = try ModelContainer(for: Trip.self, configurations: configuration)
        #expect(try names(newHost) == Set((0..<53).map { "Trip \($0)" }))
        let messages = handler.entries.map(\.message.description)
        #expect(messages.contains { $0.hasPrefix("opened from checkpoint ") && $0.hasSuffix("\(kept[1]).checkpoint") })
        #expect(!messages.contains { $0.contains("ignored") })
        // It saves on after it, and another host sees those saves.
        try save(1, in: newHost, from: 53)
        #expect(try names(try host(store)).count == 54)
    }

    @Test func aDamagedCheckpointOnTheServerIsIgnoredWithAWarningAndTheHostReplays() async throws {
        let store = TestServer.uniqueStore()
        let writer = try host(store)
        try save(10, in: writer)
        try writer.checkpoint()
        // A byte of its last section flipped on the server.
        try await TestServer.withClient { client in
            try await client.query(
                "UPDATE logbook_checkpoints SET checkpoint = overlay(checkpoint placing '\\xff'::bytea from length(checkpoint) - 3) WHERE store = \(store)"
            ).reduce(into: 0) { _, _ in }
        }
        let handler = InMemoryLogHandler()
        let configuration = ModelConfiguration(
            postgres: try TestServer.configuration(),
            store: store,
            logger: Logger(label: "test", factory: { _ in handler })
        )
        let newHost = try ModelContainer(for: Trip.self, configurations: configuration)
        #expect(try names(newHost).count == 10)
        let warnings = handler.entries.filter { $0.level == .warning }.map(\.message.description)
        #expect(warnings.contains { $0.hasPrefix("ignored checkpoint ") && $0.contains("replaying the log instead") })
    }
}
