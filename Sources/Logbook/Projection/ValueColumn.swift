import CMemoryHints

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The attribute values of a table, ``EntityTable/width`` per slot: an array of values whose
/// memory grows with `realloc`.
///
/// A table of half a million objects holds tens of megabytes of values. An `Array` grows by
/// allocating a block twice as large, moving its elements there and freeing the old block; a
/// block that large is fresh memory each time, so the values' pages were faulted in about twice
/// over and copied on the way. `realloc` grows a large block where it is, or moves its pages
/// without touching them (`mremap` on Linux), so that a replay faults in each page of its values
/// once.
///
/// Copies share their storage, as an `Array`'s do, until one of them reserves room to change,
/// which copies it.
///
/// Memory is only ever asked for by ``reserve(adding:limit:)``, which throws when it cannot be
/// had and leaves the column as it was: a save reserves the room its batch needs before the
/// batch is written, so that a failed allocation fails the save instead of ending the process.
/// Every other change requires a column that holds its storage alone and has room for the
/// change (a precondition): a column never allocates behind its caller's back.
///
/// A column loaded from a checkpoint (``init(decodingOnRead:limit:)``) starts with its values
/// still in the checkpoint's cells and decodes each the first time it is read, so that an open
/// costs what it reads: a fetch of 20 objects decodes their values and the values it sorts by,
/// not every value of the table. A value is decoded under the column's lock and published with
/// a flag per value; a read checks that flag first. Reading the values through
/// ``withUnsafeBufferPointer(_:)`` decodes every value that is not yet; the fetches that read only
/// some use ``withUnsafeBufferPointer(decodingSlots:width:_:)`` or
/// ``withUnsafeBufferPointer(decodingAttributes:width:_:)``. Writing a value never decodes it.
struct ValueColumn: Sendable {
    /// The memory a ``ValueColumn/reserve(adding:limit:)`` asked for could not be had.
    struct AllocationFailure: Error, Equatable {
        /// The number of values the column was to hold.
        var values: Int
        /// The bytes those values take; `nil` when the count overflows an `Int` of bytes.
        var bytes: Int?
    }

    private var storage: Storage

    /// An empty column, which holds no memory until a ``reserve(adding:limit:)``.
    init() {
        storage = Storage()
    }

    /// A column of `cells.count` values still in a checkpoint's cells, each decoded when first
    /// read.
    ///
    /// - Throws: ``AllocationFailure`` when the room for the decoded values (reserved, not yet
    ///   touched) cannot be had under `limit` bytes, or the byte per value that says whether it
    ///   is decoded cannot be had at all.
    init(decodingOnRead cells: CheckpointCells, limit: Int = .max) throws(AllocationFailure) {
        storage = Storage(lazy: try LazyValues(cells))
        try storage.reserve(cells.count, limit: limit)
        storage.count = cells.count
    }

    /// The number of values.
    var count: Int { storage.count }

    /// Whether some values are still to be decoded from a checkpoint's cells.
    var decodesOnRead: Bool { storage.lazy.map { !$0.isComplete } ?? false }

    /// The checkpoint cells the column was loaded from, while some are still undecoded.
    var undecodedCells: CheckpointCells? {
        guard let lazy = storage.lazy, !lazy.isComplete else { return nil }
        return lazy.cells
    }

    /// Whether the value at `index` was never read nor written since the column was loaded from
    /// ``undecodedCells``, so that its cell there still holds it.
    func isUndecoded(_ index: Int) -> Bool {
        guard let lazy = storage.lazy, index < lazy.cells.count else { return false }
        return !lazy.isDecoded(index)
    }

    /// The value at `index`, without keeping it: one still in a checkpoint's cell is decoded for
    /// this read alone, and the column's memory for it is not touched. For a pass that reads one
    /// attribute of every object once (the first sort key of a limited fetch), where decoding
    /// into the column would write, and fault in, the memory of every object's values.
    func peek(_ index: Int) -> AttributeValue {
        precondition(UInt(bitPattern: index) < UInt(bitPattern: storage.count), "index out of range")
        if let lazy = storage.lazy, index < lazy.cells.count, !lazy.isDecoded(index) {
            return lazy.peek(index)
        }
        return storage.base[index]
    }

