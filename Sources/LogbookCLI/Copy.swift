import ArgumentParser
import Foundation
import Logbook

extension LogbookCommand {
    /// `logbook copy SOURCE DEST`: a store between a directory and PostgreSQL (through
    /// `logbook-postgres copy`), or between two directories.
    struct Copy: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy a store between a directory and PostgreSQL, or into a new directory.",
            discussion: """
                When SOURCE or DEST is a PostgreSQL URL (postgresql://...), runs `logbook-postgres \
                copy SOURCE DEST` (beside logbook, or on the PATH), which copies the store batch \
                for batch, and passes on its output and exit status: the logbook tool links no \
                database driver. Into PostgreSQL the store name must be new, or hold what an \
                earlier copy of the same directory appended; into a directory, the directory must \
                be new or empty.

                Between two directories, copies every batch of SOURCE, with its events and sequence \
                numbers (and the value files its batches refer to), into DEST, which must not exist or be empty; the copy \
                is written in a temporary directory beside DEST and renamed into place. SOURCE is \
                only read and may be open in a writer. A store whose history was deleted is \
                copied from its base, numbered from 1, so its history tokens differ in the copy. \
                A damaged SOURCE is not copied: `logbook salvage` copies its sound part. An incomplete batch at the end (a torn write, or \
                one still being written) is left out, as an open would leave it.

                Exit status: 0 copied; 1 the source is damaged; 2 the copy could not run (no \
                store, the destination holds a store, the server could not be reached, no \
                logbook-postgres); 3 copied, but an incomplete batch at the end of SOURCE was left \
                out; 64 bad arguments.
                """
        )

        @Argument(help: "The store to copy: a directory, or a PostgreSQL URL.")
        var source: String

        @Argument(help: "Where to copy it: a PostgreSQL URL, or a new directory.")
        var destination: String

        func validate() throws {
            if ServerStores.isServerURL(source) && ServerStores.isServerURL(destination) {
                throw ValidationError("both SOURCE and DEST are PostgreSQL URLs: copy through a directory")
            }
        }

        func run() throws {
            if ServerStores.isServerURL(source) || ServerStores.isServerURL(destination) {
                throw ExitCode(try ServerStores.runCompanion(["copy", source, destination]))
            }
            try reportingErrors { try copyDirectory() }
        }

        /// Copies a store in a directory into a new directory, through the log's own reader and
        /// writer; removes the copy and fails when the source is damaged.
        private func copyDirectory() throws {
            try StoreOptions.checkStore(at: source)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: destination, isDirectory: &isDirectory) {
                let names =
                    isDirectory.boolValue ? (try? FileManager.default.contentsOfDirectory(atPath: destination)) : nil
                guard names?.isEmpty == true else {
                    throw CLIError(
                        "\(destination) exists and is not an empty directory: copy into a new path or an empty directory"
                    )
                }
            }
            let report = try Logbook.Salvage.salvage(from: source, to: destination)
            let dropped = report.dropped
            let tornOnly = dropped.allSatisfy { if case .tornTail = $0.disposition { true } else { false } }
            if !dropped.isEmpty && !tornOnly {
                try? FileManager.default.removeItem(atPath: destination)
                let first = dropped[0]
                throw CLIError(
                    "\(source) is damaged (\(first.segment) at byte offset \(first.offset)): nothing copied; `logbook salvage \(source) \(destination)` copies its sound part",
                    status: ToolExit.damaged
                )
            }
            let bytes = report.entries.filter(\.isKept).reduce(0) { $0 + $1.byteCount }
            var line = "copied \(counted(report.keptBatches, "batch")) (\(bytes) bytes)"
            if report.copiedExternalFiles > 0 {
                line += " and \(counted(report.copiedExternalFiles, "value file"))"
            }
            line += "; the destination ends at sequence \(report.keptSequence?.upperBound ?? 0)"
            print(line)
            for missing in report.missingExternalFiles {
                FileHandle.standardError.write(Data("note: reference kept, value file not copied: \(missing)\n".utf8))
            }
            if !dropped.isEmpty {
                FileHandle.standardError.write(
                    Data(
                        "note: an incomplete batch at the end of \(source) (a torn write, or one still being written) was not copied\n"
                            .utf8
                    )
                )
                throw ExitCode(ToolExit.tornTail)
            }
        }
    }
}
