import BenchmarkHarness
import Foundation
import SampleTripsData
import Sides

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One run of the comparison: starts the child processes in order and collects the report.
///
/// Layout of the run directory: `<side>/store` (written by W1, read by W2, W3 and W5),
/// `<side>/v1` (W4), `<side>/v1-pristine` and `<side>/v1-pair` (W4's pairs) and
/// `<side>/dump.ndjson` (W5).
struct ComparisonRun {
    var report: ComparisonReport
    let dataSet: SampleTripsDataSet
    let directory: URL
    let lookups: Int
    let queries: Int
    /// How many pairs of W4 migration and W2 open-only processes to run alternately after the
    /// workloads, for W4's own ratio; 0 for none.
    var migrationPairs = 0
    /// How many times each side runs the workloads that carry the targets (see
    /// ``repeatedWorkloads``), in fresh processes, the sides' order alternating from one round to
    /// the next; each row of the table then shows its median round.
    var rounds = 1
    /// Workloads that threw or returned a wrong result; the command then exits with 1.
    private(set) var failures = 0
    /// Sides whose W1 store exists.
    private var sidesWithStore: Set<Side> = []

    init(report: ComparisonReport, dataSet: SampleTripsDataSet, directory: URL, lookups: Int, queries: Int) {
        self.report = report
        self.dataSet = dataSet
        self.directory = directory
        self.lookups = lookups
        self.queries = queries
    }

    /// The workloads that run ``rounds`` times: those whose ratio is a ``Target``. One run of
    /// each swung by a tenth or more on a busy host.
    static let repeatedWorkloads: Set<WorkloadID> = [.w1DurableAppend, .w2OpenAndLoad, .w3PointLookups]

    /// Runs `workloads` in order, each on every side in turn, so that both sides meet the
    /// machine in the same state; the ``repeatedWorkloads`` ``rounds`` times, with the sides'
    /// order reversed every other round.
    mutating func runWorkloads(_ workloads: [WorkloadID], sides: [Side]) throws {
        for side in sides {
            if let implementation = SideRegistry.workloads(for: side) {
                report.versions.append("\(side.displayName): \(type(of: implementation).versionDescription)")
            } else {
                report.notes.append("\(side.displayName) has no implementation yet; its cells show —.")
            }
        }
        let implemented = sides.filter { SideRegistry.workloads(for: $0) != nil }
        for workload in workloads {
            let count = Self.repeatedWorkloads.contains(workload) ? rounds : 1
            var measured: [Side: [[WorkloadResult]]] = [:]
            var errors: [Side: String] = [:]
            for round in 0..<count {
                if count > 1 { Progress.log("\(workload.title): round \(round + 1) of \(count)") }
                for side in round.isMultiple(of: 2) ? implemented : implemented.reversed() where errors[side] == nil {
                    do {
                        measured[side, default: []].append(try run(workload, side: side))
                    } catch {
                        failures += 1
                        Progress.log("\(side.displayName) \(workload.title) failed: \(error)")
                        report.notes.append("\(side.displayName) \(workload.title) failed: \(error)")
                        errors[side] = "\(error)"
                    }
                }
            }
            for side in sides {
                if let error = errors[side] {
                    report.entries.append(.init(workload: workload, side: side, measurement: nil, missing: error))
                } else if let rounds = measured[side] {
                    for result in Rounds.medians(of: rounds) {
                        report.entries.append(.init(workload: workload, side: side, measurement: result))
                    }
                } else {
                    report.entries.append(.init(workload: workload, side: side, measurement: nil, missing: "not yet"))
                }
            }
            if count > 1, errors.isEmpty {
                report.notes.append(Rounds.note(workload, measured, sides: implemented))
                for target in Target.all where target.workload == workload {
                    report.targetRounds[target.title] = target.roundRatios(
                        logbook: measured[.logbook] ?? [],
                        grdb: measured[.grdb] ?? []
                    )
                }
            }
        }
    }

    /// Measures LZ4 decompression and sequential reads in a child process of their own.
    mutating func measureReference(sides: [Side], logbookStores: [String]) throws {
        var request = request(.reference, side: nil, workload: nil)
        let stores = sides.filter(sidesWithStore.contains).map { storeDirectory($0).path }
        request.readDirectories = stores + logbookStores
        request.logbookStores =
            logbookStores + (sidesWithStore.contains(.logbook) ? [storeDirectory(.logbook).path] : [])
        Progress.log("reference figures…")
        do {
            let response = try ChildProcess.run(request)
            report.lz4 = response.lz4
            report.sequentialReads = response.sequentialReads
            report.memoryLatency = response.memoryLatency
            report.notes.append(contentsOf: response.notes)
        } catch {
            failures += 1
            report.notes.append("reference figures failed: \(error)")
        }
    }