    /// Whether the column is still in a checkpoint's cells and read an object here and there
    /// (see ``LazyValues/isReadSparsely``).
    var isReadSparsely: Bool {
        storage.lazy?.isReadSparsely ?? false
    }

    /// ``peek(_:)`` of `count` values, every `step`-th from `start`, each passed to `body` with
    /// its position among them (0, 1, …) until `body` returns `false`; returns whether it went
    /// through all of them. The pass looks the column's storage up once, where a `peek` per
    /// value retained and released it for every one of SampleTrips-100k's 100,000 start dates.
    ///
    /// A pass over a column still in a checkpoint's cells lets go of the pages of cells it has
    /// gone through, a stretch at a time (see ``CheckpointCells/dropPages(cells:)``): the sort of
    /// a first screen reads one attribute of every object, which touches every page of the
    /// table's cells, and keeps a few. With each stretch it lets go of the heap's pages, which
    /// `body` reads at random when it compares objects on a later sort key (their names, when
    /// many trips start on the same day), and at the end of all the table's cells and heap:
    /// a value read again afterwards maps its page back from the page cache.
    func peekEach(
        from start: Int,
        every step: Int,
        count: Int,
        _ body: (Int, AttributeValue) -> Bool
    ) -> Bool {
        precondition(step > 0 && start >= 0 && count >= 0, "a pass from a value, forward")
        guard count > 0 else { return true }
        precondition(start + (count - 1) * step < storage.count, "index out of range")
        let storage = self.storage
        let base = storage.base
        guard let lazy = storage.lazy else {
            for position in 0..<count where !body(position, base[start &+ position &* step]) { return false }
            return true
        }
        let cells = lazy.cells
        let undecoded = cells.count
        // A megabyte of cells (a quarter of ``CheckpointBytes/stretch``): how far the pass reads
        // before it lets go of the pages it read past.
        let stretch = Swift.max(1, CheckpointBytes.stretch / 4 / CheckpointFormat.cellSize)
        var passed = start
        for position in 0..<count {
            let index = start &+ position &* step
            let value = index < undecoded && !lazy.isDecoded(index) ? lazy.peek(index) : base[index]
            if !body(position, value) { return false }
            if index &- passed >= stretch {
                // From the first cell: a comparison maps the cells of objects kept earlier again.
                let end = Swift.min(index, undecoded)
                if end > 0 { cells.dropPages(cells: 0..<end) }
                cells.dropHeapPages()
                passed = index
            }
        }
        cells.dropPages()
        return true
    }

    /// Makes sure the value at `index` is decoded. Reads of the storage's values go through
    /// this, or through one of the ranges below, first.
    @inline(__always)
    private func decode(_ index: Int) {
        guard let lazy = storage.lazy, index < lazy.cells.count, !lazy.isDecoded(index) else { return }
        lazy.decode(index, into: storage.base)
    }

