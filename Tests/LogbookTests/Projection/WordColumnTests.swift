import Testing

@testable import Logbook

/// A column of words read in place from a checkpoint's bytes until it is first written, then
/// held in an array: reads before and after agree, and a write never changes the bytes.
struct WordColumnTests {
    /// `count` little-endian words 10, 20, 30…, after `prefix` bytes of something else.
    private static func region(prefix: Int, count: Int) -> CheckpointBytes {
        var bytes = [UInt8](repeating: 0xEE, count: prefix)
        for index in 0..<count {
            withUnsafeBytes(of: UInt64(index * 10 + 10).littleEndian) { bytes.append(contentsOf: $0) }
        }
        return CheckpointBytes(copying: bytes)
    }

    @Test(arguments: [0, 3, 8]) func aStoredColumnReadsTheWordsWhereTheyLie(prefix: Int) {
        let region = Self.region(prefix: prefix, count: 5)
        let column = WordColumn(stored: region, offset: prefix, count: 5)
        #expect(column.isStored)
        #expect(Array(column) == [10, 20, 30, 40, 50])
        #expect(column.count == 5)
    }

    @Test func theFirstWriteCopiesTheColumnAndLeavesTheBytesAsTheyWere() {
        let region = Self.region(prefix: 4, count: 4)
        var column = WordColumn(stored: region, offset: 4, count: 4)
        let before = column
        column[2] = 99
        #expect(!column.isStored)
        #expect(Array(column) == [10, 20, 99, 40])
        // A copy taken before the write still reads the checkpoint's words.
        #expect(before.isStored)
        #expect(Array(before) == [10, 20, 30, 40])
        #expect(Array(WordColumn(stored: region, offset: 4, count: 4)) == [10, 20, 30, 40])
    }

    @Test func appendingToAStoredColumnKeepsItsWordsFirst() {
        var column = WordColumn(stored: Self.region(prefix: 0, count: 2), offset: 0, count: 2)
        column.append(7)
        column.append(8)
        #expect(Array(column) == [10, 20, 7, 8])
    }

    @Test func aColumnMadeFromAnArrayIsNotStored() {
        var column = WordColumn([1, 2])
        #expect(!column.isStored)
        column[0] = 5
        #expect(Array(column) == [5, 2])
        #expect(WordColumn().isEmpty)
    }
}
