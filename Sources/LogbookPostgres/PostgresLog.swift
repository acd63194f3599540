import Dispatch
import Foundation
import Logbook
import Logging
import NIOCore
import PostgresNIO

/// The log of one store in PostgreSQL's tables (<doc:PostgreSQLTables>): what a container's
/// directory copies (``ExternalLog``).
///
/// It connects on first use: it creates the tables when missing, records the store, and
/// refuses a store recorded by a newer format. From then on it listens for the appends of
/// other containers on a connection of its own.
final class PostgresLog: ExternalLog {
    let store: String
    let location: String
    private let client: PostgresClient.Configuration
    private let logger: Logger
    /// How long an append whose connection failed keeps trying to learn whether it landed.
    private let inDoubtTimeout: Duration
    /// How long a container that needs to migrate the store waits for another one's migration.
    private let migrationLockTimeout: Duration
    /// The directory the container copies the log into, removed when the log closes, if this
    /// log made it.
    private let ownedDirectory: URL?
    private let state = Locked(State())

    private struct State {
        var connector: PostgresConnector?
        var wake: (@Sendable () -> Void)?
        var listener: Task<Void, Never>?
    }

    init(
        store: String,
        client: PostgresClient.Configuration,
        inDoubtTimeout: Duration,
        migrationLockTimeout: Duration,
        ownedDirectory: URL?,
        logger: Logger
    ) {
        self.store = store
        self.client = client
        self.inDoubtTimeout = inDoubtTimeout
        self.migrationLockTimeout = migrationLockTimeout
        self.ownedDirectory = ownedDirectory
        self.logger = logger
        let server =
            client.unixSocketPath.map { "unix:\($0)" } ?? "\(client.host ?? "localhost"):\(client.port ?? 5432)"
        self.location = "PostgreSQL \(server)/\(client.database ?? client.username), store '\(store)'"
    }

    // MARK: - ExternalLog

    func append(_ batches: [(frame: [UInt8], header: BatchHeader)]) throws(LogbookError) {
        guard let first = batches.first else { return }
        let connector = try connected()
        let statements = batches.map { batch in
            AppendBatch(
                store: store,
                firstSequence: Int64(batch.header.firstSequence),
                lastSequence: Int64(batch.header.lastSequence),
                frame: ByteBuffer(bytes: batch.frame)
            )
        }
        do {
            try connector.blocking(timeout: inDoubtTimeout) { [logger] client in
                try await Self.appendAll(statements, client, logger)
            }
        } catch let error as LogbookError {
            throw error
        } catch let error as PSQLError where error.code == .server {
            throw failure("appending the batch at sequence \(first.header.firstSequence) failed", error)
        } catch let error as AppendConflict {
            throw conflict(at: UInt64(error.sequence))
        } catch {
            // The connection failed: the batches may have landed or not. Ask until the server
            // answers, and append them again if they did not land.
            reset(connector)
            try resolveInDoubt(frame: first.frame, header: first.header, statements: statements, after: error)
        }
    }

    /// A batch that another writer numbered first.
    private struct AppendConflict: Error {
        let sequence: Int64
    }

    /// Appends one batch with one statement, or several in one transaction: all or none.
    ///
    /// - Throws: ``AppendConflict`` when a batch with one of the sequence numbers is there.
    private static func appendAll(
        _ statements: [AppendBatch],
        _ client: PostgresClient,
        _ logger: Logger
    ) async throws {
        if statements.count == 1 {
            let appended = try await client.execute(statements[0]).reduce(into: 0) { count, _ in count += 1 }
            if appended == 0 { throw AppendConflict(sequence: statements[0].firstSequence) }
            return
        }
        try await client.withTransaction(logger: logger) { connection in
            for statement in statements {
                let appended = try await connection.execute(statement, logger: logger)
                    .reduce(into: 0) { count, _ in count += 1 }
                if appended == 0 { throw AppendConflict(sequence: statement.firstSequence) }
            }
        }
    }

    func withMigrationLock<T>(_ body: () throws -> T) throws -> T {
        let lock = PostgresMigrationLock(
            store: store,
            location: location,
            client: client,
            timeout: migrationLockTimeout,
            logger: logger
        )
        try lock.acquire()
        defer { lock.release() }
        return try body()
    }

    func frames(after sequence: UInt64) throws(LogbookError) -> [[UInt8]] {
        try frames(after: sequence, limit: Int(Int64.max))
    }

    /// At most `limit` framed batches after `sequence`, in order: all of them for a catch-up,
    /// a page for a copy.
    func frames(after sequence: UInt64, limit: Int) throws(LogbookError) -> [[UInt8]] {
        try run("reading the batches after sequence \(sequence) failed") { [store] client in
            try await client.execute(ReadBatches(store: store, after: Int64(sequence), limit: Int64(limit)))
                .reduce(into: []) { $0.append($1) }
        }
    }

