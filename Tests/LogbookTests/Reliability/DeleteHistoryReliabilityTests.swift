import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// `deleteHistory` with the power failing, and with each kind of fault, at every call that
/// changes a file: the store then opens with the same objects, verifies, and has either its
/// whole history or the history after the horizon, never a mix.
@Suite(.serialized)
struct DeleteHistoryReliabilityTests {
    private static let faults: [CountingFaultSyscalls.Fault] = [.fail(.noSpace), .fail(.ioError), .shortWrite]

    /// A store after the reliability workload (many small segments), and the middle token of
    /// its history: a horizon inside a segment.
    private static func makeStore(at url: URL) throws -> (tokens: [DefaultHistoryToken], horizon: DefaultHistoryToken) {
        try ReliabilityWorkload.makeTemplate(at: url)
        #expect(ReliabilityWorkload.run(url, syscalls: PosixSyscalls()).done == ReliabilityWorkload.stepCount)
        let container = try ModelContainer(
            for: ReliabilityWorkload.Trip.self,
            migrationPlan: SampleTripsMigrationPlan.self,
            configurations: ModelConfiguration(url: url)
        )
        let tokens = try ModelContext(container).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).map(
            \.token
        )
        return (tokens, tokens[tokens.count / 2])
    }

    /// Opens the store with `syscalls` and deletes its history up to `horizon`.
    private static func deleteHistory(
        _ url: URL,
        through horizon: DefaultHistoryToken,
        syscalls: any Syscalls
    ) -> (
        any Error
    )? {
        var configuration = ModelConfiguration(url: url)
        configuration.syscalls = syscalls
        configuration.segmentSize = 1_024
        do {
            let container = try ModelContainer(
                for: ReliabilityWorkload.Trip.self,
                migrationPlan: SampleTripsMigrationPlan.self,
                configurations: configuration
            )
            try ModelContext(container).deleteHistory(
                HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token <= horizon })
            )
            return nil
        } catch {
            return error
        }
    }

    /// The store's history tokens, read by a reopened writer (which finishes a switch).
    private static func tokens(_ url: URL) throws -> [DefaultHistoryToken] {
        let container = try ModelContainer(
            for: ReliabilityWorkload.Trip.self,
            migrationPlan: SampleTripsMigrationPlan.self,
            configurations: ModelConfiguration(url: url)
        )
        return try ModelContext(container).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).map(\.token)
    }

    private static func check(
        _ store: URL,
        _ label: String,
        values: [String],
        tokens: [DefaultHistoryToken],
        horizon: DefaultHistoryToken
    ) throws {
        #expect(try ReliabilityWorkload.snapshot(store) == values, "\(label): the objects")
        let after = try Self.tokens(store)
        #expect(after == tokens || after == tokens.filter { $0 > horizon }, "\(label): \(after.count) transactions")
        let report = try ReliabilityWorkload.verify(store)
        #expect(report.isSound, "\(label): \(report.damages)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.path).filter {
            $0.hasSuffix(".base.tmp") || $0 == "00000000000000000000.log.tmp"
        }
        #expect(leftovers.isEmpty, "\(label): \(leftovers)")
        if after != tokens {
            let segments = try LogReader(directory: store.path).segments()
            let names = try FileManager.default.contentsOfDirectory(atPath: store.path).filter {
                $0.hasSuffix(".log") && $0 != "00000000000000000000.log"
            }
            #expect(names.count == segments.count - 1, "\(label): the replaced segments were removed")
        }
    }

    @Test(arguments: PowerLossSyscalls.Mode.allCases)
    func aPowerLossAtEveryPointLeavesTheWholeHistoryOrTheBase(mode: PowerLossSyscalls.Mode) throws {
        let directory = TemporaryDirectory()
        let template = URL(fileURLWithPath: directory.child("template"))
        let (tokens, horizon) = try Self.makeStore(at: template)
        let values = try ReliabilityWorkload.snapshot(template)

        let counting = PowerLossSyscalls(powerFailsAt: nil)
        let clean = URL(fileURLWithPath: directory.child("clean"))
        try FileManager.default.copyItem(at: template, to: clean)
        #expect(Self.deleteHistory(clean, through: horizon, syscalls: counting) == nil)
        #expect(try Self.tokens(clean) == tokens.filter { $0 > horizon })
        let calls = counting.calls
        #expect(calls > 8, "\(calls) changing calls")
        for point in 1...calls {
            let store = URL(fileURLWithPath: directory.child("case-\(point)"))
            try FileManager.default.copyItem(at: template, to: store)
            let syscalls = PowerLossSyscalls(powerFailsAt: point)
            let error = Self.deleteHistory(store, through: horizon, syscalls: syscalls)
            let label = "\(mode), power lost at call \(point) of \(calls)"
            #expect(syscalls.powerFailed, "\(label)")
            try syscalls.losePower(mode: mode, tearAt: Double(point % 7 + 1) / 8)
            try Self.check(store, label, values: values, tokens: tokens, horizon: horizon)
            if error == nil {
                // It returned: the switch was durable.
                #expect(try Self.tokens(store) == tokens.filter { $0 > horizon }, "\(label): returned")
            }
            try FileManager.default.removeItem(at: store)
        }
        print("deleteHistory power loss (\(mode)): \(calls) points")
    }

    @Test func everyFaultAtEveryPointLeavesTheWholeHistoryOrTheBase() throws {
        let directory = TemporaryDirectory()
        let template = URL(fileURLWithPath: directory.child("template"))
        let (tokens, horizon) = try Self.makeStore(at: template)
        let values = try ReliabilityWorkload.snapshot(template)

        let counting = CountingFaultSyscalls()
        let clean = URL(fileURLWithPath: directory.child("clean"))
        try FileManager.default.copyItem(at: template, to: clean)
        #expect(Self.deleteHistory(clean, through: horizon, syscalls: counting) == nil)
        let points = counting.points
        #expect(points.contains { $0.call.hasPrefix("rename") }, "\(points)")
        var cases = 0
        for point in points {
            for fault in Self.faults where point.call.hasPrefix("pwrite") || fault.description != "short write" {
                let store = URL(fileURLWithPath: directory.child("case-\(cases)"))
                cases += 1
                try FileManager.default.copyItem(at: template, to: store)
                let syscalls = CountingFaultSyscalls(failing: point.number, with: fault)
                let error = Self.deleteHistory(store, through: horizon, syscalls: syscalls)
                let label = "\(fault) at \(point)"
                #expect(syscalls.fired, "\(label): the fault fired")
                if let error {
                    let code = (error as? LogbookError)?.code
                    #expect(code == .io || code == .writerFailed, "\(label): a typed I/O error, got \(error)")
                }
                try Self.check(store, label, values: values, tokens: tokens, horizon: horizon)
                try FileManager.default.removeItem(at: store)
            }
        }
        #expect(cases >= points.count)
        print("deleteHistory fault matrix: \(points.count) points, \(cases) cases")
    }
}
