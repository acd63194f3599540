import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Logbook

/// A column loaded from a checkpoint decodes each value once, on first read, whichever threads
/// read it and in whatever order: passes over different attributes, reads of single values and a
/// copy made for a change all meet on one column at once.
struct LazyValuesTests {
    /// Two attributes per slot: a string (in the heap) and an integer (in the cell).
    private static let width = 2

    private static func expected(_ index: Int) -> AttributeValue {
        index.isMultiple(of: width)
            ? .string("name of slot \(index / width), long enough for the heap") : .int(Int64(index))
    }

    /// Checkpoint cells for `slots` slots: the cells, then the heap the strings lie in.
    private static func cells(slots: Int) -> CheckpointCells {
        let count = slots * width
        var heap: [UInt8] = []
        var cellBytes: [UInt8] = []
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { cellBytes.append(contentsOf: $0) }
        }
        for index in 0..<count {
            switch expected(index) {
            case .string(let text):
                let utf8 = Array(text.utf8)
                append(EventCodec.ValueTag.string.rawValue)
                cellBytes.append(contentsOf: [0, 0, 0])
                append(UInt32(utf8.count))
                append(UInt64(heap.count))
                heap.append(contentsOf: utf8)
            case .int(let number):
                append(EventCodec.ValueTag.int.rawValue)
                cellBytes.append(contentsOf: [0, 0, 0])
                append(UInt32(0))
                append(UInt64(bitPattern: number))
            default:
                preconditionFailure("only strings and integers here")
            }
        }
        let region = CheckpointBytes(copying: cellBytes + heap)
        return CheckpointCells(
            region: region,
            cells: 0..<cellBytes.count,
            heap: cellBytes.count..<(cellBytes.count + heap.count),
            count: count
        )
    }

    @Test(arguments: 1...4) func passesReadsAndACopyOnSeveralThreadsDecodeEachValueRight(round: Int) throws {
        let slots = 40_000
        let cells = Self.cells(slots: slots)
        #expect(cells.check() == nil)
        let column = try ValueColumn(decodingOnRead: cells)
        #expect(column.decodesOnRead)
        let width = Self.width
        let mismatches = Mutex(0)
        let copies = Mutex<[ValueColumn]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            var wrong = 0
            switch (worker + round) % 4 {
            case 0:
                // The unique index build's pass: the names, slot by slot.
                column.decode(attributes: [0], width: width)
                for slot in stride(from: 0, to: slots, by: 7) where column[slot * width] != Self.expected(slot * width)
                {
                    wrong += 1
                }
            case 1:
                // A sort's pass over the numbers, from the end, then everything at once.
                for slot in (0..<slots).reversed() where column[slot * width + 1] != Self.expected(slot * width + 1) {
                    wrong += 1
                }
                column.withUnsafeBufferPointer { values in
                    for index in values.indices where values[index] != Self.expected(index) { wrong += 1 }
                }
            case 2:
                // Single reads all over the column.
                var generator = SeededGenerator(seed: UInt64(round))
                for _ in 0..<50_000 {
                    let index = Int.random(in: 0..<(slots * width), using: &generator)
                    if column[index] != Self.expected(index) { wrong += 1 }
                }
            default:
                // A change copies the shared column while the others decode it.
                var copy = column
                do {
                    try copy.reserve(adding: 1)
                } catch {
                    wrong += 1
                }
                copy[3] = .int(-3)
                copies.withLock { $0.append(copy) }
            }
            mismatches.withLock { $0 += wrong }
        }
        #expect(mismatches.withLock { $0 } == 0)
        #expect(!column.decodesOnRead, "every value was read")
        #expect(column[3] == Self.expected(3), "the copy's change stays in the copy")
        let copy = try #require(copies.withLock { $0.first })
        #expect(copy[3] == .int(-3))
        var wrongInCopy = 0
        copy.withUnsafeBufferPointer { values in
            for index in values.indices where index != 3 && values[index] != Self.expected(index) { wrongInCopy += 1 }
        }
        #expect(wrongInCopy == 0)
        #expect(!copy.decodesOnRead)
    }

    @Test func aValueWrittenBeforeItWasReadIsNeverDecodedAndCountsAsDone() throws {
        let cells = Self.cells(slots: 2)
        var column = try ValueColumn(decodingOnRead: cells)
        #expect(column.isUndecoded(0))
        column[0] = .string("written")
        #expect(!column.isUndecoded(0))
        #expect(column[0] == .string("written"))
        #expect(column.decodesOnRead)
        for index in 1..<4 { _ = column[index] }
        #expect(!column.decodesOnRead, "three decoded and one written: complete")
        #expect(column[1] == Self.expected(1) && column[2] == Self.expected(2))
    }

    @Test(arguments: [1, 2, 7, 8]) func aPassOverOneAttributeDecodesItAndNoOther(slots: Int) throws {
        let column = try ValueColumn(decodingOnRead: Self.cells(slots: slots))
        column.decode(attributes: [1], width: Self.width)
        for index in 0..<(slots * Self.width) {
            #expect(column.isUndecoded(index) == index.isMultiple(of: Self.width), "cell \(index)")
        }
        #expect(column.decodesOnRead)
        column.decode(attributes: [0], width: Self.width)
        #expect(!column.decodesOnRead)
        for index in 0..<(slots * Self.width) { #expect(column[index] == Self.expected(index)) }
    }

    /// A pass of peeks reads values written, decoded and still in their cells alike, decodes
    /// none into the column, and stops where its body says.
    @Test func aPassOfPeeksReadsEveryKindOfValueAndDecodesNone() throws {
        let slots = 6
        var column = try ValueColumn(decodingOnRead: Self.cells(slots: slots))
        column[2 * Self.width + 1] = .int(-1)
        _ = column[3 * Self.width + 1]
        var seen: [AttributeValue] = []
        let whole = column.peekEach(from: 1, every: Self.width, count: slots) { position, value in
            #expect(column.peek(position * Self.width + 1) == value)
            seen.append(value)
            return true
        }
        #expect(whole)
        #expect(seen == (0..<slots).map { $0 == 2 ? .int(-1) : Self.expected($0 * Self.width + 1) })
        #expect(column.isUndecoded(1) && column.isUndecoded(4 * Self.width + 1))
        var read = 0
        let stopped = column.peekEach(from: 0, every: Self.width, count: slots) { position, value in
            #expect(value == Self.expected(position * Self.width))
            read += 1
            return position < 2
        }
        #expect(!stopped && read == 3)
        #expect(column.peekEach(from: 0, every: 1, count: 0) { _, _ in false })
    }
}
