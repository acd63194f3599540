import ArgumentParser
import BenchmarkHarness
import Foundation
import SampleTripsData
import Sides

@main
struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Runs the SampleTrips workloads with Logbook and with GRDB and prints one table.",
        subcommands: [RunCommand.self, ChildCommand.self],
        defaultSubcommand: RunCommand.self
    )
}

/// `compare [run]`: every workload, both sides, in child processes; then the table.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Runs every workload on every side, each in a fresh process, and prints the table.",
        discussion: """
            W2, W3, W5, W7, W8 and W9 read the store W1 writes, so W1 runs whenever one of them does. \
            Stores go to a new directory under --scratch, removed at the end unless --keep-stores.
            """
    )

    @Option(help: "Trips in the data set: SampleTrips-N (each trip has 5 bucket-list items and 1 accommodation).")
    var trips = SampleTripsDataSet.defaultTripCount

    @Option(help: "The data set's seed.")
    var seed = SampleTripsDataSet.defaultSeed

    @Option(help: "Point lookups by unique name in W3.")
    var lookups = 100_000

    @Option(help: "\"destination == X sorted by startDate\" queries in W3.")
    var queries = 100

    @Option(
        parsing: .upToNextOption,
        help: "Workloads to run (\(WorkloadID.allCases.map(\.rawValue).joined(separator: ", "))); all by default."
    )
    var only: [String] = []

    @Option(parsing: .upToNextOption, help: "Sides to run (logbook, grdb); both by default.")
    var sides: [String] = []

    @Option(
        help: "The directory for the stores; its file system is the one measured. Default: the temporary directory."
    )
    var scratch: String?

    @Flag(help: "Keep the stores and the dumps after the run.")
    var keepStores = false

    @Option(
        parsing: .singleValue,
        help: "An existing Logbook store whose LZ4 batches and segment files to measure too (repeatable)."
    )
    var logbookStore: [String] = []

    @Option(help: "Also write the report as JSON to this file.")
    var json: String?

    @Flag(help: "Skip the reference figures (LZ4, sequential read and memory latency).")
    var skipReference = false

    @Option(
        help: """
            Pairs of Logbook W4 migration and W2 open-only processes run alternately after the workloads, \
            for W4's own ratio (0: none).
            """
    )
    var migrationPairs = 3

    @Option(
        help: """
            Rounds of W1, W2 and W3's point lookups on each side, in fresh processes, the sides' order \
            alternating; the table shows each row's median round.
            """
    )
    var rounds = 3

    func validate() throws {
        guard trips > 0 else { throw ValidationError("--trips must be positive") }
        guard lookups > 0, queries > 0 else { throw ValidationError("--lookups and --queries must be positive") }
        guard migrationPairs >= 0 else { throw ValidationError("--migration-pairs must not be negative") }
        guard rounds > 0 else { throw ValidationError("--rounds must be positive") }
        for name in only where WorkloadID(rawValue: name) == nil {
            throw ValidationError("unknown workload '\(name)'; known: \(WorkloadID.allCases.map(\.rawValue))")
        }
        for name in sides where Side(rawValue: name) == nil {
            throw ValidationError("unknown side '\(name)'; known: logbook, grdb")
        }
    }

    func run() throws {
        let dataSet = SampleTripsDataSet(tripCount: trips, seed: seed)
        let directory = try makeRunDirectory()
        defer {
            if keepStores {
                Progress.log("stores kept in \(directory.path)")
            } else {
                try? FileManager.default.removeItem(at: directory)
            }
        }
        var run = ComparisonRun(
            report: ComparisonReport(
                date: ISO8601DateFormatter().string(from: Date()),
                machine: .current(),
                tripCount: trips,
                seed: seed
            ),
            dataSet: dataSet,
            directory: directory,
            lookups: lookups,
            queries: queries
        )
        let workloads = selectedWorkloads
        run.rounds = rounds
        if workloads.contains(.w4OpenThroughMigration), selectedSides.contains(.logbook) {
            run.migrationPairs = migrationPairs
        }
        run.report.loadAtStart = MachineInfo.loadAverages()
        if MachineInfo.isDebugBuild {
            run.report.notes.append("debug build: these figures mean nothing; use `swift run -c release compare`")
        }
        try run.runWorkloads(workloads, sides: selectedSides)
        run.measureMigrationPairs()
        if !skipReference {
            try run.measureReference(sides: selectedSides, logbookStores: logbookStore)
        }
        run.report.loadAtEnd = MachineInfo.loadAverages()
        print(ResultTable.render(run.report), terminator: "")
        if let json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(run.report).write(to: URL(fileURLWithPath: json))
        }
        if run.failures > 0 {
            throw ExitCode(1)
        }
    }

    var selectedWorkloads: [WorkloadID] {
        var chosen = Set(only.isEmpty ? WorkloadID.allCases : only.compactMap(WorkloadID.init(rawValue:)))
        let readW1Store: Set<WorkloadID> = [
            .w2OpenAndLoad, .w3PointLookups, .w3PredicateFetch, .w5DumpNDJSON, .w7FirstScreen, .w8FirstScreenAfterEdits,
            .w9DeleteHistory,
        ]
        if !chosen.isDisjoint(with: readW1Store) {
            chosen.insert(.w1DurableAppend)
        }
        return WorkloadID.allCases.filter(chosen.contains)
    }

    var selectedSides: [Side] {
        sides.isEmpty ? Side.allCases : Side.allCases.filter { sides.contains($0.rawValue) }
    }

    func makeRunDirectory() throws -> URL {
        let base = scratch.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? FileManager.default.temporaryDirectory
        let directory = base.appendingPathComponent(
            "logbook-compare-\(ProcessInfo.processInfo.processIdentifier)",
            isDirectory: true
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}

/// Progress lines on stderr, so that stdout holds only the table.
enum Progress {
    static func log(_ message: String) {
        FileHandle.standardError.write(Data("compare: \(message)\n".utf8))
    }
}
