import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// The unique index's hash table on its own, against a dictionary doing the same work, and
/// through a projection whose objects change their unique values.
struct UniqueIndexTests {
    /// Values by slot, standing in for a table's rows; `nil` for a free slot.
    private struct Rows {
        var values: [String?] = []
        var index = UniqueIndex()
        /// `hash` folds every value onto few hashes, so that runs of collisions are long.
        let hash: (String) -> UInt32

        /// The slot holding `value`, found as a lookup finds it; checks the identifier too.
        func slot(of value: String) -> Int? {
            let found = index.find(hash(value), .string(value), where: { values[$0] == value })
            if let found { #expect(found.id == UInt64(found.slot) + 1, "\(value)'s identifier") }
            return found?.slot
        }

        mutating func insert(_ value: String) -> Int {
            let slot = values.count
            values.append(value)
            guard case .vacant(let bucket) = index.probe(hash(value), where: { values[$0] == value }) else {
                Issue.record("\(value) was in the index before it was inserted")
                return slot
            }
            index.insert(hash(value), slot: slot, id: UInt64(slot) + 1, value: .string(value), at: bucket)
            return slot
        }

        mutating func remove(_ slot: Int) {
            guard let value = values[slot] else { return }
            index.remove(hash(value), slot: slot)
            values[slot] = nil
        }
    }

    @Test(arguments: [1, 3, 1 << 20])
    func randomInsertsAndRemovesFindWhatADictionaryFinds(distinctHashes: UInt32) {
        var rows = Rows(hash: { UInt32(truncatingIfNeeded: $0.hashValue) % distinctHashes })
        var expected: [String: Int] = [:]
        var random = SystemRandomNumberGenerator()
        for step in 0..<4_000 {
            let value = "value \(Int.random(in: 0..<600, using: &random))"
            if let slot = expected[value], step % 3 != 0 {
                rows.remove(slot)
                expected[value] = nil
            } else if expected[value] == nil {
                expected[value] = rows.insert(value)
            }
            if step % 97 == 0 {
                for number in 0..<600 {
                    let probe = "value \(number)"
                    #expect(rows.slot(of: probe) == expected[probe], "\(probe) after \(step) steps")
                }
            }
        }
        #expect(rows.index.count == expected.count)
        #expect(Set(rows.index.slots) == Set(expected.values))
    }

    @Test func growingKeepsEveryEntryAndRemovingTheLastEmptiesIt() {
        var rows = Rows(hash: { UInt32(truncatingIfNeeded: $0.hashValue) })
        let slots = (0..<10_000).map { rows.insert("trip \($0)") }
        #expect(rows.index.count == 10_000)
        for number in stride(from: 0, to: 10_000, by: 7) { #expect(rows.slot(of: "trip \(number)") == slots[number]) }
        for slot in slots { rows.remove(slot) }
        #expect(rows.index.count == 0)
        #expect(rows.index.slots.isEmpty)
        #expect(rows.slot(of: "trip 1") == nil)
    }

    @Test func removingAnEntryThatIsNotThereChangesNothing() {
        var rows = Rows(hash: { _ in 5 })
        let first = rows.insert("a")
        let second = rows.insert("b")
        rows.index.remove(5, slot: 99)
        rows.index.remove(6, slot: first)
        #expect(rows.index.count == 2)
        #expect(rows.slot(of: "a") == first)
        #expect(rows.slot(of: "b") == second)
    }

    @Test func equalStringsInDifferentUnicodeFormsHashAlike() {
        // "é" precomposed and decomposed are equal Swift strings: a unique index must see one
        // value in both.
        let precomposed = AttributeValue.string("caf\u{E9}")
        let decomposed = AttributeValue.string("cafe\u{301}")
        #expect(precomposed == decomposed)
        #expect(UniqueIndex.hash(precomposed) == UniqueIndex.hash(decomposed))
    }

    @Test func aProjectionFindsObjectsByUniqueValueThroughRenamesAndDeletes() throws {
        let schema = Schema(versionedSchema: SampleTripsSchemaV3.self)
        var projection = Projection(schema: schema)
        let trip = try #require(projection.table(named: "Trip"))
        let name = try #require(projection.tables[trip].entity.attributes.firstIndex { $0.name == "name" })
        for id in UInt64(1)...500 {
            try projection.apply(
                .insert(.init(entity: "Trip", id: id, attributes: [.init("name", .string("Trip \(id)"))], toOne: []))
            )
        }
        for id in UInt64(1)...500 where id % 2 == 0 {
            try projection.apply(
                .update(.init(entity: "Trip", id: id, attributes: [.init("name", .string("Renamed \(id)"))], toOne: []))
            )
        }
        for id in UInt64(1)...500 where id % 5 == 0 { try projection.apply(.delete(entity: "Trip", id: id)) }
        for id in UInt64(1)...500 {
            let renamed = id % 2 == 0
            let live = id % 5 != 0
            let current = projection.tables[trip].lookup(
                unique: name,
                .string(renamed ? "Renamed \(id)" : "Trip \(id)")
            )
            #expect(current == (live ? id : nil), "trip \(id)")
            if renamed { #expect(projection.tables[trip].lookup(unique: name, .string("Trip \(id)")) == nil) }
        }
        #expect(projection.tables[trip].uniqueIndexContents[0].count == 400)
    }
}
