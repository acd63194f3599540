import ArgumentParser
import Foundation
import Logbook
import LogbookPostgres

/// `logbook-postgres copy SOURCE DEST`: a store from a directory into PostgreSQL, or back.
struct Copy: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy a store between a directory and PostgreSQL, batch for batch.",
        discussion: """
            One of SOURCE and DEST is a directory, the other a PostgreSQL URL. The batches keep \
            their bytes, sequence numbers and checksums. Into PostgreSQL, the store name must be \
            new, or hold what an earlier copy of the same directory appended (the copy then goes \
            on where it stopped); stop the store's writer first. Into a directory, the directory \
            must be new or empty.

            Exit status: 0 copied; 1 the source is damaged; 2 the copy could not run (no store, \
            the destination holds another store, the server could not be reached); 64 bad \
            arguments.
            """
    )

    @Argument(help: "The store to copy: a directory, or a PostgreSQL URL.")
    var source: String

    @Argument(help: "Where to copy it: a PostgreSQL URL, or a new directory.")
    var destination: String

    func validate() throws {
        let (from, to) = (PostgresStoreURL.isPostgresURL(source), PostgresStoreURL.isPostgresURL(destination))
        if from == to {
            throw ValidationError(
                from
                    ? "both SOURCE and DEST are PostgreSQL URLs: copy through a directory"
                    : "neither SOURCE nor DEST is a PostgreSQL URL (postgresql://...): use cp for two directories"
            )
        }
    }

    func run() throws {
        do {
            let report: StoreCopyReport
            if PostgresStoreURL.isPostgresURL(source) {
                let location = try PostgresStoreURL(source)
                report = try location.server.copy(store: location.store, toDirectory: URL(fileURLWithPath: destination))
            } else {
                let location = try PostgresStoreURL(destination)
                report = try location.server.copy(directory: URL(fileURLWithPath: source), toStore: location.store)
            }
            var line = "copied \(report.batches) batches (\(report.bytes) bytes)"
            if report.resumedAfter > 0 {
                line += " after sequence \(report.resumedAfter), where an earlier copy stopped"
            }
            line += "; the destination ends at sequence \(report.lastSequence)"
            print(line)
        } catch let error as LogbookError {
            FileHandle.standardError.write(Data("logbook-postgres: \(error)\n".utf8))
            throw ExitCode(error.code == .corruption ? 1 : 2)
        }
    }
}