    /// W4's target, migration ÷ V3 open, from pairs of fresh processes run one after the other,
    /// in alternating order: the table's W4 row and W2's open-only row ran minutes apart, and
    /// the host's speed moved more than the ratio in between.
    mutating func measureMigrationPairs() {
        let pristine = pristineV1Directory(.logbook)
        guard migrationPairs > 0, sidesWithStore.contains(.logbook),
            FileManager.default.fileExists(atPath: pristine.path)
        else { return }
        let copy = directory.appendingPathComponent(Side.logbook.rawValue).appendingPathComponent("v1-pair")
        do {
            for index in 0..<migrationPairs {
                Progress.log("Logbook: W4 pair \(index + 1) of \(migrationPairs)…")
                try? FileManager.default.removeItem(at: copy)
                try FileManager.default.copyItem(at: pristine, to: copy)
                // The copy's dirty pages go to disk now, not while the first process of the pair
                // runs: without this, that process was the slower one in every pair.
                sync()
                var migrate = request(.workload, side: .logbook, workload: .w4OpenThroughMigration)
                migrate.store = copy.path
                var open = request(.workload, side: .logbook, workload: .w2OpenAndLoad)
                open.variant = "open only"
                var migration: Double?
                var opening: Double?
                for step in index.isMultiple(of: 2) ? [migrate, open] : [open, migrate] {
                    let response = try ChildProcess.run(step)
                    try check(response.measurements, of: step.workload ?? .w2OpenAndLoad)
                    if step.workload == .w4OpenThroughMigration {
                        migration = response.measurements.first { $0.variant == "V1 → V3 migration" }?.seconds
                    } else {
                        opening = response.measurements.first { $0.variant == "open only" }?.seconds
                    }
                }
                guard let migration, let opening else { throw HarnessError("a W4 pair returned no time") }
                report.migrationPairs.append(.init(migrationSeconds: migration, openSeconds: opening))
            }
        } catch {
            failures += 1
            report.notes.append("W4 pairs failed: \(error)")
        }
        try? FileManager.default.removeItem(at: copy)
    }

    // MARK: - Internals

    func pristineV1Directory(_ side: Side) -> URL {
        directory.appendingPathComponent(side.rawValue).appendingPathComponent("v1-pristine", isDirectory: true)
    }

    func storeDirectory(_ side: Side) -> URL {
        directory.appendingPathComponent(side.rawValue).appendingPathComponent("store", isDirectory: true)
    }

    func v1Directory(_ side: Side) -> URL {
        directory.appendingPathComponent(side.rawValue).appendingPathComponent("v1", isDirectory: true)
    }

    func dumpFile(_ side: Side) -> URL {
        directory.appendingPathComponent(side.rawValue).appendingPathComponent("dump.ndjson")
    }

    func request(_ task: ChildRequest.Task, side: Side?, workload: WorkloadID?) -> ChildRequest {
        ChildRequest(
            task: task,
            side: side,
            workload: workload,
            tripCount: dataSet.tripCount,
            seed: dataSet.seed,
            store: side.map { storeDirectory($0).path },
            output: nil,
            lookups: lookups,
            queries: queries
        )
    }

    mutating func run(_ workload: WorkloadID, side: Side) throws -> [WorkloadResult] {
        let store = storeDirectory(side)
        var request = request(.workload, side: side, workload: workload)
        var bytes: Int?
        switch workload {
        case .w1DurableAppend:
            sidesWithStore.remove(side)
            try? FileManager.default.removeItem(at: store)
            try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        case .w2OpenAndLoad, .w3PointLookups, .w3PredicateFetch, .w5DumpNDJSON, .w7FirstScreen,
            .w8FirstScreenAfterEdits, .w9DeleteHistory:
            guard sidesWithStore.contains(side) else { throw HarnessError("W1 left no store to read") }
            if workload == .w5DumpNDJSON {
                request.output = dumpFile(side).path
            }
        case .w4OpenThroughMigration:
            let v1 = v1Directory(side)
            try? FileManager.default.removeItem(at: v1)
            try FileManager.default.createDirectory(at: v1, withIntermediateDirectories: true)
            var prepare = self.request(.prepareV1, side: side, workload: nil)
            prepare.store = v1.path
            Progress.log("\(side.displayName): writing the V1 store for W4 (not timed)…")
            _ = try ChildProcess.run(prepare)
            if side == .logbook, migrationPairs > 0 {
                // The migration rewrites the store it opens: each pair migrates a copy.
                let pristine = pristineV1Directory(side)
                try? FileManager.default.removeItem(at: pristine)
                try FileManager.default.copyItem(at: v1, to: pristine)
            }
            request.store = v1.path
            bytes = FileBytes.directorySize(v1)
        }
        var results: [WorkloadResult] = []
        for variant in processVariants(of: workload, side: side) {
            request.variant = variant
            var editedBytes: Int?
            if Self.editedWorkloads.contains(workload) {
                let (edited, edits) = try prepareEdited(side: side, variant: variant, for: workload)
                if let edits {
                    let label = "\(side.displayName)\(variant.map { " (\($0))" } ?? "")"
                    report.notes.append(
                        "\(workload.title) setup, \(label): \(edits.items) edits in \(WorkloadID.w8EditRounds) rounds "
                            + "took \(ResultTable.duration(edits.seconds)) (the rounds alone, 1,000 trips per save)"
                    )
                }
                request.store = edited.path
                editedBytes = FileBytes.directorySize(edited)
            }
            defer {
                if Self.editedWorkloads.contains(workload) {
                    try? FileManager.default.removeItem(at: editedDirectory(side))
                }
            }
            Progress.log("\(side.displayName): \(workload.title)\(variant.map { " (\($0))" } ?? "")…")
            let response = try ChildProcess.run(request)
            try check(response.measurements, of: workload)
            results += response.measurements.map { result in
                var result = result
                // A side may report the peak at the end of its timed part (W9, which reopens the
                // store afterwards to count it).
                result.peakResidentBytes = result.peakResidentBytes ?? response.peakResidentBytes
                result.bytes = editedBytes
                return result
            }
        }
        switch workload {
        case .w1DurableAppend:
            sidesWithStore.insert(side)
            bytes = FileBytes.directorySize(store)
        case .w2OpenAndLoad, .w7FirstScreen:
            bytes = FileBytes.directorySize(store)
        case .w3PointLookups, .w3PredicateFetch, .w4OpenThroughMigration, .w8FirstScreenAfterEdits,
            .w9DeleteHistory:
            break
        case .w5DumpNDJSON:
            bytes = FileBytes.size(of: dumpFile(side))
        }
        return results.map { result in
            var result = result
            result.bytes = result.bytes ?? bytes
            return result
        }
    }

