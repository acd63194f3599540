import Foundation
import Logbook
import PostgresNIO

/// A store kept in PostgreSQL, named by a URL: the server, and the store's name on it.
///
/// The URL follows PostgreSQL's connection URIs, with the store's name in the `store` query
/// parameter:
///
/// - `postgresql://trips@db.internal:5432/trips?store=trips`: a server reached over TCP, as
///   the role `trips` (a password in the URL, or in the `PGPASSWORD` environment variable),
///   in the database `trips`, without TLS.
/// - `postgresql:///trips?host=/var/run/postgresql&store=trips`: a server on this machine,
///   reached through the socket in `/var/run/postgresql`, as the role `postgres` unless the
///   URL names another.
///
/// The scheme may be `postgres` too. Only `sslmode=disable` (the default here) is understood:
/// a connection that needs TLS is made with ``PostgresStoreConfiguration/init(client:)``.
public struct PostgresStoreURL: Sendable {
    /// How to reach the server.
    public var server: PostgresStoreConfiguration
    /// The store's name on the server.
    public var store: String

    /// Reads a store's URL.
    ///
    /// - Parameters:
    ///   - string: The URL.
    ///   - environment: Where `PGPASSWORD` is looked up when the URL holds no password.
    /// - Throws: `LogbookError.Code.invalidArgument` naming what is wrong
    ///   with the URL.
    public init(
        _ string: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(LogbookError) {
        guard let components = URLComponents(string: string),
            let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme.lowercased())
        else {
            throw LogbookError(
                .invalidArgument,
                "'\(string)' is not a PostgreSQL URL: write postgresql://USER@HOST:PORT/DATABASE?store=NAME, or postgresql:///DATABASE?host=SOCKET_DIRECTORY&store=NAME"
            )
        }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }
        guard let store = query["store"], !store.isEmpty else {
            throw LogbookError(.invalidArgument, "'\(string)' names no store: add ?store=NAME to the URL")
        }
        if let mode = query["sslmode"], mode != "disable" {
            throw LogbookError(
                .invalidArgument,
                "sslmode=\(mode) in '\(string)' is not understood here: only sslmode=disable is; make a PostgresStoreConfiguration with postgres-nio's TLS configuration instead"
            )
        }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let database = path.isEmpty ? nil : path
        let username = components.user ?? "postgres"
        let password = components.password ?? environment["PGPASSWORD"]
        let socketDirectory = query["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        if let socketDirectory {
            var client = PostgresClient.Configuration(
                unixSocketPath: socketDirectory + "/.s.PGSQL.\(components.port ?? 5432)",
                username: username,
                password: password,
                database: database
            )
            client.options.connectTimeout = .seconds(10)
            self.server = PostgresStoreConfiguration(client: client)
        } else {
            guard let host = components.host ?? query["host"], !host.isEmpty else {
                throw LogbookError(
                    .invalidArgument,
                    "'\(string)' names no server: give a host (postgresql://HOST/...) or a socket directory (?host=/path)"
                )
            }
            self.server = PostgresStoreConfiguration(
                client: PostgresClient.Configuration(
                    host: host,
                    port: components.port ?? 5432,
                    username: username,
                    password: password,
                    database: database,
                    tls: .disable
                )
            )
        }
        self.store = store
    }

    /// Whether a string is written as a PostgreSQL URL, rather than a directory's path.
    public static func isPostgresURL(_ string: String) -> Bool {
        let lowered = string.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }
}
