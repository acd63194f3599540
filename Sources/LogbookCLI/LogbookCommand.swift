import ArgumentParser
import Logbook

@main
struct LogbookCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logbook",
        abstract: "Inspect, verify, dump and replay Logbook stores, without the application's code.",
        discussion: """
            A store is a directory of segment files. Reading commands work while another process \
            holds the store open for writing.
            """,
        version: "0.1.0",
        subcommands: [
            Demo.self, Info.self, Dump.self, History.self, Replay.self, Tail.self, Verify.self, Salvage.self,
            Checkpoint.self, PruneExternal.self, Copy.self,
            AppendLoop.self, SaveLoop.self, ExternalLoop.self,
            MeasureLog.self,
            MigrateSlowly.self, SampleStore.self, MeasureMigration.self, MeasureTrips.self, MeasureOpen.self,
            MeasureFeed.self, FeedFollower.self,
        ]
    )
}
