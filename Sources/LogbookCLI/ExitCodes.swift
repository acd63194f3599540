import ArgumentParser
import Foundation
import Logbook

/// The exit statuses every command that reads a store shares: `verify`, `info`, `dump`,
/// `replay`, `tail` and `salvage`.
enum ToolExit {
    /// The store is whole: every batch checks out (for `salvage`, everything was kept).
    static let sound: Int32 = 0
    /// The store is damaged: a batch fails its checks, sequence numbers have a gap, a file named
    /// like a segment is not one, or the log ends before the point the store recorded as
    /// durable (for `salvage`, something was dropped).
    static let damaged: Int32 = 1
    /// The command could not do its work: the store is missing or unreadable, or an argument
    /// names what the store does not have.
    static let error: Int32 = 2
    /// Every batch checks out but an incomplete one ends the log: a write torn by a crash, which
    /// the next open moves into quarantine, or one still being written.
    static let tornTail: Int32 = 3

    /// The text each command's help ends with.
    static let help = """
        Exit status: 0 the store is sound; 1 the store is damaged; 2 the command \
        could not run (no store, unreadable, unknown entity); 3 every batch is sound \
        but an incomplete batch (a torn write) ends the log; 64 bad arguments.
        """

    /// The status for an error a command throws.
    static func status(for error: any Error) -> Int32 {
        switch error {
        case let error as CLIError: return error.status
        case let error as LogbookError where error.code == .corruption || error.code == .unsupportedFormat:
            return damaged
        default: return self.error
        }
    }
}

/// Runs a command's work, reporting an error it throws as one line on stderr and exiting with
/// the shared status for it.
func reportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let exit as ExitCode {
        throw exit
    } catch let error as CleanExit {
        throw error
    } catch {
        FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
        throw ExitCode(ToolExit.status(for: error))
    }
}

/// How the log ends, for the reading commands: whole, torn, or damaged at the end.
func checkEndOfLog(_ store: String) throws {
    guard let end = try LogReader(directory: store).endOfLog() else { return }
    switch end.kind {
    case .torn:
        FileHandle.standardError.write(
            Data(
                "note: incomplete batch at the end of the log (a torn write, or one still being written): \(end.damage) (\(end.damage.byteCount) bytes)\n"
                    .utf8
            )
        )
        throw ExitCode(ToolExit.tornTail)
    case .damaged:
        throw CLIError(
            "damaged batch at the end of the log: \(end.damage); run `logbook salvage` to copy the sound batches",
            status: ToolExit.damaged
        )
    }
}
