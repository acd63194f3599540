import ArgumentParser
import Logbook

@main
struct LogbookCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logbook",
        abstract: "Inspect, verify and replay Logbook stores."
    )
}