    /// The framed batch whose first event has sequence number `sequence`, if there is one.
    func frame(at sequence: UInt64) throws(LogbookError) -> [UInt8]? {
        try run("reading the batch at sequence \(sequence) failed") { [store] client in
            try await client.execute(ReadBatch(store: store, firstSequence: Int64(sequence)))
                .reduce(into: [UInt8]?.none) { found, row in found = row }
        }
    }

    /// The first sequence number of the store's last batch; `nil` for a store without batches.
    func lastBatchStart() throws(LogbookError) -> UInt64? {
        let found = try run("reading the store's last batch failed") { [store] client in
            try await client.execute(ReadLastBatchStart(store: store)).reduce(into: Int64?.none) { found, row in
                found = row
            }
        }
        return found.map { UInt64($0) }
    }

    /// Runs a read on the server, naming what failed.
    ///
    /// A read whose connector another call let go of meanwhile (``reset(_:)``, after its own
    /// connection failed: a wake-up's catch-up on another thread, say) fails with the pool shut
    /// down under it, through no fault of its own. A read changes nothing, so it runs once more,
    /// on a fresh connector.
    func run<T: Sendable>(
        _ what: String,
        _ body: @escaping @Sendable (PostgresClient) async throws -> T
    ) throws(LogbookError) -> T {
        var connector = try connected()
        var retried = false
        while true {
            do {
                return try connector.blocking(timeout: inDoubtTimeout, body)
            } catch {
                let replaced = state.withLock { $0.connector !== connector }
                if replaced && !retried {
                    retried = true
                    connector = try connected()
                    continue
                }
                if (error as? PSQLError)?.code != .server { reset(connector) }
                throw failure(what, error)
            }
        }
    }

    func storeCheckpoint(sequence: UInt64, bytes: [UInt8]) throws(LogbookError) {
        let (store, logger) = (store, logger)
        let keep = KeepCheckpoint(
            store: store,
            sequence: Int64(sequence),
            checkpoint: ByteBuffer(bytes: SharedCheckpointEncoding.encode(bytes))
        )
        try run("keeping the checkpoint at sequence \(sequence) failed") { client in
            try await client.withTransaction(logger: logger) { connection in
                _ = try await connection.execute(keep, logger: logger).reduce(into: 0) { _, _ in }
                _ = try await connection.execute(PruneCheckpoints(store: store), logger: logger).reduce(into: 0) {
                    _,
                    _ in
                }
            }
        }
    }

    func newestCheckpoint() throws(LogbookError) -> (sequence: UInt64, bytes: [UInt8])? {
        let found = try run("reading the newest checkpoint failed") { [store] client in
            try await client.execute(ReadNewestCheckpoint(store: store)).reduce(into: (Int64, [UInt8])?.none) {
                found,
                row in found = (row.sequence, row.bytes)
            }
        }
        guard let found, found.0 > 0 else { return nil }
        guard let checkpoint = SharedCheckpointEncoding.decode(found.1) else {
            throw LogbookError(
                .corruption,
                "the checkpoint at sequence \(found.0) kept in \(location) does not decompress to the length it declares",
                path: location,
                sequence: UInt64(found.0)
            )
        }
        return (UInt64(found.0), checkpoint)
    }

    func onAppendElsewhere(_ wake: @escaping @Sendable () -> Void) {
        state.withLock { state in
            state.wake = wake
            if let connector = state.connector, state.listener == nil {
                state.listener = listen(connector, wake)
            }
        }
    }

    func close() {
        let (connector, listener) = state.withLock { state in
            defer {
                state.connector = nil
                state.listener = nil
            }
            return (state.connector, state.listener)
        }
        listener?.cancel()
        connector?.shutDown()
        if let ownedDirectory { try? FileManager.default.removeItem(at: ownedDirectory) }
    }

    // MARK: - Connecting

    /// Lets go of a connector whose connection failed, so that the next call connects afresh:
    /// a pool that keeps failing to reach a server backs off for longer and longer.
    func reset(_ failed: PostgresConnector) {
        let listener = state.withLock { state -> Task<Void, Never>? in
            guard state.connector === failed else { return nil }
            state.connector = nil
            defer { state.listener = nil }
            return state.listener
        }
        listener?.cancel()
        failed.shutDown()
    }

    /// The connector, made and checked on first use: the tables exist, the store is recorded,
    /// and its format is one this release reads.
    ///
    /// - Parameter timeout: How long a new connector's check may wait for the server;
    ///   ``inDoubtTimeout`` when `nil`. Without a limit, it would wait as long as postgres-nio's
    ///   pool keeps trying to connect to a server that is down: more than a minute.
    func connected(within timeout: Duration? = nil) throws(LogbookError) -> PostgresConnector {
        try state.withLock { (state) throws(LogbookError) -> PostgresConnector in
            if let connector = state.connector { return connector }
            let connector = PostgresConnector(configuration: client, logger: logger)
            do throws(LogbookError) {
                try checkFormat(connector, timeout: timeout ?? inDoubtTimeout)
            } catch {
                connector.shutDown()
                throw error
            }
            state.connector = connector
            if let wake = state.wake { state.listener = listen(connector, wake) }
            return connector
        }
    }

