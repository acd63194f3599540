import CMemoryHints
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The values of a ``ValueColumn`` that are still in a checkpoint's cells: which are decoded.
///
/// One state byte per cell: 0 until a reader claims the cell, 1 while that reader decodes it,
/// 2 once its value is in the column's storage. A reader claims a cell by changing its byte from
/// 0 to 1 (compare-and-swap), so that no two readers write one value; it writes the value, then
/// stores 2 with release ordering, and a reader that sees 2 with acquire ordering sees the value.
/// A reader that finds a cell claimed by another waits the microseconds its decoding takes.
///
/// There is no lock. Two passes often meet on one column, as the unique index build decoding the
/// names of a table on another thread while a first fetch decodes the dates it sorts by: under a
/// lock, the fetch waited for the build.
final class LazyValues: @unchecked Sendable {
    /// The cells the values are decoded from.
    let cells: CheckpointCells
    private let states: UnsafeMutablePointer<UInt8>
    /// The number of cells not decoded yet, changed atomically.
    private let remaining: UnsafeMutablePointer<Int>
    /// Set, with release ordering, once every cell is decoded.
    private let complete: UnsafeMutablePointer<UInt8>

    /// A cell's states; 1, claimed, is written by `logbook_claim`.
    private static let undecoded: UInt8 = 0
    private static let decoded: UInt8 = 2

    /// - Throws: ``ValueColumn/AllocationFailure`` when the state bytes, one per cell, cannot
    ///   be had.
    init(_ cells: CheckpointCells) throws(ValueColumn.AllocationFailure) {
        // Zeroed memory (`undecoded`) from `calloc`: a large block comes straight from the
        // system, whose pages are zero until touched, so the states of cells never read cost
        // no memory and no time.
        guard let zeroed = calloc(Swift.max(cells.count, 1), MemoryLayout<UInt8>.stride) else {
            throw ValueColumn.AllocationFailure(values: cells.count, bytes: cells.count)
        }
        self.cells = cells
        states = zeroed.bindMemory(to: UInt8.self, capacity: Swift.max(cells.count, 1))
        complete = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        complete.initialize(to: cells.count == 0 ? 1 : 0)
        remaining = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        remaining.initialize(to: cells.count)
    }

    deinit {
        free(states)
        complete.deallocate()
        remaining.deallocate()
    }

    /// Whether every cell is decoded.
    @inline(__always)
    var isComplete: Bool { logbook_load_acquire(complete) != 0 }

    /// Whether at most one in a thousand of the values are decoded: the table is read an object
    /// here and there, and what such a read maps of the checkpoint is let go of afterwards (see
    /// ``decodeRows(_:into:)``). A count that another reader is changing at once is read a
    /// little early or late, which moves the share by a few values.
    var isReadSparsely: Bool {
        logbook_load_relaxed(remaining) >= cells.count &- cells.count / 1_000
    }

    /// Whether the value of cell `index` is in the storage.
    @inline(__always)
    func isDecoded(_ index: Int) -> Bool {
        logbook_load_acquire(states + index) == Self.decoded
    }

    /// Decodes cell `index` into `base[index]`, unless another reader did; returns once the
    /// value is there.
    func decode(_ index: Int, into base: UnsafeMutablePointer<AttributeValue>) {
        if claimAndDecode(index, into: base) { noteDecoded(1) }
    }

    /// The value of cell `index`, decoded from the cell whether or not it is decoded into the
    /// storage: the cells never change, and a value is placed in the storage instead of decoded
    /// only by a caller that holds the column alone.
    func peek(_ index: Int) -> AttributeValue {
        Self.value(cells, index)
    }

    /// Puts `value`, written before cell `index` was ever read, into `base[index]`: the cell is
    /// not decoded. The caller holds the column alone.
    func place(_ value: AttributeValue, at index: Int, into base: UnsafeMutablePointer<AttributeValue>) {
        if logbook_claim(states + index) != 0 {
            (base + index).initialize(to: value)
            logbook_store_release(states + index, Self.decoded)
            noteDecoded(1)
        } else {
            waitUntilDecoded(index)
            base[index] = value
        }
    }