    /// The value at `index`, which must be below ``count``.
    ///
    /// The checks' messages are constant on purpose: one that interpolated the index made the
    /// optimiser copy a whole ``EntityTable`` around each read in the replay, which took a
    /// migration's open from 5.9 to 7.5 billion instructions.
    subscript(index: Int) -> AttributeValue {
        @inline(__always) get {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: storage.count), "index out of range")
            decode(index)
            return storage.base[index]
        }
        @inline(__always) set {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: storage.count), "index out of range")
            requireOwnStorage()
            if let lazy = storage.lazy, index < lazy.cells.count, !lazy.isDecoded(index) {
                lazy.place(newValue, at: index, into: storage.base)
            } else {
                storage.base[index] = newValue
            }
        }
    }

    /// Starts loading the values from `index` on, `count` of them, into the cache without
    /// waiting for them (see ``Projection/prefetchValues(_:slot:)``); indexes past the end are
    /// ignored.
    ///
    /// Static, over a pointer to the column in place, whose storage it reads without retaining
    /// it (the caller holds the column): read as a value, the column's storage was retained and
    /// released around the two hints, two locked writes on a lookup's path.
    @inline(__always)
    static func prefetch(in column: UnsafePointer<ValueColumn>, from index: Int, count: Int) {
        Unmanaged.passUnretained(column.pointee.storage)._withUnsafeGuaranteedRef { storage in
            guard index >= 0, count > 0, index &+ count <= storage.count else { return }
            logbook_prefetch(UnsafeRawPointer(storage.base + index))
            // The values span two lines where they cross a line's end.
            logbook_prefetch(UnsafeRawPointer(storage.base + (index &+ count &- 1)))
        }
    }

    /// Whether the value at `index`, which must be below ``count``, equals `value`, as `==` says.
    ///
    /// Strings, the usual unique values, are compared in place. Through `==`, whose derived
    /// implementation switches over a copy of both values, the stored string was retained and
    /// released again: a locked write to memory that a lookup by unique value reads for the
    /// first time, which kept the lookup's other cache misses from overlapping with it.
    @inline(__always)
    func holds(_ value: AttributeValue, at index: Int) -> Bool {
        precondition(UInt(bitPattern: index) < UInt(bitPattern: storage.count), "index out of range")
        decode(index)
        let stored = UnsafePointer(storage.base + index)
        if case .string(let query) = value {
            guard case .string(let text) = stored.pointee else { return false }
            return text == query
        }
        return stored.pointee == value
    }

    /// Adds `added` `null`s at the end: a new slot's values. The room must be reserved.
    @inline(__always)
    mutating func appendNulls(_ added: Int) {
        precondition(added >= 0, "a column cannot grow by a negative count")
        requireOwnStorage()
        let start = storage.count
        storage.requireRoom(start &+ added)
        let base = storage.base
        // `null` holds nothing to retain: each is a store of its tag, which a generic
        // `initialize(repeating:count:)` would copy as a value of any case.
        for index in start..<(start &+ added) { (base + index).initialize(to: .null) }
        storage.count = start &+ added
    }

    /// Adds `value` at the end. The room must be reserved.
    mutating func append(_ value: AttributeValue) {
        requireOwnStorage()
        let index = storage.count
        storage.requireRoom(index &+ 1)
        (storage.base + index).initialize(to: value)
        storage.count = index &+ 1
    }

    /// Calls `body` with the values in place.
    func withUnsafeBufferPointer<Result>(
        _ body: (UnsafeBufferPointer<AttributeValue>) throws -> Result
    ) rethrows -> Result {
        // The column is borrowed while `body` runs, and with it the storage.
        storage.lazy?.decodeAll(into: storage.base)
        return try body(UnsafeBufferPointer(start: storage.base, count: storage.count))
    }

    /// ``withUnsafeBufferPointer(_:)`` for a caller that reads only the values of `slots`,
    /// `width` values each: only those are decoded.
    func withUnsafeBufferPointer<Result>(
        decodingSlots slots: some Sequence<Int>,
        width: Int,
        _ body: (UnsafeBufferPointer<AttributeValue>) throws -> Result
    ) rethrows -> Result {
        decode(slots: slots, width: width)
        return try body(UnsafeBufferPointer(start: storage.base, count: storage.count))
    }

    /// Decodes the `width` values of each of `slots` that are not yet (see
    /// ``LazyValues/decodeRows(_:into:)``).
    private func decode(slots: some Sequence<Int>, width: Int) {
        guard let lazy = storage.lazy, !lazy.isComplete else { return }
        lazy.decodeRows(slots.lazy.map { ($0 &* width)..<($0 &* width &+ width) }, into: storage.base)
    }

    /// Decodes the values of `attributes` in every slot, `width` values per slot, that are not
    /// yet: for a caller about to read them all, one slot after another.
    func decode(attributes: [Int], width: Int) {
        guard let lazy = storage.lazy, !lazy.isComplete, width > 0 else { return }
        for attribute in attributes {
            lazy.decode(from: attribute, every: width, into: storage.base)
        }
    }

    /// ``withUnsafeBufferPointer(_:)`` for a caller that reads only `attributes` of each slot,
    /// `width` values per slot: only those are decoded.
    func withUnsafeBufferPointer<Result>(
        decodingAttributes attributes: [Int],
        width: Int,
        _ body: (UnsafeBufferPointer<AttributeValue>) throws -> Result
    ) rethrows -> Result {
        decode(attributes: attributes, width: width)
        return try body(UnsafeBufferPointer(start: storage.base, count: storage.count))
    }

    /// Calls `body` with the values in place, to change them. `body` must not change the
    /// buffer itself, only its elements. The column must hold its storage alone.
    mutating func withUnsafeMutableBufferPointer<Result>(
        _ body: (inout UnsafeMutableBufferPointer<AttributeValue>) throws -> Result
    ) rethrows -> Result {
        requireOwnStorage()
        storage.lazy?.decodeAll(into: storage.base)
        return try inPlace(body)
    }

    /// ``withUnsafeMutableBufferPointer(_:)`` for a caller that reads and writes only the values
    /// of `slot`, `width` of them: only those are decoded.
    mutating func withUnsafeMutableBufferPointer<Result>(
        decodingSlot slot: Int,
        width: Int,
        _ body: (inout UnsafeMutableBufferPointer<AttributeValue>) throws -> Result
    ) rethrows -> Result {
        requireOwnStorage()
        decode(slots: CollectionOfOne(slot), width: width)
        return try inPlace(body)
    }

    /// Calls `body` with the storage's values, which the caller made sure are decoded where
    /// `body` reads them.
    private mutating func inPlace<Result>(
        _ body: (inout UnsafeMutableBufferPointer<AttributeValue>) throws -> Result
    ) rethrows -> Result {
        let base = storage.base
        let count = storage.count
        var buffer = UnsafeMutableBufferPointer(start: base, count: count)
        defer {
            precondition(buffer.baseAddress == base && buffer.count == count, "a column's buffer was replaced")
        }
        // Exclusive access to the column for as long as `body` runs keeps the storage alive.
        return try body(&buffer)
    }

    /// Makes the column hold its storage alone, with room for `added` values more than it has;
    /// does nothing when it already does. A column that grows doubles its capacity when it can,
    /// and takes exactly what it needs when doubling cannot be had; a shared column is copied
    /// with room for exactly what it needs.
    ///
    /// - Parameter limit: The most bytes the values may take: a larger request fails as one that
    ///   `realloc` refuses. Tests use it to make one store's allocations fail.
    /// - Throws: ``AllocationFailure`` when the memory cannot be had; the column is then as it
    ///   was.
    mutating func reserve(adding added: Int, limit: Int = .max) throws(AllocationFailure) {
        precondition(added >= 0, "a column cannot grow by a negative count")
        let (needed, overflow) = storage.count.addingReportingOverflow(added)
        if overflow { throw AllocationFailure(values: .max, bytes: nil) }
        if isKnownUniquelyReferenced(&storage) {
            try storage.reserve(needed, limit: limit)
        } else {
            storage = try storage.copy(capacity: needed, limit: limit)
        }
    }

    /// Whether the column at `column` holds its storage alone with room for `added` more
    /// values: when it does, ``reserve(adding:limit:)`` has nothing to do. Static, over a pointer
    /// to the column in place, as ``prefetch(in:from:count:)``: a replay asks for each insert.
    @inline(__always)
    static func hasOwnRoom(in column: UnsafeMutablePointer<ValueColumn>, for added: Int) -> Bool {
        column.pointee.storage.capacity &- column.pointee.storage.count >= added
            && isKnownUniquelyReferenced(&column.pointee.storage)
    }

    /// The values' capacity: for tests.
    var capacity: Int { storage.capacity }

    @inline(__always)
    private mutating func requireOwnStorage() {
        precondition(isKnownUniquelyReferenced(&storage), "a shared column is changed only after reserve(adding:)")
    }

    /// The values' memory, from `malloc` and grown by `realloc`.
    ///
    /// `realloc` moves the bytes of the values it keeps. That is a valid move for
    /// `AttributeValue`, which the initializer checks: none of its payloads (numbers, strings,
    /// data, URLs, arrays) depends on its own address, as a weak reference would.
    ///
    /// Unchecked `Sendable`: like an `Array`'s buffer, a storage is only changed by the one
    /// column that holds it (``ValueColumn/reserve(adding:limit:)`` copies it first otherwise).
    private final class Storage: @unchecked Sendable {
        private(set) var base: UnsafeMutablePointer<AttributeValue>
        var count = 0
        private(set) var capacity: Int
        /// The checkpoint cells the first values are decoded from, for a column loaded from a
        /// checkpoint: a value below `lazy.cells.count` is initialized only once decoded or
        /// written.
        let lazy: LazyValues?

        /// A storage without memory: its first ``reserve(_:limit:)`` allocates.
        init(lazy: LazyValues? = nil) {
            precondition(_isBitwiseTakable(AttributeValue.self), "realloc may only move bitwise-movable values")
            base = Self.placeholder
            capacity = 0
            self.lazy = lazy
        }

        /// A storage with the flags `lazy` over the memory of `room`, which gives it up.
        private init(lazy: LazyValues, taking room: Storage) {
            base = room.base
            capacity = room.capacity
            self.lazy = lazy
            room.base = Self.placeholder
            room.capacity = 0
            room.count = 0
        }

        deinit {
            guard capacity > 0 else { return }
            if let lazy {
                let covered = Swift.min(lazy.cells.count, count)
                for index in 0..<covered where lazy.isDecoded(index) { (base + index).deinitialize(count: 1) }
                Self.release(base + covered, count: count - covered)
            } else {
                Self.release(base, count: count)
            }
            free(base)
        }

        /// Deinitializes the values.
        private static func release(_ base: UnsafeMutablePointer<AttributeValue>, count: Int) {
            base.deinitialize(count: count)
        }

        /// A storage of its own holding copies of the values, with room for `capacity` values
        /// (at least ``count``).
        func copy(capacity: Int, limit: Int) throws(AllocationFailure) -> Storage {
            guard let lazy else {
                let copy = Storage()
                try copy.reserve(Swift.max(capacity, count), limit: limit)
                copy.base.initialize(from: base, count: count)
                copy.count = count
                return copy
            }
            // The values still in the cells stay there for the copy too.
            let room = Storage()
            try room.reserve(Swift.max(capacity, count), limit: limit)
            let flags = try lazy.copyDecoded(from: base, into: room.base)
            let covered = Swift.min(lazy.cells.count, count)
            (room.base + covered).initialize(from: base + covered, count: count - covered)
            let copy = Storage(lazy: flags, taking: room)
            copy.count = count
            return copy
        }

        /// Makes room for `needed` values in all, at least doubling the capacity when it grows.
        func reserve(_ needed: Int, limit: Int) throws(AllocationFailure) {
            guard needed > capacity else { return }
            let (doubled, overflow) = capacity.multipliedReportingOverflow(by: 2)
            let grown = Swift.max(needed, overflow ? needed : doubled, Self.minimumCapacity)
            // Doubling is a wish: when it cannot be had, exactly what is needed may still be.
            if let block = Self.reallocate(capacity > 0 ? base : nil, grown, limit: limit) {
                (base, capacity) = (block, grown)
            } else if grown > needed, let block = Self.reallocate(capacity > 0 ? base : nil, needed, limit: limit) {
                (base, capacity) = (block, needed)
            } else {
                let (bytes, overflow) = needed.multipliedReportingOverflow(by: MemoryLayout<AttributeValue>.stride)
                throw AllocationFailure(values: needed, bytes: overflow ? nil : bytes)
            }
        }

        /// Traps unless there is room for `needed` values: a reservation must come first.
        @inline(__always)
        func requireRoom(_ needed: Int) {
            precondition(needed <= capacity, "a column grows only through reserve(adding:)")
        }

        private static let minimumCapacity = 16

        /// Where every empty storage points: room for one value that is never initialized, read,
        /// written or freed, so that `base` needs no optional. Never changed, hence safe to share.
        private nonisolated(unsafe) static let placeholder = UnsafeMutablePointer<AttributeValue>.allocate(capacity: 1)

        /// `realloc`s `block` (`nil` for a new one) to hold `capacity` values; `nil` when the
        /// memory cannot be had, `block` then left as it was.
        private static func reallocate(
            _ block: UnsafeMutablePointer<AttributeValue>?,
            _ capacity: Int,
            limit: Int
        ) -> UnsafeMutablePointer<AttributeValue>? {
            let (bytes, overflow) = capacity.multipliedReportingOverflow(by: MemoryLayout<AttributeValue>.stride)
            guard !overflow, bytes <= limit, let raw = realloc(block.map(UnsafeMutableRawPointer.init), bytes) else {
                return nil
            }
            return raw.bindMemory(to: AttributeValue.self, capacity: capacity)
        }
    }
}
