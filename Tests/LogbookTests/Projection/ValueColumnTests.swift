import Foundation
import Synchronization
import Testing

@testable import Logbook

/// The column that holds a table's values: growth by `realloc` only where a reservation asks for
/// it, copies that share storage until one changes, and values released when they are
/// overwritten or the column goes away.
struct ValueColumnTests {
    @Test func growingKeepsEveryValueInPlace() throws {
        var column = ValueColumn()
        // Long strings live in allocations of their own, which each move must carry along.
        for index in 0..<20_000 {
            try column.reserve(adding: 1)
            column.append(
                index.isMultiple(of: 2) ? .string("value number \(index) of a long column") : .int(Int64(index))
            )
        }
        try column.reserve(adding: 5)
        column.appendNulls(5)
        #expect(column.count == 20_005)
        var mismatches = 0
        column.withUnsafeBufferPointer { values in
            for index in 0..<20_000 {
                let expected: AttributeValue =
                    index.isMultiple(of: 2) ? .string("value number \(index) of a long column") : .int(Int64(index))
                if values[index] != expected { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
        #expect((20_000..<20_005).allSatisfy { column[$0] == .null })
    }

    /// A column of over a million values, grown a slot at a time and then in one large step,
    /// keeps every value, and its copy keeps its own.
    @Test func aLargeColumnGrownSlotBySlotAndAtOnceKeepsEveryValue() throws {
        var column = ValueColumn()
        let count = 800_000
        for index in 0..<count {
            try column.reserve(adding: 1)
            column.appendNulls(1)
            if index.isMultiple(of: 1_000) { column[index] = .int(Int64(index)) }
        }
        let copy = column
        try column.reserve(adding: 600_000)
        column.appendNulls(600_000)
        column[count + 599_999] = .string("the last value of a long column")
        #expect(column.count == count + 600_000)
        #expect(copy.count == count)
        #expect((0..<count).allSatisfy { column[$0] == (($0).isMultiple(of: 1_000) ? .int(Int64($0)) : .null) })
        #expect(column[count + 599_999] == .string("the last value of a long column"))
        #expect(column[count + 599_998] == .null)
        #expect(copy[count - 1_000] == .int(Int64(count - 1_000)))
    }

    /// The comparison in place that a lookup by unique value makes answers as `==` does: strings
    /// by canonical equivalence, and a value of another kind never equal.
    @Test func aValueComparedInPlaceEqualsWhatEqualityGives() throws {
        let stored: [AttributeValue] = [
            .string("caf\u{E9} on the corner, a name long enough to live in its own allocation"),
            .string("short"),
            .int(42),
            .null,
            .date(Date(timeIntervalSinceReferenceDate: 1_000)),
        ]
        var column = ValueColumn()
        try column.reserve(adding: stored.count)
        for value in stored { column.append(value) }
        let queries: [AttributeValue] =
            stored + [
                .string("cafe\u{301} on the corner, a name long enough to live in its own allocation"),
                .string("shorter"),
                .string("42"),
                .int(43),
                .date(Date(timeIntervalSinceReferenceDate: 1_001)),
            ]
        for (index, value) in stored.enumerated() {
            for query in queries {
                #expect(column.holds(query, at: index) == (value == query), "\(value) against \(query)")
            }
        }
        #expect(column.holds(queries[5], at: 0), "é precomposed and decomposed are the same string")
    }

    @Test func aCopyKeepsItsValuesWhenTheOtherChanges() throws {
        var original = ValueColumn()
        try original.reserve(adding: 2)
        original.append(.string("Lisbon"))
        original.append(.int(7))
        var copy = original
        try copy.reserve(adding: 1)
        copy[0] = .string("Porto")
        copy.append(.bool(true))
        copy.withUnsafeMutableBufferPointer { $0[1] = .int(8) }
        #expect(original.count == 2)
        #expect(original[0] == .string("Lisbon"))
        #expect(original[1] == .int(7))
        #expect(copy.count == 3)
        #expect([copy[0], copy[1], copy[2]] == [.string("Porto"), .int(8), .bool(true)])

        // The other way round: changing the original leaves a copy as it was.
        let snapshot = original
        try original.reserve(adding: 100)
        original.appendNulls(100)
        original[0] = .null
        #expect(snapshot.count == 2)
        #expect(snapshot[0] == .string("Lisbon"))
    }

    @Test func valuesAreReleasedWhenOverwrittenAndWhenTheColumnGoesAway() throws {
        let released = ReleaseCounter()
        do {
            var column = ValueColumn()
            try column.reserve(adding: 1_002)
            column.append(released.trackedData())
            column.append(released.trackedData())
            column.appendNulls(1_000)
            column[0] = .null
            #expect(released.count == 1, "the overwritten value is released")
            let copy = column
            try column.reserve(adding: 0)
            column[1] = .null
            #expect(released.count == 1, "the copy still holds the second value")
            #expect(copy[1] != .null)
        }
        #expect(released.count == 2, "dropping the columns releases what they held")
    }

    /// A column that goes away releases every value once, whatever kind of string sits around
    /// it: small, literal, and native ones, whose objects it asks for ahead of releasing them.
    @Test func droppingALargeColumnReleasesEveryValueBetweenStringsOfEveryKind() throws {
        let released = ReleaseCounter()
        let strings: [String] = [
            "Lisbon",
            "a literal string longer than fifteen bytes",
            String(repeating: "Sintra ", count: 5),
            String(decoding: Array("decoded from bytes, long enough to be native".utf8), as: UTF8.self),
            String("a substring made into a string of its own".dropFirst(2)),
            "",
        ]
        var stringsAdded: [String] = []
        do {
            var column = ValueColumn()
            try column.reserve(adding: 3_000)
            for position in 0..<3_000 {
                if position % 3 == 0 {
                    column.append(released.trackedData())
                } else {
                    let string = strings[position % strings.count] + (position % 2 == 0 ? "" : " #\(position)")
                    stringsAdded.append(string)
                    column.append(.string(string))
                }
            }
            #expect(column.count == 3_000)
            #expect(column[2] == .string(stringsAdded[1]))
        }
        #expect(released.count == 1_000, "every value is released once")
        // The strings the column held are still whole in their other owner.
        #expect(stringsAdded.count == 2_000)
        #expect(stringsAdded[1] == strings[2 % strings.count])
    }

    // MARK: - Memory that cannot be had

    /// A reservation larger than the address space: `realloc` refuses it, the column throws and
    /// keeps its values, its capacity and its room, and a reasonable reservation still works.
    @Test func aReservationTheSystemRefusesThrowsAndLeavesTheColumnAsItWas() throws {
        var column = ValueColumn()
        try column.reserve(adding: 3)
        column.append(.string("Lisbon in spring, a name longer than fifteen bytes"))
        column.append(.int(7))
        let capacity = column.capacity
        // 2^44 values of 24 bytes: 384 TiB, more than a process can map.
        let refused = 1 << 44
        #expect(throws: ValueColumn.AllocationFailure(values: 2 + refused, bytes: (2 + refused) * 24)) {
            try column.reserve(adding: refused)
        }
        #expect(MemoryLayout<AttributeValue>.stride == 24, "the expected byte count above assumes 24-byte values")
        #expect(column.count == 2)
        #expect(column.capacity == capacity)
        #expect(column[0] == .string("Lisbon in spring, a name longer than fifteen bytes"))
        column.append(.bool(true))
        try column.reserve(adding: 1_000)
        column.appendNulls(1_000)
        #expect(column.count == 1_003)
        #expect(column[2] == .bool(true))
    }

    /// A count of values whose bytes do not fit in an `Int` fails without asking the system.
    @Test func aReservationWhoseBytesOverflowThrows() throws {
        var column = ValueColumn()
        try column.reserve(adding: 1)
        column.append(.int(1))
        #expect(throws: ValueColumn.AllocationFailure(values: 1 + Int.max / 2, bytes: nil)) {
            try column.reserve(adding: Int.max / 2)
        }
        #expect(throws: ValueColumn.AllocationFailure(values: .max, bytes: nil)) {
            try column.reserve(adding: Int.max)
        }
        #expect(column.count == 1)
        #expect(column[0] == .int(1))
    }

