import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// Every call that changes a file during a migration, saves and segment rolls fails in turn,
/// with each kind of fault: each run ends in a thrown, typed error or in success, and the store
/// then opens, verifies, and holds exactly the steps that returned (or, when the fault hit
/// after the data was down, one more), never part of a step.
@Suite(.serialized)
struct FaultMatrixTests {
    private static let faults: [CountingFaultSyscalls.Fault] = [.fail(.noSpace), .fail(.ioError), .shortWrite]

    @Test func everyFaultAtEveryPointLeavesAStoreWithEveryAcknowledgedStep() throws {
        let reference = ReliabilityWorkload.reference
        try #require(reference.count == ReliabilityWorkload.stepCount + 1)
        let directory = TemporaryDirectory()
        let template = URL(fileURLWithPath: directory.child("template"))
        try ReliabilityWorkload.makeTemplate(at: template)

        // Count the points of a clean run.
        let counting = CountingFaultSyscalls()
        let clean = URL(fileURLWithPath: directory.child("clean"))
        try FileManager.default.copyItem(at: template, to: clean)
        #expect(ReliabilityWorkload.run(clean, syscalls: counting).done == ReliabilityWorkload.stepCount)
        let points = counting.points
        #expect(points.contains { $0.call.hasPrefix("open 0") }, "the workload rolls segments: \(points)")
        #expect(points.filter { $0.call == "fsync" }.count >= 2, "directory syncs after segment rolls")

        var cases = 0
        for point in points {
            for fault in Self.faults where point.call.hasPrefix("pwrite") || fault.description != "short write" {
                let store = URL(fileURLWithPath: directory.child("case-\(cases)"))
                cases += 1
                try FileManager.default.copyItem(at: template, to: store)
                let syscalls = CountingFaultSyscalls(failing: point.number, with: fault)
                let outcome = ReliabilityWorkload.run(store, syscalls: syscalls)
                let label = "\(fault) at \(point), after \(outcome.done) steps"
                #expect(syscalls.fired, "\(label): the fault fired")
                if let error = outcome.error {
                    let logbookError = error as? LogbookError
                    #expect(
                        logbookError?.code == .io || logbookError?.code == .writerFailed,
                        "\(label): a typed I/O error, got \(error)"
                    )
                    #expect(logbookError?.message.isEmpty == false, "\(label)")
                }
                let values = try ReliabilityWorkload.snapshot(store)
                let acceptable = [outcome.done, outcome.done + 1].filter { $0 < reference.count }
                #expect(
                    acceptable.contains { reference[$0] == values },
                    "\(label): the store holds \(values.count - 2) trips, none of the acceptable states"
                )
                let report = try ReliabilityWorkload.verify(store)
                #expect(report.isSound, "\(label): \(report.damages)")
                try FileManager.default.removeItem(at: store)
            }
        }
        #expect(cases >= points.count * 2)
        print("fault matrix: \(points.count) points, \(cases) cases")
    }

    @Test func everyFaultAtEveryPointOfASalvageLeavesNoHalfStore() throws {
        let directory = TemporaryDirectory()
        let damaged = URL(fileURLWithPath: directory.child("damaged"))
        try ReliabilityWorkload.makeTemplate(at: damaged)
        #expect(ReliabilityWorkload.run(damaged, syscalls: PosixSyscalls()).done == ReliabilityWorkload.stepCount)
        // Damage a sealed segment in the middle of the log.
        let segments = try segmentPaths(damaged.path)
        try #require(segments.count > 4)
        let middle = URL(fileURLWithPath: segments[segments.count / 2])
        var bytes = try [UInt8](Data(contentsOf: middle))
        bytes[bytes.count / 2] ^= 0x5A
        try Data(bytes).write(to: middle)
        // Every file of the store, checkpoints included, by path within it.
        func files() throws -> [String: Data] {
            var files: [String: Data] = [:]
            for path in try FileManager.default.subpathsOfDirectory(atPath: damaged.path) {
                var isDirectory: ObjCBool = false
                let url = damaged.appendingPathComponent(path)
                let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
                if exists && !isDirectory.boolValue { files[path] = try Data(contentsOf: url) }
            }
            return files
        }
        let original = try files()

        let counting = CountingFaultSyscalls()
        var configuration = LogConfiguration()
        configuration.syscalls = counting
        let cleanReport = try Salvage.salvage(
            from: damaged.path,
            to: directory.child("clean"),
            configuration: configuration
        )
        #expect(!cleanReport.keptEverything)
        let keptEvents = try readAll(directory.child("clean"))
        #expect(keptEvents.count == cleanReport.keptEvents)
        try FileManager.default.removeItem(atPath: directory.child("clean"))
        let points = counting.points
        #expect(points.contains { $0.call.hasPrefix("rename") }, "\(points)")

        var cases = 0
        for point in points {
            for fault in Self.faults where point.call.hasPrefix("pwrite") || fault.description != "short write" {
                cases += 1
                let destination = directory.child("new")
                let syscalls = CountingFaultSyscalls(failing: point.number, with: fault)
                configuration.syscalls = syscalls
                let label = "\(fault) at \(point)"
                do {
                    _ = try Salvage.salvage(from: damaged.path, to: destination, configuration: configuration)
                    #expect(try readAll(destination).map(\.1) == keptEvents.map(\.1), "\(label): the salvaged events")
                    #expect(try ReliabilityWorkload.verify(URL(fileURLWithPath: destination)).isSound, "\(label)")
                } catch let error as LogbookError {
                    #expect(error.code == .io || error.code == .writerFailed, "\(label): \(error)")
                    #expect(
                        !FileManager.default.fileExists(atPath: destination),
                        "\(label): no store under the new name"
                    )
                }
                #expect(syscalls.fired, "\(label)")
                #expect(
                    Set(try FileManager.default.contentsOfDirectory(atPath: directory.path)).isSubset(of: [
                        "damaged", "new",
                    ]),
                    "\(label): no temporary directory left behind"
                )
                #expect(try files() == original, "\(label): the damaged store is untouched")
                try? FileManager.default.removeItem(atPath: destination)
            }
        }
        print("fault matrix (salvage): \(points.count) points, \(cases) cases")
    }

    @Test func aFailedSyncRefusesFurtherSavesUntilReopened() throws {
        typealias Trip = ReliabilityWorkload.Trip
        let directory = TemporaryDirectory()
        let store = URL(fileURLWithPath: directory.child("store"))
        try ReliabilityWorkload.makeTemplate(at: store)
        #expect(ReliabilityWorkload.run(store, syscalls: PosixSyscalls(), upTo: 1).done == 1, "migrated")
        func open(_ syscalls: any Syscalls) throws -> ModelContext {
            var configuration = ModelConfiguration(url: store)
            configuration.syscalls = syscalls
            return ModelContext(
                try ModelContainer(
                    for: Trip.self,
                    migrationPlan: SampleTripsMigrationPlan.self,
                    configurations: configuration
                )
            )
        }
        func trip(_ name: String) -> Trip { Trip(name: name, destination: name, startDate: .now, endDate: .now) }
        // Find the save's fdatasync on a copy.
        let probeStore = URL(fileURLWithPath: directory.child("probe"))
        try FileManager.default.copyItem(at: store, to: probeStore)
        let counting = CountingFaultSyscalls()
        do {
            var configuration = ModelConfiguration(url: probeStore)
            configuration.syscalls = counting
            let context = ModelContext(
                try ModelContainer(
                    for: Trip.self,
                    migrationPlan: SampleTripsMigrationPlan.self,
                    configurations: configuration
                )
            )
            context.insert(trip("A"))
            try context.save()
        }
        let sync = try #require(counting.points.last { $0.call == "fdatasync" })
        let before = try Data(contentsOf: URL(fileURLWithPath: try segmentPaths(store.path).last ?? ""))

        do {
            let context = try open(CountingFaultSyscalls(failing: sync.number, with: .fail(.ioError)))
            context.insert(trip("A"))
            let first = #expect(throws: LogbookError.self) { try context.save() }
            #expect(first?.code == .writerFailed, "\(String(describing: first))")
            #expect(context.hasChanges, "the failed save's changes stay pending")
            context.insert(trip("B"))
            let second = #expect(throws: LogbookError.self) { try context.save() }
            #expect(second?.code == .writerFailed, "\(String(describing: second))")
            #expect(second?.message.contains("reopen") == true, "\(String(describing: second))")
        }
        // The failed sync's batch may or may not be on disk; nothing after it was written.
        let after = try Data(contentsOf: URL(fileURLWithPath: try segmentPaths(store.path).last ?? ""))
        #expect(after.count >= before.count)
        // Reopened, the store takes saves again.
        let context = try open(PosixSyscalls())
        context.insert(trip("C"))
        try context.save()
        let names = try context.fetch(FetchDescriptor<Trip>()).map(\.name)
        #expect(names.contains("C"))
        #expect(!names.contains("B"), "the save refused after the failed sync never reached the log")
        #expect(try ReliabilityWorkload.verify(store).isSound)
    }
}
