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
/// Copies share their storage until one of them changes, as an `Array`'s do.
struct ValueColumn: Sendable {
    private var storage: Storage

    /// An empty column with room for `capacity` values.
    init(capacity: Int = 0) {
        storage = Storage(capacity: capacity)
    }

    /// The number of values.
    var count: Int { storage.count }

    /// The value at `index`, which must be below ``count``.
    ///
    /// The checks' messages are constant on purpose: one that interpolated the index made the
    /// optimiser copy a whole ``EntityTable`` around each read in the replay, which took a
    /// migration's open from 5.9 to 7.5 billion instructions.
    subscript(index: Int) -> AttributeValue {
        @inline(__always) get {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: storage.count), "index out of range")
            return storage.base[index]
        }
        @inline(__always) set {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: storage.count), "index out of range")
            makeUnique()
            storage.base[index] = newValue
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
        let stored = UnsafePointer(storage.base + index)
        if case .string(let query) = value {
            guard case .string(let text) = stored.pointee else { return false }
            return text == query
        }
        return stored.pointee == value
    }

    /// Adds `added` `null`s at the end: a new slot's values.
    @inline(__always)
    mutating func appendNulls(_ added: Int) {
        precondition(added >= 0, "a column cannot grow by a negative count")
        makeUnique()
        let start = storage.count
        storage.reserve(start &+ added)
        let base = storage.base
        // `null` holds nothing to retain: each is a store of its tag, which a generic
        // `initialize(repeating:count:)` would copy as a value of any case.
        for index in start..<(start &+ added) { (base + index).initialize(to: .null) }
        storage.count = start &+ added
    }

    /// Adds `value` at the end.
    mutating func append(_ value: AttributeValue) {
        makeUnique()
        let index = storage.count
        storage.reserve(index &+ 1)
        (storage.base + index).initialize(to: value)
        storage.count = index &+ 1
    }

    /// Calls `body` with the values in place.
    func withUnsafeBufferPointer<Result>(
        _ body: (UnsafeBufferPointer<AttributeValue>) throws -> Result
    ) rethrows -> Result {
        // The column is borrowed while `body` runs, and with it the storage.
        try body(UnsafeBufferPointer(start: storage.base, count: storage.count))
    }

    /// Calls `body` with the values in place, to change them. `body` must not change the
    /// buffer itself, only its elements.
    mutating func withUnsafeMutableBufferPointer<Result>(
        _ body: (inout UnsafeMutableBufferPointer<AttributeValue>) throws -> Result
    ) rethrows -> Result {
        makeUnique()
        let base = storage.base
        let count = storage.count
        var buffer = UnsafeMutableBufferPointer(start: base, count: count)
        defer {
            precondition(buffer.baseAddress == base && buffer.count == count, "a column's buffer was replaced")
        }
        // Exclusive access to the column for as long as `body` runs keeps the storage alive.
        return try body(&buffer)
    }

    @inline(__always)
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// The values' memory, from `malloc` and grown by `realloc`.
    ///
    /// `realloc` moves the bytes of the values it keeps. That is a valid move for
    /// `AttributeValue`, which the initializer checks: none of its payloads (numbers, strings,
    /// data, URLs, arrays) depends on its own address, as a weak reference would.
    ///
    /// Unchecked `Sendable`: like an `Array`'s buffer, a storage is only changed by the one
    /// column that holds it (``ValueColumn/makeUnique()`` copies it first otherwise).
    private final class Storage: @unchecked Sendable {
        private(set) var base: UnsafeMutablePointer<AttributeValue>
        var count = 0
        private var capacity: Int

        init(capacity: Int) {
            precondition(_isBitwiseTakable(AttributeValue.self), "realloc may only move bitwise-movable values")
            self.capacity = max(capacity, Self.minimumCapacity)
            base = Self.allocate(nil, self.capacity)
        }

        deinit {
            Self.release(base, count: count)
            free(base)
        }

        /// Deinitializes the values, asking for each string's object a few values ahead.
        ///
        /// The strings of a large column sit all over the heap, and nothing has read most of
        /// them for a while: released one after the other, each waited for its cache miss
        /// before the next began. Releasing SampleTrips-100k's projection, a million strings,
        /// took 48–56 ms of the thread that let go of its container; with the objects asked for
        /// 64 values ahead, 22–23 ms.
        private static func release(_ base: UnsafeMutablePointer<AttributeValue>, count: Int) {
            let distance = 64
            for index in 0..<count {
                if index &+ distance < count { AttributeValue.prefetchStringObject(at: base + (index &+ distance)) }
                (base + index).deinitialize(count: 1)
            }
        }

        /// A storage of its own holding copies of the values.
        func copy() -> Storage {
            let copy = Storage(capacity: count)
            copy.base.initialize(from: base, count: count)
            copy.count = count
            return copy
        }

        /// Makes room for `needed` values in all, at least doubling the capacity when it grows.
        @inline(__always)
        func reserve(_ needed: Int) {
            if needed > capacity { grow(needed) }
        }

        private func grow(_ needed: Int) {
            let (doubled, overflow) = capacity.multipliedReportingOverflow(by: 2)
            let grown = overflow ? needed : max(needed, doubled)
            base = Self.allocate(base, grown)
            capacity = grown
        }

        private static let minimumCapacity = 16

        /// `realloc`s `block` (`nil` for a new one) to hold `capacity` values.
        private static func allocate(
            _ block: UnsafeMutablePointer<AttributeValue>?,
            _ capacity: Int
        ) -> UnsafeMutablePointer<AttributeValue> {
            let (bytes, overflow) = capacity.multipliedReportingOverflow(by: MemoryLayout<AttributeValue>.stride)
            precondition(!overflow, "a column of \(capacity) values does not fit in memory")
            // An allocation that fails stops the process, as it does when an `Array` grows: the
            // Swift runtime's allocator traps there too. A thrown error would have to pass
            // through every insert of every replay and save, for a failure that Linux, which
            // overcommits, reports by ending the process rather than by returning `nil`.
            guard let raw = realloc(block.map(UnsafeMutableRawPointer.init), bytes) else {
                fatalError("out of memory for a column of \(capacity) values (\(bytes) bytes)")
            }
            return raw.bindMemory(to: AttributeValue.self, capacity: capacity)
        }
    }
}
