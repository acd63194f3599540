import ArgumentParser
import Foundation
import Logbook

/// The store argument every subcommand takes.
struct StoreOptions: ParsableArguments {
    @Argument(help: "The store directory, or a postgresql:// URL.")
    var store: String

    /// Copies a store kept in PostgreSQL into a temporary directory, which ``store`` then
    /// names, so that every command reads it as a directory; removed when the tool exits.
    /// A failed copy prints its reason and exits with ``ToolExit/error``.
    mutating func validate() throws {
        guard ServerStores.isServerURL(store) else { return }
        do {
            store = try ServerStores.localCopy(of: store)
        } catch let error as CLIError {
            FileHandle.standardError.write(Data("logbook: \(error.description)\n".utf8))
            throw ExitCode(error.status)
        }
    }

    /// Fails with a one-line message when `store` is missing or is not a store.
    func checkStore() throws {
        try Self.checkStore(at: store)
    }

    /// Refuses a store kept in PostgreSQL (read here from a copy), for what works only on a
    /// directory.
    func refuseServerStore(_ what: String) throws {
        guard let url = ServerStores.url(ofCopy: store) else { return }
        throw CLIError("\(what) works on a store in a directory only: copy \(url) into one with logbook-postgres copy")
    }

    /// Fails with a one-line message when `path` is missing or is not a store.
    static func checkStore(at path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CLIError("no store at \(path): the directory does not exist")
        }
        guard isDirectory.boolValue else {
            throw CLIError("\(path) is a file, not a store directory")
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        guard names.contains("LOCK") || names.contains(where: { $0.hasSuffix(".log") }) else {
            throw CLIError("\(path) is not a Logbook store: it has no LOCK file and no segment files")
        }
    }
}

/// An error the tool reports as one line on stderr, exiting with `status` (by default
/// ``ToolExit/error``).
struct CLIError: Error, CustomStringConvertible {
    var description: String
    var status: Int32
    init(_ description: String, status: Int32 = ToolExit.error) {
        self.description = description
        self.status = status
    }
}

/// "1 batch", "2 batches", "0 events".
func counted(_ count: Int, _ noun: String) -> String {
    if count == 1 { return "1 \(noun)" }
    return "\(count) \(noun)" + (noun.hasSuffix("ch") ? "es" : "s")
}

/// Formats a byte count for people.
func formatBytes(_ bytes: Int64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"]
    var value = Double(bytes)
    var unit = 0
    while value >= 1024 && unit < units.count - 1 {
        value /= 1024
        unit += 1
    }
    return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
}
