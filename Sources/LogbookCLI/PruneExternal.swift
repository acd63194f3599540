import ArgumentParser
import Foundation
import Logbook

extension LogbookCommand {
    struct PruneExternal: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "prune-external",
            abstract: "Remove the external value files no batch of a store refers to.",
            discussion: """
                A save writes the files of its `.externalStorage` values before its batch: one \
                that failed, or a process that ended, in between leaves files no batch refers \
                to, which are harmless (`verify` lists them). This command removes them, and the \
                temporary files of writes cut short, and prints each path. Takes the store's \
                writer lock, so that no save is writing a file meanwhile: the store must not be \
                open for writing elsewhere. A file any batch refers to is never removed.

                \(ToolExit.help)
                """
        )

        @OptionGroup var options: StoreOptions

        func run() throws {
            try reportingErrors(prune)
        }

        private func prune() throws {
            try options.refuseServerStore("prune-external")
            try options.checkStore()
            let removed = try ExternalFilesCheck.removeUnreferenced(directory: options.store)
            for path in removed { print("removed \(path)") }
            print("removed \(counted(removed.count, "file")) no batch refers to")
        }
    }
}
