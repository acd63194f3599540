import ArgumentParser
import Foundation
import Logbook

extension LogbookCommand {
    struct Checkpoint: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a checkpoint of a store at its last save.",
            discussion: """
                Replays the log at the schema it recorded last and writes the objects into \
                checkpoints/<sequence>.checkpoint, so that the next open replays only what \
                follows; keeps the two newest checkpoints. Takes the store's writer lock: the \
                store must not be open for writing elsewhere. An app opened through a migration \
                plan uses the checkpoint only when the plan's earlier versions rename nothing \
                the recorded schemas do not.

                \(ToolExit.help)
                """
        )

        @OptionGroup var options: StoreOptions

        func run() throws {
            try reportingErrors(write)
        }

        private func write() throws {
            try options.refuseServerStore("checkpoint")
            try options.checkStore()
            guard let path = try CheckpointTool.write(store: options.store) else {
                print("no checkpoint written: the store records no schema or holds no save")
                return
            }
            let reader = try CheckpointReader(path: path)
            print(
                "wrote \(path): sequence \(reader.header.sequence), \(formatBytes(Int64(reader.size))), schema \(reader.header.schemaVersion)"
            )
        }
    }
}

/// Prints the checkpoints of a store, newest first: what `info` and `verify` list.
func checkpointLines(_ store: String, verifying: Bool) throws -> (lines: [String], failed: Int) {
    let entries = try CheckpointFiles.list(in: store)
    var lines: [String] = []
    var failed = 0
    for entry in entries {
        let name = (entry.path as NSString).lastPathComponent
        do {
            let reader = try CheckpointReader(path: entry.path)
            let header = reader.header
            var line =
                "  \(name)  sequence \(header.sequence)  \(formatBytes(Int64(reader.size)))  schema \(header.schemaVersion)"
            if verifying {
                if let problem = CheckpointTool.verify(entry.path, store: store) {
                    line += "  differs: \(problem)"
                    failed += 1
                } else {
                    line += "  matches the log"
                }
            }
            lines.append(line)
        } catch {
            lines.append("  \(name)  damaged: \(error)")
            failed += 1
        }
    }
    return (lines, failed)
}