    /// Decodes the cells from `start` on, every `step`-th, that are not decoded yet.
    func decode(from start: Int, every step: Int, into base: UnsafeMutablePointer<AttributeValue>) {
        precondition(step > 0 && start >= 0, "a positive step from a cell")
        var done = 0
        var index = start
        while index < cells.count {
            if claimAndDecode(index, into: base) { done &+= 1 }
            index &+= step
        }
        if done > 0 { noteDecoded(done) }
    }

    /// Decodes every cell not decoded yet.
    func decodeAll(into base: UnsafeMutablePointer<AttributeValue>) {
        guard !isComplete else { return }
        decode(from: 0, every: 1, into: base)
    }

    /// Copies the decoded values from `base` into `target`, the storage of a copy of the
    /// column, and returns that copy's states: the values not decoded yet (or being decoded by
    /// another reader now) stay in the cells for the copy, which decodes them itself.
    func copyDecoded(
        from base: UnsafeMutablePointer<AttributeValue>,
        into target: UnsafeMutablePointer<AttributeValue>
    ) throws(ValueColumn.AllocationFailure) -> LazyValues {
        let copy = try LazyValues(cells)
        var copied = 0
        for index in 0..<cells.count where isDecoded(index) {
            (target + index).initialize(to: base[index])
            copy.states[index] = Self.decoded
            copied &+= 1
        }
        copy.remaining.pointee = cells.count - copied
        if copied == cells.count { copy.complete.pointee = 1 }
        return copy
    }

    /// Decodes cell `index` if this reader claims it, and returns whether it did; otherwise
    /// waits until the reader that claimed it is done.
    @inline(__always)
    private func claimAndDecode(_ index: Int, into base: UnsafeMutablePointer<AttributeValue>) -> Bool {
        if isDecoded(index) { return false }
        guard logbook_claim(states + index) != 0 else {
            waitUntilDecoded(index)
            return false
        }
        (base + index).initialize(to: Self.value(cells, index))
        logbook_store_release(states + index, Self.decoded)
        return true
    }

    /// Waits for the reader that claimed cell `index` to finish decoding it.
    private func waitUntilDecoded(_ index: Int) {
        while !isDecoded(index) { sched_yield() }
    }

    /// Counts `count` more cells decoded, and marks the values complete after the last: the
    /// cells' pages are then let go of, so that a table read through holds its values once, in
    /// the column, not twice.
    ///
    /// - Returns: The number of cells still to decode.
    @discardableResult
    private func noteDecoded(_ count: Int) -> Int {
        let before = logbook_fetch_subtract(remaining, count)
        guard before == count else { return before &- count }
        logbook_store_release(complete, 1)
        cells.dropPages()
        return 0
    }

    /// Decodes the cells of the objects in `rows` (each an object's range of cells) that are not
    /// decoded yet.
    ///
    /// While at most one in a thousand of the table's values are decoded, it then lets go of the
    /// pages around those cells and the heap bytes they refer to (see
    /// ``CheckpointCells/dropChunks(holding:)``). A read of one object maps 64 KiB of the file
    /// around each of them and checks the chunk, for the hundred bytes it decodes: a first screen
    /// of 20 trips and their 100 items held 4 MiB of the file that nothing reads again. A table
    /// read object by object past that share keeps its pages until it is read through, and lets
    /// all of them go then; the share bounds the system calls that letting go costs (at one in
    /// a hundred, they and the faults after them cost a table read through about 5%).
    func decodeRows(_ rows: some Sequence<Range<Int>>, into base: UnsafeMutablePointer<AttributeValue>) {
        // Past the share, the rows are not even noted.
        let lettingGo = isReadSparsely
        var done = 0
        var decoded: [Range<Int>] = []
        for row in rows {
            let cellsOfRow = row.clamped(to: 0..<cells.count)
            var decodedHere = false
            for index in cellsOfRow where claimAndDecode(index, into: base) {
                done &+= 1
                decodedHere = true
            }
            if lettingGo && decodedHere { decoded.append(cellsOfRow) }
        }
        guard done > 0 else { return }
        let left = noteDecoded(done)
        if lettingGo && left > 0 { cells.dropChunks(holding: decoded) }
    }

    /// The value of a cell; one whose cell or heap bytes turn out damaged is read from the log
    /// instead (see ``CheckpointCells/recover(_:after:)``).
    private static func value(_ cells: CheckpointCells, _ index: Int) -> AttributeValue {
        switch cells.decode(index) {
        case .success(let value): return value
        case .failure(let damage): return cells.recover(index, after: damage)
        }
    }
}