    private func checkFormat(_ connector: PostgresConnector, timeout: Duration) throws(LogbookError) {
        let (store, logger) = (store, logger)
        let version: Int32?
        do {
            version = try connector.blocking(timeout: timeout) { client in
                try await client.withTransaction(logger: logger) { connection in
                    _ = try await connection.execute(TakeSetupLock(), logger: logger).reduce(into: 0) { _, _ in }
                    for statement in postgresCreateTables { _ = try await connection.query(statement, logger: logger) }
                    _ = try await connection.execute(RegisterStore(store: store), logger: logger)
                        .reduce(into: 0) { _, _ in }
                    return try await connection.execute(ReadFormatVersion(store: store), logger: logger)
                        .reduce(into: Int32?.none) { found, version in found = found ?? version }
                }
            }
        } catch {
            throw failure("setting up the store's tables failed", error)
        }
        guard let version else {
            throw LogbookError(.io, "the store was not recorded in logbook_stores", path: location)
        }
        if version > postgresFormatVersion {
            throw LogbookError(
                .unsupportedFormat,
                "the store's tables were written in format version \(version); this release reads format version \(postgresFormatVersion) and earlier",
                path: location
            )
        }
    }

    /// Listens for the appends of other containers on a connection of its own, and wakes the
    /// store for each one that names it, and whenever listening starts again after the
    /// connection was lost (appends may have been missed meanwhile).
    private func listen(_ connector: PostgresConnector, _ wake: @escaping @Sendable () -> Void) -> Task<Void, Never> {
        let (store, logger) = (store, logger)
        // The store reads the server when woken, which it must not do on this event loop.
        let wakeElsewhere: @Sendable () -> Void = { DispatchQueue.global().async(execute: wake) }
        return connector.start { client in
            while !Task.isCancelled {
                do {
                    try await client.withConnection { connection in
                        try await connection.listen(on: postgresNotificationChannel) { notifications in
                            wakeElsewhere()
                            for try await notification in notifications where notification.payload == store {
                                wakeElsewhere()
                            }
                        }
                    }
                } catch {
                    if Task.isCancelled { return }
                    logger.debug("listening for appends to store '\(store)' stopped: \(String(reflecting: error))")
                }
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
    }

    // MARK: - Failures

    private func conflict(at sequence: UInt64) -> LogbookError {
        LogbookError(
            .conflict,
            "another writer appended the batch at sequence \(sequence) first",
            path: location,
            sequence: sequence
        )
    }

    private func failure(_ what: String, _ error: any Error) -> LogbookError {
        if let error = error as? LogbookError { return error }
        // The server's own words, when it gave any: the whole error also spells out the query.
        if let error = error as? PSQLError, let message = error.serverInfo?[.message] {
            let state = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
            return LogbookError(.io, "\(what): the server said: \(message)\(state)", path: location, cause: error)
        }
        return LogbookError(.io, "\(what): \(String(reflecting: error))", path: location, cause: error as? PSQLError)
    }

    /// After an append whose connection failed: reads the first batch at its sequence number
    /// until the server answers or ``inDoubtTimeout`` passes. The same bytes: the batches
    /// landed (all of them: they land together). Other bytes: another writer's, a conflict.
    /// None: they did not land, and are appended again.
    private func resolveInDoubt(
        frame: [UInt8],
        header: BatchHeader,
        statements: [AppendBatch],
        after first: any Error
    ) throws(LogbookError) {
        let deadline = ContinuousClock.now + inDoubtTimeout
        let read = ReadBatch(store: store, firstSequence: Int64(header.firstSequence))
        var last = first
        while ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            do {
                // A new connector's check waits no longer than the deadline either.
                let connector = try connected(within: deadline - ContinuousClock.now)
                let remaining = deadline - ContinuousClock.now
                let stored = try connector.blocking(timeout: remaining) { client in
                    try await client.execute(read).reduce(into: [UInt8]?.none) { found, row in found = row }
                }
                if let stored {
                    if stored == frame { return }
                    throw conflict(at: header.firstSequence)
                }
                // Should this append time out and land later, the next read finds it.
                try connector.blocking(timeout: deadline - ContinuousClock.now) { [logger] client in
                    try await Self.appendAll(statements, client, logger)
                }
                return
            } catch let error as LogbookError where error.code == .conflict {
                throw error
            } catch let error as AppendConflict {
                throw conflict(at: UInt64(error.sequence))
            } catch {
                last = error
                if let connector = state.withLock({ $0.connector }) { reset(connector) }
            }
        }
        throw LogbookError(
            .io,
            "the connection failed while appending the batch at sequence \(header.firstSequence), and the server did not answer within \(inDoubtTimeout) to tell whether it landed; the changes stay pending, but reopen the store before saving them again: \(String(reflecting: last))",
            path: location,
            sequence: header.firstSequence,
            cause: last as? PSQLError
        )
    }
}
