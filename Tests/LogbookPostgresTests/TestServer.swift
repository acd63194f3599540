import Foundation
import Logbook
import LogbookPostgres
import Logging
import PostgresNIO
import SampleTrips
import Testing

/// The PostgreSQL server the tests use: the one `Scripts/test` starts, found through
/// `LOGBOOK_POSTGRES_SOCKET`. Each test names stores of its own, so tests share the server.
enum TestServer {
    static let socketVariable = "LOGBOOK_POSTGRES_SOCKET"

    /// The directory of the server's socket.
    static func socketDirectory() throws -> String {
        try #require(
            ProcessInfo.processInfo.environment[socketVariable],
            """
            \(socketVariable) is not set, so the PostgreSQL tests have no server: run the tests with \
            `Scripts/test` (it starts one), or start one with `Scripts/postgres-test-server.sh start DIR` \
            and run `\(socketVariable)=DIR swift test`
            """
        )
    }

    /// The server, as a store configuration.
    static func configuration() throws -> PostgresStoreConfiguration {
        PostgresStoreConfiguration(socketDirectory: try socketDirectory())
    }

    /// A store name no other test uses.
    static func uniqueStore(_ label: String = #function) -> String {
        "\(label.prefix(while: { $0 != "(" }))-\(UUID().uuidString)"
    }

    /// Runs SQL against the server directly, with a client of its own, as another program
    /// would: to look at the rows and to change them behind the containers' back.
    @discardableResult
    static func withClient<T: Sendable>(
        socketDirectory: String? = nil,
        _ body: @Sendable (PostgresClient) async throws -> T
    ) async throws -> T {
        let directory = try socketDirectory ?? Self.socketDirectory()
        let client = PostgresClient(
            configuration: PostgresClient.Configuration(
                unixSocketPath: directory + "/.s.PGSQL.5432",
                username: "postgres",
                password: nil,
                database: nil
            )
        )
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await body(client)
        }
    }

    /// The rows of a store: first and last sequence number and the frame, in order.
    static func rows(of store: String) async throws -> [(first: Int64, last: Int64, frame: [UInt8])] {
        try await withClient { client in
            var rows: [(first: Int64, last: Int64, frame: [UInt8])] = []
            let sequence = try await client.query(
                "SELECT first_sequence, last_sequence, frame FROM logbook_batches WHERE store = \(store) ORDER BY first_sequence"
            )
            for try await (first, last, frame) in sequence.decode((Int64, Int64, ByteBuffer).self) {
                rows.append((first, last, Array(frame.readableBytesView)))
            }
            return rows
        }
    }
}

/// A "host": a container of its own, with its own copy of the store, as on another machine.
func host(
    _ store: String,
    _ configuration: PostgresStoreConfiguration? = nil,
    cacheDirectory: URL? = nil
) throws -> ModelContainer {
    let server = try configuration ?? TestServer.configuration()
    return try ModelContainer(
        for: Trip.self,
        configurations: ModelConfiguration(postgres: server, store: store, cacheDirectory: cacheDirectory)
    )
}

/// Runs blocking work (a save, an open) on a thread of its own, as another host would, off the
/// threads that Swift's tasks share, which the server's own client needs.
func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (done: CheckedContinuation<T, any Error>) in
        Thread.detachNewThread { done.resume(with: Result { try work() }) }
    }
}
