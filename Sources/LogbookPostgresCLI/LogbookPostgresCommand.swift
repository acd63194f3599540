import ArgumentParser

@main
struct LogbookPostgresCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logbook-postgres",
        abstract: "Move Logbook stores between a directory and PostgreSQL.",
        discussion: """
            A store in PostgreSQL is named by a URL: postgresql://USER@HOST:PORT/DATABASE?store=NAME \
            over TCP (the password in the URL or in PGPASSWORD), or \
            postgresql:///DATABASE?host=SOCKET_DIRECTORY&store=NAME through a local socket. To \
            inspect a store kept in PostgreSQL with the `logbook` tool, copy it into a directory \
            first.
            """,
        version: "0.1.0",
        subcommands: [Copy.self]
    )
}
