import Dispatch
import Logbook
import Logging
import PostgresNIO

/// The migration lock of one store: a session-level advisory lock that a connection of its
/// own takes and holds while the container migrates (see ``PostgresLog/withMigrationLock(_:)``).
///
/// The lock's keys are a constant and the hash of the store's name, in PostgreSQL's space of
/// two-integer advisory locks, apart from the one-integer lock that serializes the tables'
/// set-up. The server gives the lock up with its connection: a container that dies while
/// migrating lets the next one in.
final class PostgresMigrationLock: Sendable {
    /// "LOGB" in ASCII: the first key of every store's migration lock.
    static let classKey: Int32 = 0x4C4F_4742

    private let store: String
    private let location: String
    private let timeout: Duration
    private let connector: PostgresConnector
    private let release_: AsyncStream<Void>.Continuation
    private let releases: AsyncStream<Void>
    /// Signalled once the lock is held or could not be had, and again once it is let go.
    private let signals = DispatchSemaphore(value: 0)
    private let outcome = Locked<Result<Void, any Error>?>(nil)
    private let logger: Logger

    init(store: String, location: String, client: PostgresClient.Configuration, timeout: Duration, logger: Logger) {
        self.store = store
        self.location = location
        self.timeout = timeout
        self.logger = logger
        self.connector = PostgresConnector(configuration: client, logger: logger)
        (releases, release_) = AsyncStream<Void>.makeStream()
    }

    /// Waits for the lock, for at most the configured time.
    ///
    /// - Throws: `LogbookError.Code.storeLocked` when another container
    ///   held it all that time; `LogbookError.Code.io` when the server
    ///   could not be asked.
    func acquire() throws(LogbookError) {
        let (store, timeout, releases, signals, outcome, logger) = (store, timeout, releases, signals, outcome, logger)
        let milliseconds = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        _ = connector.start { client in
            do {
                try await client.withConnection { connection in
                    // The server ends the wait: a lock it grants later is never left behind.
                    let setting = "\(max(1, milliseconds))ms"
                    let setTimeout: PostgresQuery = "SELECT set_config('lock_timeout', \(setting), false)"
                    for try await _ in try await connection.query(setTimeout, logger: logger) {}
                    for try await _ in try await connection.query(
                        "SELECT pg_advisory_lock(\(Self.classKey), hashtext(\(store)))::text",
                        logger: logger
                    ) {}
                    outcome.withLock { $0 = .success(()) }
                    signals.signal()
                    for await _ in releases {}
                    for try await _ in try await connection.query(
                        "SELECT pg_advisory_unlock(\(Self.classKey), hashtext(\(store)))::text",
                        logger: logger
                    ) {}
                }
            } catch {
                let failedToLock = outcome.withLock { found in
                    guard found == nil else { return false }
                    found = .failure(error)
                    return true
                }
                if failedToLock { signals.signal() }
            }
            signals.signal()
        }
        // The server's own timeout ends the wait first; this one covers a server that does not
        // answer at all.
        let (seconds, _) = (timeout + .seconds(30)).components
        if signals.wait(timeout: .now() + .seconds(Int(seconds))) == .timedOut {
            connector.shutDown()
            throw LogbookError(
                .io,
                "the server did not answer within \(timeout + .seconds(30)) when asked for the migration lock",
                path: location
            )
        }
        guard case .failure(let error) = outcome.withLock({ $0 }) else { return }
        connector.shutDown()
        if let error = error as? PSQLError, error.serverInfo?[.sqlState] == "55P03" {
            throw LogbookError(
                .storeLocked,
                "another container has held the migration lock of \(location) for more than \(timeout): it may still be migrating; open the store again later, or allow a longer PostgresStoreConfiguration.migrationLockTimeout",
                path: location
            )
        }
        throw LogbookError(
            .io,
            "asking for the migration lock failed: \(String(reflecting: error))",
            path: location,
            cause: error as? PSQLError
        )
    }

    /// Lets the lock go, waiting a little for the server to confirm, then closes the lock's
    /// connection (which lets the lock go in any case).
    func release() {
        release_.finish()
        _ = signals.wait(timeout: .now() + .seconds(5))
        connector.shutDown()
    }
}
