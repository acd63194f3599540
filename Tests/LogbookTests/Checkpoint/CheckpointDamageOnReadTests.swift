import Dispatch
import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// A value of a format 2 checkpoint found damaged when it is read, after the open, by readers
/// that meet on it and by a container that cannot save: every read gets what the log holds.
struct CheckpointDamageOnReadTests {
    /// A store of 60 trips with three bucket-list items each and a checkpoint of it, with one
    /// byte flipped in the middle of the items' heap; returns the checkpoint's path and the
    /// items as the container that saved them read them.
    private func storeWithADamagedHeap(_ store: CheckpointStore) throws -> (path: String, items: [String]) {
        let expected: [String]
        do {
            let container = try store.open()
            try CheckpointStore.insertTrips(60, itemsEach: 3, into: container)
            try container.checkpoint()
            expected = try items(container)
        }
        let path = try #require(try store.checkpoints().first).path
        let reader = try CheckpointReader(path: path)
        let heap = try #require(reader.sections.first { $0.kind == .heap && $0.table == 0 && $0.range.count > 64 })
        try ByteSurgery.flipByte(in: path, at: heap.range.lowerBound + heap.range.count / 2)
        return (path, expected)
    }

    private func items(_ container: ModelContainer) throws -> [String] {
        try ModelContext(container).fetch(FetchDescriptor<BucketListItem>(sortBy: [SortDescriptor(\.title)])).map {
            "\($0.title)|\($0.details)|\($0.hasReservation)|\($0.trip?.name ?? "-")"
        }
    }

    @Test func readersMeetingOnADamagedChunkAllReadTheLogsValuesAndTheLogIsReplayedOnce() throws {
        let store = CheckpointStore()
        let (path, expected) = try storeWithADamagedHeap(store)
        #expect(expected.count == 180)
        let container = try store.open()
        #expect(store.openedFromCheckpoint)
        let results = Locked<[[String]]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let found = (try? items(container)) ?? []
            results.withLock { $0.append(found) }
        }
        let warnings = store.warnings.filter { $0.contains("damaged checkpoint \(path)") }
        #expect(warnings.count == 1, "\(warnings)")
        #expect(results.withLock { $0.count } == 4)
        for found in results.withLock({ $0 }) { #expect(found == expected) }
    }

    @Test func aContainerThatCannotSaveIgnoresTheDamagedCheckpointAndLeavesTheFileAlone() throws {
        let store = CheckpointStore()
        let (path, expected) = try storeWithADamagedHeap(store)
        let before = try ByteSurgery.bytes(of: path)
        var configuration = store.configuration(interval: 16 << 20)
        configuration.allowsSave = false
        do {
            // It decodes every value as it loads a checkpoint (the values kept in files too),
            // so it meets the damage at the open: ignored, with the warning, and the log replayed.
            let container = try ModelContainer(for: Trip.self, configurations: configuration)
            #expect(!store.openedFromCheckpoint)
            let warning = store.warnings.first { $0.contains("ignored checkpoint \(path)") }
            #expect(warning?.contains("checksum mismatch in the heap's chunk at byte") == true, "\(store.warnings)")
            #expect(try items(container) == expected)
        }
        // A container that cannot save writes no checkpoint, not even to replace a damaged one.
        #expect(try store.checkpoints().map(\.path) == [path])
        #expect(try ByteSurgery.bytes(of: path) == before)
    }
}
