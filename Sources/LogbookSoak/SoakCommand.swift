import ArgumentParser
import Foundation

/// The crash soak: a writer making SampleTrips saves is killed with SIGKILL at random moments,
/// and after every kill the store must open, pass `logbook verify`, and hold every acknowledged
/// save with its exact values and no half save.
@main
struct SoakCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logbook-soak",
        abstract: "Kill a writer at random moments and check the store after every kill.",
        subcommands: [Run.self, Writer.self, Check.self],
        defaultSubcommand: Run.self
    )

    struct ScriptOptions: ParsableArguments {
        @Option(help: "The number of the save that migrates from version 1 to 3 through the plan.")
        var migrationStep = 60

        @Option(help: "The number of saves in one store's life.")
        var length = 150
    }

    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the soak: start writers, kill them, check the store after each kill."
        )

        @Option(help: "How many times to kill the writer.")
        var kills = 100

        @Option(help: "The seed of the writers' saves and of the moments of the kills (default: random).")
        var seed: UInt64?

        @Option(help: "The longest wait, in milliseconds, before a kill.")
        var maximumDelay = 300

        @Option(help: "A directory for the stores (default: a new temporary directory).")
        var work: String?

        @Option(help: "The logbook binary that verifies the stores (default: the one beside this binary).")
        var logbook: String?

        @Flag(help: "Print a line after every kill.")
        var verbose = false

        @OptionGroup var script: ScriptOptions

        func run() throws {
            let seed = seed ?? UInt64.random(in: 0...UInt64.max)
            let directory =
                work.map { URL(fileURLWithPath: $0) }
                ?? FileManager.default.temporaryDirectory.appendingPathComponent("logbook-soak-\(seed)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            // A failed run keeps its store for inspection; a new run in the same directory would
            // take that store for a fresh one.
            let earlier = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
                $0.hasPrefix("store-")
            }
            guard earlier.isEmpty else {
                throw ValidationError(
                    "\(directory.path) holds \(earlier.sorted().joined(separator: ", ")) from an earlier run; remove it or choose another --work directory"
                )
            }
            let own =
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0]
            let verbose = verbose
            let (migrationStep, length) = (script.migrationStep, script.length)
            let driver = SoakDriver(
                work: directory,
                kills: kills,
                seed: seed,
                maximumDelay: maximumDelay,
                script: { SoakScript(seed: $0, migrationStep: migrationStep, length: length) },
                writer: own,
                logbook: logbook ?? ((own as NSString).deletingLastPathComponent + "/logbook"),
                progress: { if verbose { print($0) } }
            )
            let started = Date()
            do {
                let report = try driver.run()
                print(
                    """
                    seed \(seed): \(report.kills) kills survived in \(String(format: "%.1f", Date().timeIntervalSince(started))) s
                    stores: \(report.stores) run to the end (each with a migration), one more in progress
                    saves acknowledged: \(report.acknowledgedSaves)
                    kills after which one unacknowledged save was whole in the store: \(report.unacknowledgedButWhole)
                    kills while opening through the migration plan: \(report.duringMigration) (\(report.betweenMigrationStages) left the store between stages, at version 2)
                    """
                )
            } catch {
                FileHandle.standardError.write(Data("logbook-soak: seed \(seed): \(error)\n".utf8))
                throw ExitCode.failure
            }
        }
    }

    struct Writer: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a script's saves in a store, printing 'ack N' after save N returns.",
            shouldDisplay: false
        )

        @Argument(help: "The store.")
        var store: String

        @Option(help: "The script's seed.")
        var seed: UInt64

        @Option(help: "The first save to make.")
        var from = 1

        @OptionGroup var script: ScriptOptions

        func run() throws {
            try SoakWriter(
                script: SoakScript(seed: seed, migrationStep: script.migrationStep, length: script.length),
                store: URL(fileURLWithPath: store)
            ).run(from: from)
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check that a store holds a script's first N saves (or N+1) and verifies.",
            shouldDisplay: false
        )

        @Argument(help: "The store.")
        var store: String

        @Option(help: "The script's seed.")
        var seed: UInt64

        @Option(help: "How many saves the writer acknowledged.")
        var acknowledged: Int

        @Option(help: "The logbook binary that verifies the store (default: the one beside this binary).")
        var logbook: String?

        @OptionGroup var script: ScriptOptions

        func run() throws {
            let own =
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0]
            let checker = SoakChecker(
                script: SoakScript(seed: seed, migrationStep: script.migrationStep, length: script.length),
                logbook: logbook ?? ((own as NSString).deletingLastPathComponent + "/logbook")
            )
            do {
                let url = URL(fileURLWithPath: store)
                let saves = try checker.check(url, acknowledged: acknowledged)
                print("the store holds \(saves) saves at version \(try checker.snapshot(url).version)")
            } catch {
                FileHandle.standardError.write(Data("logbook-soak: \(error)\n".utf8))
                throw ExitCode.failure
            }
        }
    }
}
