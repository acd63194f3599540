import Foundation
import Testing

@testable import Logbook

/// The power fails at every call that changes a file during a migration, saves and segment
/// rolls, in turn; the files are put back to what had been synced (and, in a second mode, the
/// unsynced writes land except the last, which lands torn). The store then opens, verifies, and
/// holds exactly the steps that returned, or one more, never part of a step.
@Suite(.serialized)
struct PowerLossTests {
    @Test(arguments: PowerLossSyscalls.Mode.allCases)
    func aPowerLossAtEveryPointLosesNoAcknowledgedStep(mode: PowerLossSyscalls.Mode) throws {
        let reference = ReliabilityWorkload.reference
        try #require(reference.count == ReliabilityWorkload.stepCount + 1)
        let directory = TemporaryDirectory()
        let template = URL(fileURLWithPath: directory.child("template"))
        try ReliabilityWorkload.makeTemplate(at: template)

        let counting = PowerLossSyscalls(powerFailsAt: nil)
        let clean = URL(fileURLWithPath: directory.child("clean"))
        try FileManager.default.copyItem(at: template, to: clean)
        #expect(ReliabilityWorkload.run(clean, syscalls: counting).done == ReliabilityWorkload.stepCount)
        let calls = counting.calls
        #expect(calls > 20, "the workload makes many changing calls: \(calls)")

        var stepsLost = 0
        for point in 1...calls {
            let store = URL(fileURLWithPath: directory.child("case-\(point)"))
            try FileManager.default.copyItem(at: template, to: store)
            let syscalls = PowerLossSyscalls(powerFailsAt: point)
            let outcome = ReliabilityWorkload.run(store, syscalls: syscalls)
            let label = "\(mode), power lost at call \(point) of \(calls), after \(outcome.done) steps"
            #expect(syscalls.powerFailed, "\(label)")
            // The last calls record the durable point as the store closes, after every step
            // returned: a power loss there fails no step.
            #expect(
                outcome.error != nil || outcome.done == ReliabilityWorkload.stepCount,
                "\(label): the step in progress fails"
            )
            try syscalls.losePower(mode: mode, tearAt: Double(point % 7 + 1) / 8)

            let values = try ReliabilityWorkload.snapshot(store)
            let acceptable = [outcome.done, outcome.done + 1].filter { $0 < reference.count }
            #expect(
                acceptable.contains { reference[$0] == values },
                "\(label): the store holds \(values.count - 2) trips, none of the acceptable states"
            )
            if reference[outcome.done] == values { stepsLost += 0 } else { stepsLost += 1 }
            let report = try ReliabilityWorkload.verify(store)
            #expect(report.isSound, "\(label): \(report.damages)")
            try FileManager.default.removeItem(at: store)
        }
        print("power loss (\(mode)): \(calls) points; \(stepsLost) left the unacknowledged step whole in the store")
    }
}
