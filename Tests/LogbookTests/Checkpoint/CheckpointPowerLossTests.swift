import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// The power fails at every call that changes a file while a checkpoint is written: the store
/// then opens with exactly its saves, from the checkpoint if it reached the disk whole, from
/// the log otherwise.
struct CheckpointPowerLossTests {
    @Test(arguments: PowerLossSyscalls.Mode.allCases)
    func aPowerLossWhileACheckpointIsWrittenLosesNothing(mode: PowerLossSyscalls.Mode) throws {
        let template = CheckpointStore()
        var history = TripsHistory(seed: 41)
        let expected: TripsSnapshot
        do {
            let container = try ModelContainer(
                for: Trip.self,
                configurations: template.configuration(durability: .durable)
            )
            try history.save(container, steps: 10)
            expected = try TripsSnapshot(container)
        }
        // How many changing calls an open and a checkpoint make.
        let counting = PowerLossSyscalls(powerFailsAt: nil)
        let first: Int
        do {
            let copy = TemporaryDirectory("count")
            let url = URL(fileURLWithPath: copy.child("trips.store"))
            try FileManager.default.copyItem(at: template.url, to: url)
            var configuration = template.configuration(durability: .durable, syscalls: counting)
            configuration.url = url
            let container = try ModelContainer(for: Trip.self, configurations: configuration)
            first = counting.calls + 1
            try container.checkpoint()
        }
        let last = counting.calls
        #expect(last > first, "writing a checkpoint changes files: \(first)...\(last)")
        for point in first...last {
            let directory = TemporaryDirectory("case")
            let url = URL(fileURLWithPath: directory.child("trips.store"))
            try FileManager.default.copyItem(at: template.url, to: url)
            let syscalls = PowerLossSyscalls(powerFailsAt: point)
            var configuration = template.configuration(durability: .durable, syscalls: syscalls)
            configuration.url = url
            do {
                let container = try ModelContainer(for: Trip.self, configurations: configuration)
                #expect(throws: LogbookError.self) { try container.checkpoint() }
            }
            try syscalls.losePower(mode: mode, tearAt: Double(point % 7 + 1) / 8)
            var reopened = template.configuration(durability: .durable)
            reopened.url = url
            let container = try ModelContainer(for: Trip.self, configurations: reopened)
            #expect(
                try TripsSnapshot(container) == expected,
                "\(mode), power lost at call \(point) of \(first)...\(last)"
            )
        }
    }
}
