import Foundation
import InMemoryLogging
import Logbook
import Logging
import NIOCore
import PostgresNIO
import SampleTrips
import Testing

@testable import LogbookPostgres

/// The bytes of a row of `logbook_checkpoints`: a checkpoint compressed with LZ4, and the
/// uncompressed checkpoints that earlier releases kept, which are still used.
struct SharedCheckpointRowTests {
    private func writeCheckpoint(_ store: String) throws {
        let writer = try host(store)
        let context = ModelContext(writer)
        for index in 0..<200 {
            context.insert(
                Trip(name: "Trip \(index)", destination: "City \(index % 7)", startDate: Date(), endDate: Date())
            )
        }
        try context.save()
        try writer.checkpoint()
    }

    private func row(_ store: String) async throws -> [UInt8] {
        try await TestServer.withClient { client in
            var rows: [[UInt8]] = []
            let query = try await client.query("SELECT checkpoint FROM logbook_checkpoints WHERE store = \(store)")
            for try await bytes in query.decode(ByteBuffer.self) { rows.append(Array(bytes.readableBytesView)) }
            return try #require(rows.count == 1 ? rows.first : nil)
        }
    }

    private func replaceRow(_ store: String, with bytes: [UInt8]) async throws {
        try await TestServer.withClient { client in
            try await client.query(
                "UPDATE logbook_checkpoints SET checkpoint = \(ByteBuffer(bytes: bytes)) WHERE store = \(store)"
            ).reduce(into: 0) { _, _ in }
        }
    }

    /// A new host's container and what it logged while opening.
    private func newHost(_ store: String) throws -> (names: Set<String>, messages: [String]) {
        let handler = InMemoryLogHandler()
        var configuration = ModelConfiguration(
            postgres: try TestServer.configuration(),
            store: store,
            logger: Logger(label: "test", factory: { _ in handler })
        )
        configuration.logger.logLevel = .debug
        let container = try ModelContainer(for: Trip.self, configurations: configuration)
        let names = Set(try ModelContext(container).fetch(FetchDescriptor<Trip>()).map(\.name))
        return (names, handler.entries.map(\.message.description))
    }

    @Test func aCheckpointIsKeptCompressedAndANewHostStartsFromIt() async throws {
        let store = TestServer.uniqueStore()
        try writeCheckpoint(store)
        let stored = try await row(store)
        #expect(Array(stored.prefix(8)) == Array("LBCZLZ4".utf8) + [1])
        let checkpoint = try #require(SharedCheckpointEncoding.decode(stored))
        let declared = stored.withUnsafeBytes {
            UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        }
        #expect(UInt64(checkpoint.count) == declared)
        #expect(stored.count < checkpoint.count / 2)
        let opened = try newHost(store)
        #expect(opened.names == Set((0..<200).map { "Trip \($0)" }))
        #expect(opened.messages.contains { $0.hasPrefix("opened from checkpoint ") })
    }

    @Test func anUncompressedCheckpointAnEarlierReleaseKeptIsStillUsed() async throws {
        let store = TestServer.uniqueStore()
        try writeCheckpoint(store)
        let checkpoint = try #require(SharedCheckpointEncoding.decode(try await row(store)))
        try await replaceRow(store, with: checkpoint)
        #expect(try await row(store) == checkpoint)
        let opened = try newHost(store)
        #expect(opened.names.count == 200)
        #expect(opened.messages.contains { $0.hasPrefix("opened from checkpoint ") })
    }

    @Test func aCompressedRowThatDoesNotDecompressIsIgnoredWithAWarningAndTheHostReplays() async throws {
        let store = TestServer.uniqueStore()
        try writeCheckpoint(store)
        var stored = try await row(store)
        // The declared length one byte longer than what the block holds.
        stored[8] &+= 1
        try await replaceRow(store, with: stored)
        let opened = try newHost(store)
        #expect(opened.names.count == 200)
        #expect(!opened.messages.contains { $0.hasPrefix("opened from checkpoint ") })
        #expect(
            opened.messages.contains {
                $0.hasPrefix("could not use the checkpoint kept in ")
                    && $0.contains("does not decompress to the length it declares")
            }
        )
    }
}
