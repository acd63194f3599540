import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// The identifiers of a table loaded from a checkpoint with them ascending are searched where
/// they lie: every slot is found, and no identifier that is not there.
struct LoadedIdentifiersTests {
    private func expectSearchAgrees(_ identifiers: [UInt64], sourceLocation: SourceLocation = #_sourceLocation) {
        var check = LoadedIdentifiers.Check()
        for id in identifiers { check.next(id) }
        #expect(check.isSearchable, sourceLocation: sourceLocation)
        let loaded = LoadedIdentifiers(identifiers: WordColumn(identifiers))
        let live = identifiers.enumerated().filter { $0.element != 0 }
        let slots = Dictionary(uniqueKeysWithValues: live.map { ($0.element, $0.offset) })
        let probes = Set(identifiers.flatMap { [$0 &- 1, $0, $0 &+ 1] } + [0, 1, .max])
        for id in probes {
            #expect(loaded.slot(of: id) == slots[id], "identifier \(id)", sourceLocation: sourceLocation)
        }
    }

    @Test func evenlySpreadIdentifiersAreFound() {
        // One table of several saved together: every seventh identifier.
        expectSearchAgrees(Array(stride(from: UInt64(3), to: 70_000, by: 7)))
    }

    @Test(arguments: [1, 2, 3]) func unevenlySpreadIdentifiersAreFound(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var next: UInt64 = 1
        var identifiers: [UInt64] = []
        for _ in 0..<5_000 {
            // Runs close together, and far jumps, as saves of other tables in between leave.
            next += Bool.random(using: &generator) ? 1 : UInt64.random(in: 2...100_000, using: &generator)
            identifiers.append(next)
        }
        expectSearchAgrees(identifiers)
        // Free slots: runs of zeros up to the longest gap, at the start and the end too.
        var freed = identifiers
        var position = 0
        while position < freed.count {
            let run = Int.random(in: 0...LoadedIdentifiers.longestGap, using: &generator)
            for slot in position..<min(freed.count, position + run) { freed[slot] = 0 }
            position += run + Int.random(in: 1...50, using: &generator)
        }
        expectSearchAgrees(freed)
        expectSearchAgrees([0, 0, 5, 0, 9, 0])
        expectSearchAgrees([0, 0, 0])
        expectSearchAgrees([42])
        expectSearchAgrees([])
        expectSearchAgrees([1, 2, .max - 1])
    }

    @Test func aTableLoadedWithAscendingIdentifiersKeepsTheirSlotsOutOfTheMapAndChangesLikeAReplay() throws {
        let store = CheckpointStore()
        do {
            // Inserts only: every table's identifiers ascend, with no free slot.
            let container = try store.open()
            try CheckpointStore.insertTrips(60, itemsEach: 2, into: container)
            try container.checkpoint()
        }
        let container = try store.open()
        #expect(store.openedFromCheckpoint)
        let loaded = container.store.read { state in
            (
                state.projection.tables.map { $0.count == 0 || $0.loadedIdentifiers != nil },
                state.projection.loadedIdentifiersEnd > 0
            )
        }
        #expect(loaded.0.allSatisfy { $0 }, "every table with objects searches its identifiers in place")
        #expect(loaded.1)
        // Deletes, inserts, upserts and links over the loaded tables, then the same store
        // replayed from its log alone.
        var history = TripsHistory(seed: 77)
        try history.save(container, steps: 40)
        let changed = try TripsSnapshot(container)
        try store.hideCheckpoints()
        #expect(try TripsSnapshot(try store.open()) == changed)
    }

    @Test func identifiersOutOfOrderOrALongRunOfFreeSlotsAreNotSearched() {
        func searchable(_ identifiers: [UInt64]) -> Bool {
            var check = LoadedIdentifiers.Check()
            for id in identifiers { check.next(id) }
            return check.isSearchable
        }
        #expect(!searchable([1, 3, 2]))
        #expect(!searchable([4, 0, 4]))
        #expect(!searchable([1] + Array(repeating: 0, count: LoadedIdentifiers.longestGap + 1) + [9]))
        #expect(searchable([1] + Array(repeating: 0, count: LoadedIdentifiers.longestGap) + [9]))
    }

    @Test func aTableLoadedWithFreeSlotsIsSearchedAndChangesLikeAReplay() throws {
        let store = CheckpointStore()
        var history = TripsHistory(seed: 78)
        do {
            let container = try store.open()
            try CheckpointStore.insertTrips(60, itemsEach: 2, into: container)
            // Deletes among the saves free slots that later inserts reuse or leave free.
            try history.save(container, steps: 30)
            try container.checkpoint()
        }
        let container = try store.open()
        #expect(store.openedFromCheckpoint)
        let searched = container.store.read { state in
            state.projection.tables.filter { $0.loadedIdentifiers != nil && !$0.freeSlots.isEmpty }.count
        }
        #expect(searched > 0, "a table with free slots is searched in place")
        try history.save(container, steps: 40)
        let changed = try TripsSnapshot(container)
        try store.hideCheckpoints()
        #expect(try TripsSnapshot(try store.open()) == changed)
    }

    @Test func anIdentifierHeldByTwoTablesIsNamed() {
        var bits = IdentifierBits(below: 100, limit: 1 << 20)
        let first = bits.insert(7)
        let other = bits.insert(8)
        let again = bits.insert(7)
        #expect(first && other && !again)
        #expect(IdentifierBits(below: 1 << 40, limit: 1 << 20).end == 0)
    }
}
