import Foundation
import Testing

@testable import Logbook

/// The bytes a unique index keeps of each value: they answer a lookup where they are equal,
/// and the table's rows answer everywhere else.
struct UniqueIndexKeyBytesTests {
    /// An index holding `value` for the object 7 in slot 3.
    private func index(holding value: AttributeValue) -> UniqueIndex {
        var index = UniqueIndex()
        let hash = UniqueIndex.hash(value)
        guard case .vacant(let bucket) = index.probe(hash, where: { _ in false }) else {
            Issue.record("an empty index found \(value)")
            return index
        }
        index.insert(hash, slot: 3, id: 7, value: value, at: bucket)
        return index
    }

    /// An index holding each of `names` for the object `firstID + slot` in its slot.
    private func index(holding names: [String], firstID: UInt64) throws -> UniqueIndex {
        var index = UniqueIndex()
        for (slot, name) in names.enumerated() {
            let hash = UniqueIndex.hash(.string(name))
            guard case .vacant(let bucket) = index.probe(hash, where: { names[$0] == name }) else {
                throw IndexError(description: "\(name) was found before it was inserted")
            }
            index.insert(hash, slot: slot, id: firstID + UInt64(slot), value: .string(name), at: bucket)
        }
        return index
    }

    private struct IndexError: Error, CustomStringConvertible {
        let description: String
    }

    /// What a lookup of `value` finds when the rows say `rowsMatch`.
    private func find(_ value: AttributeValue, in index: UniqueIndex, rowsMatch: Bool) -> UniqueIndex.Holder? {
        index.find(UniqueIndex.hash(value), value, where: { _ in rowsMatch })
    }

    @Test(arguments: [
        AttributeValue.string("Lisbon, spring"),
        .string(""),
        .string("caf\u{E9}"),
        .int(-42),
        .uint(42),
        .uuid(UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF") ?? UUID()),
    ])
    func equalBytesFindTheEntryWithoutTheRows(value: AttributeValue) throws {
        let index = index(holding: value)
        let found = try #require(find(value, in: index, rowsMatch: false))
        #expect(found.id == 7)
        #expect(found.slot == 3)
    }

    @Test(arguments: [
        AttributeValue.double(1.5),
        .date(Date(timeIntervalSinceReferenceDate: 0)),
        .data(Data([1, 2, 3])),
        .string(String(repeating: "long name ", count: 30)),
    ])
    func valuesWhoseBytesAreNotKeptAreComparedInTheRows(value: AttributeValue) {
        let index = index(holding: value)
        #expect(find(value, in: index, rowsMatch: false) == nil)
        #expect(find(value, in: index, rowsMatch: true)?.id == 7)
    }

    @Test func aStringSpelledDifferentlyIsFoundThroughTheRows() {
        let index = index(holding: .string("caf\u{E9}"))
        let decomposed = AttributeValue.string("cafe\u{301}")
        // Equal strings hash alike, but their bytes differ: only the rows can say they match.
        #expect(find(decomposed, in: index, rowsMatch: false) == nil)
        #expect(find(decomposed, in: index, rowsMatch: true)?.slot == 3)
    }

    @Test func aReplacedEntryAnswersWithItsNewObject() throws {
        var index = index(holding: .string("Paris"))
        let hash = UniqueIndex.hash(.string("Paris"))
        guard case .found(let slot, let bucket) = index.probe(hash, where: { _ in true }) else {
            Issue.record("the index lost Paris")
            return
        }
        #expect(slot == 3)
        index.replace(at: bucket, slot: 11, id: 20)
        let found = try #require(find(.string("Paris"), in: index, rowsMatch: false))
        #expect(found.id == 20)
        #expect(found.slot == 11)
        #expect(index.slots == [11])
    }

    @Test func removedEntriesAreDroppedOnceTheyAreHalfTheWords() throws {
        let names = (0..<1_000).map { "trip number \($0)" }
        var index = try index(holding: names, firstID: 100)
        // "trip number 123": 15 bytes, two words, after the tag.
        let full = index.keyWords
        #expect(full == 3_000)
        for slot in 0..<900 { index.remove(UniqueIndex.hash(.string(names[slot])), slot: slot) }
        #expect(index.count == 100)
        #expect(index.keyWords < full / 2)
        for slot in 0..<1_000 {
            let found = find(.string(names[slot]), in: index, rowsMatch: false)
            if slot < 900 {
                #expect(found == nil, "\(names[slot]) after its removal")
            } else {
                #expect(found?.id == UInt64(slot) + 100, "\(names[slot])")
                #expect(found?.slot == slot)
            }
        }
    }

    /// An entry's key record stays with it when it moves to another slot, when other entries
    /// are removed and shift back past it, and when the records are copied together.
    @Test func keyRecordsFollowTheirEntriesThroughReplacesRemovesAndCompaction() throws {
        let names = (0..<2_000).map { "destination \($0) of a long trip" }
        var index = try index(holding: names, firstID: 1)
        // Every third entry moves to a slot past the first 2,000, as an upsert's merge moves it.
        var slotOf = Array(0..<names.count)
        for slot in stride(from: 0, to: names.count, by: 3) {
            let hash = UniqueIndex.hash(.string(names[slot]))
            guard case .found(_, let bucket) = index.probe(hash, where: { $0 == slotOf[slot] }) else {
                Issue.record("\(names[slot]) was lost before its replace")
                return
            }
            slotOf[slot] = 10_000 + slot
            index.replace(at: bucket, slot: slotOf[slot], id: UInt64(slot) + 50_000)
        }
        let full = index.keyWords
        // Remove three entries in four: more than half the records' words, so that the live
        // records are copied together.
        for slot in names.indices where slot % 4 != 0 {
            index.remove(UniqueIndex.hash(.string(names[slot])), slot: slotOf[slot])
        }
        #expect(index.count == 500)
        #expect(index.keyWords < full / 2)
        for slot in names.indices {
            // The rows never match: only the key record can find the entry.
            let found = find(.string(names[slot]), in: index, rowsMatch: false)
            if slot % 4 != 0 {
                #expect(found == nil, "\(names[slot]) after its removal")
                continue
            }
            let holder = try #require(found, "\(names[slot])")
            #expect(holder.slot == slotOf[slot])
            #expect(holder.id == (slot % 3 == 0 ? UInt64(slot) + 50_000 : UInt64(slot) + 1))
            #expect(holder.hasSameBytes)
        }
    }
}
