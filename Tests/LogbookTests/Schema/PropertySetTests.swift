import Testing

@testable import Logbook

/// `PropertySet` against `Set<Int>`: random inserts and removals of indexes below and above 64,
/// the one word that needs no allocation and the words past it.
struct PropertySetTests {
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func behavesLikeASetOfIndexes(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var set = PropertySet()
        var reference = Set<Int>()
        for _ in 0..<2_000 {
            let index = Int.random(in: 0..<(Bool.random(using: &random) ? 64 : 200), using: &random)
            if Int.random(in: 0..<3, using: &random) == 0 {
                set.remove(index)
                reference.remove(index)
            } else {
                let wasEmpty = set.insert(index)
                #expect(wasEmpty == reference.isEmpty, "insert(\(index)) reports whether the set was empty")
                reference.insert(index)
            }
            #expect(set.contains(index) == reference.contains(index))
            #expect(set.isEmpty == reference.isEmpty)
            #expect(set.count == reference.count)
            #expect(Array(set) == reference.sorted(), "the indexes in increasing order")
            if Int.random(in: 0..<50, using: &random) == 0 {
                set.removeAll()
                reference.removeAll()
                #expect(set.isEmpty && Array(set).isEmpty)
            }
        }
    }

    @Test func setsWithTheSameIndexesAreEqualWhateverTheirWords() {
        var wide = PropertySet([3, 70])
        wide.remove(70)
        #expect(wide == PropertySet([3]))
        #expect(wide.hashValue == PropertySet([3]).hashValue)
        #expect(Array(wide) == [3])
        let wasEmpty = wide.insert(130)
        #expect(!wasEmpty, "not empty before")
        #expect(Array(wide) == [3, 130])
        wide.remove(3)
        wide.remove(130)
        #expect(wide.isEmpty)
        let wasEmptyAgain = wide.insert(5)
        #expect(wasEmptyAgain, "empty before, with words past the first still allocated")
    }
}