    /// Past the byte limit a reservation fails as one the system refuses; growth that cannot
    /// double takes exactly what is needed when that fits.
    @Test func aReservationPastTheLimitThrowsAndOneThatCannotDoubleTakesWhatItNeeds() throws {
        var column = ValueColumn()
        let limit = 1_000 * MemoryLayout<AttributeValue>.stride
        try column.reserve(adding: 600, limit: limit)
        column.appendNulls(600)
        #expect(column.capacity == 600)
        #expect(
            throws: ValueColumn.AllocationFailure(values: 1_001, bytes: 1_001 * MemoryLayout<AttributeValue>.stride)
        ) {
            try column.reserve(adding: 401, limit: limit)
        }
        #expect(column.capacity == 600)
        // Doubling to 1,200 would pass the limit; the 1,000 values needed do not.
        try column.reserve(adding: 400, limit: limit)
        #expect(column.capacity == 1_000)
        column.appendNulls(400)
        #expect(column.count == 1_000)
    }

    /// A shared column is copied by its reservation; when the copy cannot be had, both columns
    /// keep their values and the one that asked still shares them.
    @Test func aSharedColumnIsCopiedByItsReservationOrLeftSharedWhenTheCopyFails() throws {
        var column = ValueColumn()
        try column.reserve(adding: 100)
        for index in 0..<100 { column.append(.string("value \(index) of a column shared with a copy")) }
        let copy = column
        let limit = 50 * MemoryLayout<AttributeValue>.stride
        #expect(throws: ValueColumn.AllocationFailure.self) { try column.reserve(adding: 0, limit: limit) }
        #expect(column[99] == .string("value 99 of a column shared with a copy"))
        try column.reserve(adding: 0)
        column[99] = .null
        #expect(column[99] == .null)
        #expect(copy[99] == .string("value 99 of a column shared with a copy"), "the copy keeps its own value")
        #expect(copy.count == 100)
    }
}

/// Makes `Data` values that count their releases.
private final class ReleaseCounter: Sendable {
    private let released = Atomic(0)

    /// The number of values made here that were released.
    var count: Int { released.load(ordering: .relaxed) }

    /// A value holding bytes of its own, whose release this counter counts.
    func trackedData() -> AttributeValue {
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 8)
        return .data(
            Data(
                bytesNoCopy: bytes,
                count: 16,
                deallocator: .custom { [self] pointer, _ in
                    pointer.deallocate()
                    released.add(1, ordering: .relaxed)
                }
            )
        )
    }
}
