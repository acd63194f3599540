import Testing

@testable import Logbook

/// The identifier-to-slot table agrees with a `Dictionary` through inserts, replacements and
/// removals, in the orders a store produces (ascending identifiers) and in random ones.
struct IdentifierSlotsTests {
    private func expectAgreement(_ slots: IdentifierSlots, _ reference: [UInt64: Int], probes: some Sequence<UInt64>) {
        #expect(slots.count == reference.count)
        for id in probes {
            #expect(slots.slot(of: id) == reference[id], "identifier \(id)")
        }
    }

    @Test(arguments: [1, 2, 3, 4])
    func randomOperationsAgreeWithADictionary(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var slots = IdentifierSlots()
        var reference: [UInt64: Int] = [:]
        // Mostly counter-like identifiers, some far beyond them (which go to the dictionary
        // until the array grows over them).
        var probes: Set<UInt64> = [0, 1]
        for step in 0..<20_000 {
            let id =
                Int.random(in: 0..<10, using: &generator) == 0
                ? UInt64.random(in: 1...(1 << 22), using: &generator)
                : UInt64.random(in: 1...5_000, using: &generator)
            probes.insert(id)
            if Bool.random(using: &generator) || reference.count < 50 {
                slots.set(id, slot: step)
                reference[id] = step
            } else {
                let slot = reference[id] ?? step
                // A removal naming another slot than the recorded one is ignored.
                slots.remove(id, ifIn: slot + 1)
                #expect(slots.slot(of: id) == reference[id])
                slots.remove(id, ifIn: slot)
                reference[id] = nil
            }
        }
        expectAgreement(slots, reference, probes: probes)
    }

    @Test func ascendingIdentifiersWithEveryOtherOneRemoved() {
        var slots = IdentifierSlots()
        var reference: [UInt64: Int] = [:]
        for id in UInt64(1)...100_000 {
            slots.set(id, slot: Int(id) * 3)
            reference[id] = Int(id) * 3
        }
        for id in stride(from: UInt64(2), through: 100_000, by: 2) {
            slots.remove(id, ifIn: Int(id) * 3)
            reference[id] = nil
        }
        expectAgreement(slots, reference, probes: UInt64(0)...100_001)
    }

    @Test func forgedHugeIdentifiersAreHeldWithoutAnArrayReachingThem() {
        var slots = IdentifierSlots()
        slots.set(.max, slot: 7)
        slots.set(1 << 63, slot: 8)
        #expect(slots.coveredIdentifiers == 0)
        slots.set(3, slot: 9)
        #expect(slots.coveredIdentifiers == 1_024)
        #expect(slots.slot(of: 3) == 9)
        #expect(slots.slot(of: 0) == nil)
        #expect(slots.slot(of: .max) == 7)
        #expect(slots.slot(of: 1 << 63) == 8)
        slots.remove(.max, ifIn: 7)
        #expect(slots.count == 2)
        #expect(slots.slot(of: .max) == nil)
        #expect(slots.slot(of: 1 << 63) == 8)
    }
}

/// Recording a table's identifiers in one pass, as a checkpoint's load does.
struct IdentifierSlotsRecordTests {
    @Test func recordingATableAgreesWithSettingEachIdentifier() {
        var generator = SeededGenerator(seed: 9)
        // Slots in no order, free slots (0), and a few identifiers too far for the array.
        var identifiers = (1...5_000).map { UInt64($0) }.shuffled(using: &generator)
        for position in stride(from: 0, to: identifiers.count, by: 7) { identifiers[position] = 0 }
        identifiers.append(1 << 40)
        identifiers.append(0)
        identifiers.append((1 << 40) + 3)
        var recorded = IdentifierSlots()
        let largest = identifiers.max() ?? 0
        #expect(recorded.record(WordColumn(identifiers), largest: largest, live: identifiers.count) == nil)
        var expected = IdentifierSlots()
        for (slot, id) in identifiers.enumerated() where id != 0 { expected.set(id, slot: slot) }
        #expect(recorded.count == expected.count)
        for id in identifiers + [0, 5_001, 1 << 40 + 1] {
            #expect(recorded.slot(of: id) == expected.slot(of: id), "identifier \(id)")
        }
    }

    @Test func anIdentifierHeldTwiceIsNamed() {
        var slots = IdentifierSlots()
        #expect(slots.record(WordColumn([4, 0, 9]), largest: 9, live: 2) == nil)
        // Another table holding 9 again, and one holding a far identifier twice.
        #expect(slots.record(WordColumn([12, 9, 13]), largest: 13, live: 3) == 9)
        var far = IdentifierSlots()
        #expect(far.record(WordColumn([1 << 40, 2, 1 << 40]), largest: 1 << 40, live: 3) == 1 << 40)
    }
}
