import ArgumentParser
import BenchmarkHarness
import Foundation
import SampleTripsData

/// `swift run -c release postgres-compare`: Logbook stores kept in PostgreSQL, against plain
/// prepared INSERTs into the same server and against a store in a directory. See README.md.
@main
struct PostgresCompare: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "postgres-compare",
        abstract:
            "Measures Logbook stores kept in PostgreSQL: concurrent writers, follower lag, a second host's start.",
        subcommands: [RunCommand.self, ChildCommand.self],
        defaultSubcommand: RunCommand.self
    )
}

/// The workloads `postgres-compare` runs.
enum PostgresWorkload: String, CaseIterable, ExpressibleByArgument, Sendable {
    case writers
    case lag
    case start
}

/// The comparison: every workload asked for, each process a fresh child, one report on stdout.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Runs the PostgreSQL workloads and prints one report (the default subcommand)."
    )

    @Option(
        help:
            "The socket directory of a running server (its unix_socket_directories); a private server is started when none is given."
    )
    var socket: String?

    @Option(help: "The script that starts a private server.")
    var serverScript: String = PrivateServer.defaultScript

    @Flag(
        inversion: .prefixedNo,
        help:
            "Start the private server with fsync on, so that a commit waits for the disk as a durable save in a directory does."
    )
    var serverFsync = true

    @Option(help: "SampleTrips-N for the writers and the lag.")
    var trips: Int = 10_000

    @Option(help: "SampleTrips-N for the second host's start.")
    var startTrips: Int = 100_000

    @Option(help: "The generator's seed.")
    var seed: UInt64 = SampleTripsDataSet.defaultSeed

    @Option(help: "Trips per save (per transaction for the ceiling).")
    var tripsPerSave: Int = 100

    @Option(help: "Writer process counts, separated by commas.")
    var writers = WriterCounts(counts: [1, 2, 4])

    @Option(help: "Saves of one trip each that the lag writer makes.")
    var lagSaves: Int = 2_000

    @Option(help: "Milliseconds the paced lag writer waits after each save (a second run waits none).")
    var lagPauseMs: Int = 5

    @Option(help: "Rounds of each second-host start, each a fresh process; the table shows the median.")
    var startRounds: Int = 3

    @Option(parsing: .upToNextOption, help: "The workloads: writers lag start.")
    var only: [PostgresWorkload] = PostgresWorkload.allCases

    @Option(help: "Where the directory stores and the containers' copies go.")
    var scratch: String = FileManager.default.temporaryDirectory.path

    func validate() throws {
        guard trips > 0, startTrips > 0, tripsPerSave > 0, lagSaves > 0, startRounds > 0, lagPauseMs >= 0 else {
            throw ValidationError("counts must be positive (--lag-pause-ms may be 0)")
        }
        guard trips >= tripsPerSave * (writers.counts.max() ?? 1) else {
            throw ValidationError("--trips must give each writer at least one save of --trips-per-save trips")
        }
    }

    func run() throws {
        var privateServer: PrivateServer?
        let socket: String
        if let given = self.socket {
            socket = given
        } else {
            progress("starting a private server with \(serverScript)")
            let server = try PrivateServer.start(script: serverScript, fsync: serverFsync)
            privateServer = server
            socket = server.directory
        }
        defer { privateServer?.stop() }
        let database = "logbook_bench_\(getpid())"
        try Server.createDatabase(database, socket: socket)
        defer { try? Server.dropDatabase(database, socket: socket) }
        let scratchDirectory = URL(fileURLWithPath: scratch, isDirectory: true)
            .appendingPathComponent("postgres-compare-\(getpid())", isDirectory: true)
        try FileManager.default.createDirectory(at: scratchDirectory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratchDirectory) }

        var report = PostgresReport(
            date: ISO8601DateFormatter().string(from: Date()),
            machine: MachineInfo.current().summary,
            server: try Server.settings(socket: socket),
            loadAtStart: MachineInfo.loadAverages(),
            trips: trips,
            tripsPerSave: tripsPerSave,
            startTrips: startTrips
        )
        let run = PostgresRun(
            socket: socket,
            database: database,
            scratch: scratchDirectory,
            seed: seed,
            tripsPerSave: tripsPerSave
        )
        if only.contains(.writers) {
            report.writers = try run.writers(trips: trips, counts: writers.counts)
        }
        if only.contains(.lag) {
            report.lag = try run.lag(trips: trips, saves: lagSaves, pauses: [lagPauseMs, 0])
        }
        if only.contains(.start) {
            report.start = try run.start(trips: startTrips, rounds: startRounds)
        }
        report.loadAtEnd = MachineInfo.loadAverages()
        print(report.render(), terminator: "")
        if !report.failures.isEmpty { throw ExitCode(1) }
    }
}

/// The writer process counts, given as `1,2,4`.
struct WriterCounts: ExpressibleByArgument, Sendable {
    var counts: [Int]

    init(counts: [Int]) { self.counts = counts }

    init?(argument: String) {
        guard let counts = CountList.parse(argument) else { return nil }
        self.counts = counts
    }

    var defaultValueDescription: String { counts.map(String.init).joined(separator: ",") }
}

/// Progress, on stderr.
func progress(_ message: String) {
    FileHandle.standardError.write(Data("postgres-compare: \(message)\n".utf8))
}
