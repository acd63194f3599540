import BenchmarkHarness
import Foundation
import PostgresNIO

/// Plain connections to the server, for the ceiling and for the run's own bookkeeping (its
/// database, the server's settings, counts).
enum Server {
    static let logger: Logger = {
        var logger = Logger(label: "postgres-compare")
        logger.logLevel = .critical
        return logger
    }()

    /// A connection to `database` (the role's own when `nil`) through the socket in `socket`.
    static func connect(socket: String, database: String?) async throws -> PostgresConnection {
        let configuration = PostgresConnection.Configuration(
            unixSocketPath: socket + "/.s.PGSQL.5432",
            username: "postgres",
            password: nil,
            database: database
        )
        return try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
    }

    static func connect(_ task: ChildTask) async throws -> PostgresConnection {
        guard let socket = task.socket else { throw HarnessError("the task names no server") }
        return try await connect(socket: socket, database: task.database)
    }

    /// Runs each statement in turn (no bindings), reading whatever rows it returns.
    static func execute(_ statements: [String], on connection: PostgresConnection) async throws {
        for statement in statements {
            let rows = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            for try await _ in rows {}
        }
    }

    /// Runs `body` and waits for it on this thread, which must not be an event loop's.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Outcome<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                outcome.set(.success(try await body()))
            } catch {
                outcome.set(.failure(error))
            }
            done.signal()
        }
        done.wait()
        guard let result = outcome.get() else { throw HarnessError("a call to the server ended without a result") }
        return try result.get()
    }

    /// Makes a new, empty database for the run.
    static func createDatabase(_ name: String, socket: String) throws {
        try blocking {
            let connection = try await connect(socket: socket, database: "postgres")
            defer { Task { try? await connection.close() } }
            try await execute(["DROP DATABASE IF EXISTS \(name)", "CREATE DATABASE \(name)"], on: connection)
        }
    }

    static func dropDatabase(_ name: String, socket: String) throws {
        try blocking {
            let connection = try await connect(socket: socket, database: "postgres")
            defer { Task { try? await connection.close() } }
            try await execute(["DROP DATABASE IF EXISTS \(name) WITH (FORCE)"], on: connection)
        }
    }

    /// The server's version and the settings that decide what a commit waits for.
    static func settings(socket: String) throws -> String {
        try blocking {
            let connection = try await connect(socket: socket, database: "postgres")
            defer { Task { try? await connection.close() } }
            var values: [String] = []
            for name in ["server_version", "fsync", "synchronous_commit", "wal_sync_method", "shared_buffers"] {
                let rows = try await connection.query(PostgresQuery(unsafeSQL: "SHOW \(name)"), logger: logger)
                for try await value in rows.decode(String.self) { values.append("\(name) \(value)") }
            }
            return values.joined(separator: ", ")
        }
    }

    /// An integer the query returns in its first row and column.
    static func integer(_ sql: String, socket: String, database: String) throws -> Int {
        try blocking {
            let connection = try await connect(socket: socket, database: database)
            defer { Task { try? await connection.close() } }
            let rows = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
            for try await value in rows.decode(Int64.self) { return Int(value) }
            throw HarnessError("no row from \(sql)")
        }
    }
}

/// The result of a blocking call, handed from the task that computed it.
final class Outcome<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<T, any Error>?

    func set(_ value: Result<T, any Error>) { lock.withLock { result = value } }
    func get() -> Result<T, any Error>? { lock.withLock { result } }
}

/// A private server started with `Scripts/postgres-test-server.sh` for one run, and stopped
/// (its directory removed) at the end.
struct PrivateServer {
    let directory: String
    let script: String

    /// Starts a server in a new temporary directory.
    /// - Parameter fsync: Whether the server syncs its commits to the disk (the script's
    ///   `LOGBOOK_POSTGRES_FSYNC`; its tests run with fsync off).
    static func start(script: String, fsync: Bool) throws -> PrivateServer {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("postgres-compare-\(getpid())").path
        let server = PrivateServer(directory: directory, script: script)
        try server.run("start", environment: ["LOGBOOK_POSTGRES_FSYNC": fsync ? "on" : "off"])
        return server
    }

    func stop() {
        try? run("stop")
    }

    /// Runs the script with `posix_spawn` and `waitpid`, its output on stderr. (Foundation's
    /// `Process.waitUntilExit()` does not return here once the script has left a server
    /// running in the background.)
    private func run(_ command: String, environment: [String: String] = [:]) throws {
        let arguments = ["/bin/bash", script, command, directory]
        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { _, new in new }
        let environmentStrings = variables.map { "\($0.key)=\($0.value)" }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environmentStrings.map { strdup($0) } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/bash", &actions, nil, argv, envp)
        guard spawned == 0 else { throw HarnessError("could not run \(script): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw HarnessError("waiting for \(script) failed: errno \(errno)") }
        }
        guard status == 0 else {
            throw HarnessError("\(script) \(command) \(directory) failed (wait status \(status))")
        }
    }

    /// `Scripts/postgres-test-server.sh` of this checkout, found from this source file.
    static var defaultScript: String {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // PostgresCompare
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()  // Benchmarks
            .deletingLastPathComponent()  // the project
            .appendingPathComponent("Scripts/postgres-test-server.sh").path
    }
}
