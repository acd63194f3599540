import Foundation
import Logbook
import Logging
import PostgresNIO

/// Where a store kept in PostgreSQL lives: the server, and how to connect to it.
///
/// Give it to ``Logbook/ModelConfiguration/init(_:schema:postgres:store:cacheDirectory:allowsSave:logger:)``:
///
/// ```swift
/// let server = PostgresStoreConfiguration(
///     client: PostgresClient.Configuration(
///         host: "db.internal", username: "trips", password: secret, database: "trips", tls: .disable
///     )
/// )
/// let container = try ModelContainer(
///     for: Trip.self,
///     configurations: ModelConfiguration(postgres: server, store: "trips")
/// )
/// ```
///
/// See <doc:PostgreSQL> for what changes when a store outgrows one machine.
public struct PostgresStoreConfiguration: Sendable {
    /// How postgres-nio connects: server, credentials, database, TLS, pool size.
    public var client: PostgresClient.Configuration
    /// How long a save whose connection failed mid-append keeps asking the server whether its
    /// batch landed, before it throws with its changes pending; and how long any read, append or
    /// new connection waits for the server to answer before it throws. 15 seconds by default.
    public var inDoubtTimeout: Duration = .seconds(15)
    /// How long a container whose models need the store migrated waits while another
    /// container, on any host, migrates it, before it throws `LogbookError.Code.storeLocked`
    /// naming the versions. 60 seconds by default.
    public var migrationLockTimeout: Duration = .seconds(60)

    /// A server reached with postgres-nio's configuration.
    ///
    /// - Parameter client: The server, credentials, database and options.
    public init(client: PostgresClient.Configuration) {
        self.client = client
    }

    /// A server on this machine, reached through its Unix socket.
    ///
    /// - Parameters:
    ///   - socketDirectory: The directory of the server's socket (its
    ///     `unix_socket_directories`, such as `/var/run/postgresql`); the socket is
    ///     `.s.PGSQL.5432` in it.
    ///   - username: The role to connect as, with trust or peer authentication.
    ///   - database: The database; the role's name when `nil`.
    public init(socketDirectory: String, username: String = "postgres", database: String? = nil) {
        self.client = PostgresClient.Configuration(
            unixSocketPath: socketDirectory + "/.s.PGSQL.5432",
            username: username,
            password: nil,
            database: database
        )
    }
}

extension ModelConfiguration {
    /// A store kept in PostgreSQL, shared by every container that names the same server and
    /// store, in any process on any host.
    ///
    /// Models, contexts, migrations, history and the change feed work as with a store in a
    /// directory. Each save is one row; a save that another container numbered first catches
    /// up and is built again, or throws `LogbookError.Code.conflict` with its changes
    /// pending when it edits an object another container deleted. Each fetch first reads the
    /// rows other containers appended, and a notification from the server brings them to idle
    /// containers and change feeds.
    ///
    /// The container keeps a copy of the store's rows in `cacheDirectory`, which it replays on
    /// open and reads history from. Saves and fetches block their thread on the network: make
    /// them off SwiftNIO's event loop threads (a precondition checks).
    ///
    /// ```swift
    /// let configuration = ModelConfiguration(
    ///     postgres: PostgresStoreConfiguration(socketDirectory: "/var/run/postgresql"),
    ///     store: "trips"
    /// )
    /// let container = try ModelContainer(for: Trip.self, configurations: configuration)
    /// ```
    ///
    /// - Parameters:
    ///   - name: The configuration's name; `"default"` when `nil`.
    ///   - schema: A schema to record with the configuration.
    ///   - postgres: The server.
    ///   - store: The store's name in the server's tables: containers that name the same store
    ///     share it.
    ///   - cacheDirectory: Where this container keeps its copy of the rows; a new temporary
    ///     directory, removed when the container closes, when `nil`. Two containers of one
    ///     process that give the same directory share one copy, as they would share a store in
    ///     a directory.
    ///   - allowsSave: Whether contexts may save. A container that may not still reads the
    ///     rows other containers append, into its own copy; its saves throw
    ///     `LogbookError.Code.saveNotAllowed`. Such a store cannot be opened as of a history
    ///     token yet (`ModelConfiguration.asOf` throws
    ///     `LogbookError.Code.invalidArgument`): copy it to a directory for that.
    ///   - logger: Where to report failed reads of the server and repairs of the copy.
    public init(
        _ name: String? = nil,
        schema: Schema? = nil,
        postgres: PostgresStoreConfiguration,
        store: String,
        cacheDirectory: URL? = nil,
        allowsSave: Bool = true,
        logger: Logger = Logger(label: "Logbook", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        let owned =
            cacheDirectory == nil
            ? FileManager.default.temporaryDirectory.appendingPathComponent("logbook-postgres-\(UUID().uuidString)")
            : nil
        // The copy is made durable by the server: its own flushes would only slow saves down.
        self.init(
            name,
            schema: schema,
            url: cacheDirectory ?? owned ?? FileManager.default.temporaryDirectory,
            allowsSave: allowsSave,
            durability: .relaxed,
            logger: logger
        )
        self.externalLog = PostgresLog(
            store: store,
            client: postgres.client,
            inDoubtTimeout: postgres.inDoubtTimeout,
            migrationLockTimeout: postgres.migrationLockTimeout,
            ownedDirectory: owned,
            logger: logger
        )
    }
}
