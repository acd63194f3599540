import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// A checkpoint whose writing fails leaves the store as it was: it opens with exactly its saves.
struct CheckpointFaultTests {
    @Test(arguments: [
        (FaultySyscalls.Operation.fsync, 1), (.fsync, 2), (.fsync, 3), (.rename, 1), (.pwrite, 1), (.open, 1),
    ])
    func aFailedCheckpointWriteLeavesTheStoreOpeningWithItsSaves(operation: FaultySyscalls.Operation, at n: Int) throws
    {
        let store = CheckpointStore()
        var history = TripsHistory(seed: 31)
        let expected: TripsSnapshot
        let faults = FaultySyscalls()
        do {
            let container = try ModelContainer(
                for: Trip.self,
                configurations: store.configuration(durability: .durable, syscalls: faults)
            )
            try history.save(container, steps: 8)
            expected = try TripsSnapshot(container)
            faults.inject(.fail(.ioError), at: n, on: operation)
            #expect(throws: LogbookError.self) { try container.checkpoint() }
            #expect(faults.injectedCount == 1)
            // The container goes on saving after the failure, unless a flush of the log failed.
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: store.checkpointsPath)) ?? []
        let temporaries = names.filter { $0.hasSuffix(".tmp") }
        #expect(temporaries.isEmpty, "\(temporaries)")
        let container = try store.open()
        #expect(try TripsSnapshot(container) == expected)
        #expect(store.warnings.filter { $0.contains("ignored checkpoint") }.isEmpty, "\(store.warnings)")
    }

    @Test func aFailedFlushOfRelaxedAppendsBeforeACheckpointStopsTheWriterAndLosesNothingOnDisk() throws {
        let store = CheckpointStore()
        var history = TripsHistory(seed: 32)
        let faults = FaultySyscalls()
        let expected: TripsSnapshot
        do {
            let container = try ModelContainer(
                for: Trip.self,
                configurations: store.configuration(durability: .relaxed, syscalls: faults)
            )
            try history.save(container, steps: 6)
            expected = try TripsSnapshot(container)
            faults.inject(.fail(.ioError), on: .fdatasync)
            let error = #expect(throws: LogbookError.self) { try container.checkpoint() }
            #expect(error?.code == .io)
            #expect(try store.checkpoints().isEmpty)
            let refused = #expect(throws: LogbookError.self) { try history.save(container, steps: 1) }
            #expect(refused?.code == .writerFailed)
        }
        #expect(try TripsSnapshot(try store.open()) == expected)
    }

    @Test func aCheckpointIsWrittenInPiecesOfAChunkAtMost() throws {
        let store = CheckpointStore()
        let faults = FaultySyscalls()
        let container = try ModelContainer(for: Trip.self, configurations: store.configuration(syscalls: faults))
        let context = ModelContext(container)
        for number in 0..<2_000 {
            let start = Date(timeIntervalSinceReferenceDate: Double(number))
            let destination = String(repeating: "d", count: 40)
            context.insert(Trip(name: "trip \(number)", destination: destination, startDate: start, endDate: start))
        }
        try context.save()
        faults.forgetLargestWrite()
        try container.checkpoint()
        let path = try #require(try store.checkpoints().first).path
        #expect(try ByteSurgery.size(of: path) > 4 * CheckpointImage.largestWrite)
        #expect(faults.largestWrite <= CheckpointImage.largestWrite)
        #expect(CheckpointTool.verify(path, store: store.path) == nil)
        // The trips' values and heap, over a chunk each, start on a chunk of the file; the
        // small sections are packed, 8 bytes apart at most.
        let sections = try CheckpointReader(path: path).sections
        let large = sections.filter {
            [.values, .heap].contains($0.kind) && $0.range.count > CheckpointFormat.chunkSize
        }
        #expect(large.count == 2)
        for section in large { #expect(section.range.lowerBound % CheckpointFormat.chunkSize == 0) }
        for (before, after) in zip(sections, sections.dropFirst())
        where !CheckpointEncoder.startsOnAChunk(after.kind, bytes: after.range.count) {
            #expect(after.range.lowerBound - before.range.upperBound < 8)
        }
    }
}
