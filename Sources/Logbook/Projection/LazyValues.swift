import CMemoryHints
import Foundation

/// The values of a ``ValueColumn`` that are still in a checkpoint's cells: which are decoded,
/// and the lock they are decoded under.
///
/// One flag byte per cell, 0 until the cell's value is in the column's storage; it is set with
/// release ordering after the value is written, and read with acquire ordering, so that a reader
/// on another thread that sees the flag sees the value. Cells are decoded under a lock, so that
/// two readers of one column never write the same value twice.
final class LazyValues: @unchecked Sendable {
    /// The cells the values are decoded from.
    let cells: CheckpointCells
    private let decoded: UnsafeMutablePointer<UInt8>
    private let lock = NSLock()
    /// The number of cells not decoded yet; changed under `lock`.
    private var remaining: Int
    /// Set, with release ordering, once every cell is decoded.
    private let complete: UnsafeMutablePointer<UInt8>

    init(_ cells: CheckpointCells) {
        self.cells = cells
        decoded = UnsafeMutablePointer<UInt8>.allocate(capacity: Swift.max(cells.count, 1))
        decoded.initialize(repeating: 0, count: Swift.max(cells.count, 1))
        complete = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        complete.initialize(to: cells.count == 0 ? 1 : 0)
        remaining = cells.count
    }

    deinit {
        decoded.deallocate()
        complete.deallocate()
    }

    /// Whether every cell is decoded.
    @inline(__always)
    var isComplete: Bool { logbook_load_acquire(complete) != 0 }

    /// Whether the value of cell `index` is in the storage.
    @inline(__always)
    func isDecoded(_ index: Int) -> Bool {
        logbook_load_acquire(decoded + index) != 0
    }

    /// Decodes cell `index` into `base[index]`, unless another reader just did.
    func decode(_ index: Int, into base: UnsafeMutablePointer<AttributeValue>) {
        lock.lock()
        defer { lock.unlock() }
        guard decoded[index] == 0 else { return }
        (base + index).initialize(to: Self.value(cells, index))
        markDecoded(index)
    }

    /// Puts `value`, written before cell `index` was ever read, into `base[index]`: the cell is
    /// not decoded.
    func place(_ value: AttributeValue, at index: Int, into base: UnsafeMutablePointer<AttributeValue>) {
        lock.lock()
        defer { lock.unlock() }
        if decoded[index] == 0 {
            (base + index).initialize(to: value)
            markDecoded(index)
        } else {
            base[index] = value
        }
    }

    /// Decodes the cells from `start` on, every `step`-th, that are not decoded yet, under one
    /// taking of the lock.
    func decode(from start: Int, every step: Int, into base: UnsafeMutablePointer<AttributeValue>) {
        precondition(step > 0, "a positive step")
        lock.lock()
        defer { lock.unlock() }
        var index = start
        while index < cells.count {
            if decoded[index] == 0 {
                (base + index).initialize(to: Self.value(cells, index))
                markDecoded(index)
            }
            index &+= step
        }
    }

    /// Decodes every cell not decoded yet.
    func decodeAll(into base: UnsafeMutablePointer<AttributeValue>) {
        guard !isComplete else { return }
        decode(from: 0, every: 1, into: base)
    }

    /// Copies the decoded values from `base` into `target`, the storage of a copy of the
    /// column, and returns that copy's flags: the values not decoded yet stay in the cells for
    /// both columns.
    func copyDecoded(
        from base: UnsafeMutablePointer<AttributeValue>,
        into target: UnsafeMutablePointer<AttributeValue>
    ) -> LazyValues {
        let copy = LazyValues(cells)
        lock.lock()
        defer { lock.unlock() }
        for index in 0..<cells.count where decoded[index] != 0 {
            (target + index).initialize(to: base[index])
            copy.decoded[index] = 1
        }
        copy.remaining = remaining
        if remaining == 0 { copy.complete.pointee = 1 }
        return copy
    }

    /// Called under `lock`, once the value is in place.
    private func markDecoded(_ index: Int) {
        logbook_store_release(decoded + index, 1)
        remaining -= 1
        if remaining == 0 { logbook_store_release(complete, 1) }
    }

    /// The value of a cell, which ``CheckpointCells/check()`` verified when the checkpoint was
    /// loaded; a cell that fails to decode regardless reads as `null`.
    private static func value(_ cells: CheckpointCells, _ index: Int) -> AttributeValue {
        switch cells.decode(index) {
        case .success(let value): return value
        case .failure(let damage):
            assertionFailure("a checked cell failed to decode: \(damage.what)")
            return .null
        }
    }
}