    /// The variants of `workload` that each need a process of their own: W2's, whose peak
    /// memory W6 reports, and W8's, each on a store of its own; `[nil]` for one run.
    func processVariants(of workload: WorkloadID, side: Side) -> [String?] {
        guard let implementation = SideRegistry.workloads(for: side) else { return [nil] }
        let variants: [String]
        switch workload {
        case .w2OpenAndLoad: variants = type(of: implementation).w2Variants
        case .w8FirstScreenAfterEdits: variants = type(of: implementation).w8Variants
        default: variants = []
        }
        return variants.isEmpty ? [nil] : variants
    }

    /// The workloads that run on a copy of W1's store edited by ``prepareEdited(side:variant:for:)``.
    static let editedWorkloads: Set<WorkloadID> = [.w8FirstScreenAfterEdits, .w9DeleteHistory]

    func editedDirectory(_ side: Side) -> URL {
        directory.appendingPathComponent(side.rawValue).appendingPathComponent("edited", isDirectory: true)
    }

    /// Copies W1's store and edits the copy for `workload` (W8 or W9) and W8's `variant` in a
    /// child process, not timed.
    ///
    /// - Returns: The copy.
    /// - Returns: The edited store, and the time its edit rounds took when the side timed them.
    func prepareEdited(side: Side, variant: String?, for workload: WorkloadID) throws -> (URL, WorkloadResult?) {
        let edited = editedDirectory(side)
        try? FileManager.default.removeItem(at: edited)
        try FileManager.default.copyItem(at: storeDirectory(side), to: edited)
        var prepare = request(.prepareEdits, side: side, workload: nil)
        prepare.store = edited.path
        prepare.variant = variant
        Progress.log(
            "\(side.displayName): \(WorkloadID.w8EditRounds) rounds of edits for \(workload.rawValue.uppercased())\(variant.map { " (\($0))" } ?? "") (timed for the notes)…"
        )
        let response = try ChildProcess.run(prepare)
        // The edits' dirty pages go to disk now, not while the measured process runs.
        sync()
        return (edited, response.measurements.first)
    }

    /// Refuses results that did not do the whole work: a fast wrong answer is no figure.
    func check(_ measurements: [WorkloadResult], of workload: WorkloadID) throws {
        guard !measurements.isEmpty else { throw HarnessError("\(workload.title) returned no measurement") }
        let expected: ObjectCounts
        switch workload {
        case .w2OpenAndLoad, .w9DeleteHistory:
            expected = ObjectCounts(
                trips: dataSet.tripCount,
                bucketListItems: dataSet.bucketListItemCount,
                livingAccommodations: dataSet.tripCount
            )
        case .w4OpenThroughMigration:
            expected = ObjectCounts(
                trips: dataSet.v1DistinctNameCount,
                bucketListItems: dataSet.bucketListItemCount,
                livingAccommodations: dataSet.v1DistinctNameCount
            )
        case .w7FirstScreen, .w8FirstScreenAfterEdits:
            let trips = min(WorkloadID.firstScreenTrips, dataSet.tripCount)
            expected = ObjectCounts(
                trips: trips,
                bucketListItems: trips * SampleTripsDataSet.bucketListItemsPerTrip,
                livingAccommodations: 0
            )
        case .w1DurableAppend, .w3PointLookups, .w3PredicateFetch, .w5DumpNDJSON:
            return
        }
        for measurement in measurements where measurement.observed != expected {
            throw HarnessError(
                "\(workload.title) saw \(measurement.observed.map(\.description) ?? "nothing"); expected \(expected)"
            )
        }
    }
}
