import CMemoryHints
import Foundation

/// The objects of a table by the value of one unique attribute: an open-addressing hash table
/// of slots and identifiers, with a copy of each value's bytes for the usual kinds of key.
///
/// Each bucket is two `UInt64`s: the first holds 32 bits of the value's hash in its upper half
/// and the slot plus one in its lower half (0 for an empty bucket), the second the object's
/// identifier. The bytes of the value in each slot are a *key record* in ``keys``, which
/// ``keyStarts`` finds by slot: a tag word (the kind of value and its byte count, see
/// ``KeyBytes``), then the bytes, padded to a whole word. Values that keep no bytes have no
/// record.
///
/// A probe compares values only where the hash bits agree. There it compares the key record
/// with the bytes of the value looked for. The bucket gives the slot and the identifier at
/// once, so that the record, the registry of a context and the row can all be read at the
/// same time: comparing with the table's own rows read the row, then the string it holds, then
/// the identifier, one after the other, each a cache miss in a large table. Equal bytes mean
/// equal values. Where the bytes differ or are not kept, the caller's comparison with the row
/// decides, so that strings that are equal but spelled differently in Unicode (é precomposed
/// and decomposed) still match.
///
/// The table doubles once it is more than four fifths full. Growing it places every bucket
/// again from its stored hash bits, without hashing a value or touching the rows or the
/// records. Collisions go to the next bucket (linear
/// probing), and a removal shifts the buckets after it back, so that no bucket is ever marked
/// deleted. A removed record's words stay in ``keys`` until they are half of it; then the
/// live records are copied together.
///
/// The index does not keep the values themselves: ``EntityTable`` hashes them with
/// ``hash(_:)``, hands each new entry its value, of which the index keeps the bytes, and
/// compares values with its rows. It must remove an object's entry before it changes the
/// object's value (see ``EntityTable/unindex(_:slot:)``).
struct UniqueIndex: Sendable {
    /// A bucket's place, or where a value would go.
    enum Probe {
        /// A slot whose value matched, and its bucket.
        case found(slot: Int, bucket: Int)
        /// The empty bucket where the value would go.
        case vacant(bucket: Int)
    }

    /// The object holding a value looked for.
    struct Holder: Equatable {
        let id: UInt64
        let slot: Int
        /// Whether the key record holds the very bytes of the value looked for: then a copy of
        /// that value stands for the stored one, without reading the stored one.
        let hasSameBytes: Bool
    }

    /// Two words per bucket: hash bits and slot, then identifier.
    private var buckets: [UInt64]
    /// The number of buckets minus one; the number is a power of two.
    private var mask: Int
    /// For each slot, where its key record starts in ``keys`` plus one; 0 for none.
    private var keyStarts: [UInt32] = []
    /// The key records, one after the other.
    private var keys: [UInt64] = []
    /// The words of removed records still in ``keys``.
    private var removedWords = 0
    /// The number of entries.
    private(set) var count = 0

    init() {
        buckets = Array(repeating: 0, count: 32)
        mask = 15
    }

    /// 32 bits of the value's hash, consistent with `==`: equal values hash alike.
    @inline(__always)
    static func hash(_ value: AttributeValue) -> UInt32 {
        var hasher = Hasher()
        if case .string(let string) = value {
            // The case is left out: values of different cases are never equal.
            hasher.combine(string)
        } else {
            hasher.combine(value)
        }
        return UInt32(truncatingIfNeeded: hasher.finalize())
    }

    /// Starts loading the bucket where a probe for `hash` begins into the cache. Static, over a
    /// pointer to the index in place: a method called on a copy retained its three arrays.
    @inline(__always)
    static func prefetchBucket(in index: UnsafePointer<UniqueIndex>, _ hash: UInt32) {
        let bucket = Int(hash) & index.pointee.mask
        index.pointee.buckets.withUnsafeBufferPointer { buckets in
            guard let base = buckets.baseAddress, bucket &* 2 < buckets.count else { return }
            logbook_prefetch(UnsafeRawPointer(base + bucket &* 2))
        }
    }

    /// Looks for an entry of `hash` whose slot `matches`, up to the first empty bucket.
    @inline(__always)
    func probe(_ hash: UInt32, where matches: (Int) -> Bool) -> Probe {
        var bucket = Int(hash) & mask
        while true {
            let head = buckets[bucket &* 2]
            if head == 0 { return .vacant(bucket: bucket) }
            if UInt32(truncatingIfNeeded: head >> 32) == hash {
                let slot = Self.slot(head)
                if matches(slot) { return .found(slot: slot, bucket: bucket) }
            }
            bucket = (bucket &+ 1) & mask
        }
    }

    /// The object holding `value`, whose hash is `hash`: the key record decides where it holds
    /// `value`'s bytes, `matches` (given the slot) everywhere else.
    @inline(__always)
    func find(_ hash: UInt32, _ value: AttributeValue, where matches: (Int) -> Bool) -> Holder? {
        KeyBytes.with(value) { tag, key in
            buckets.withUnsafeBufferPointer { buckets in
                var bucket = Int(hash) & mask
                while true {
                    let head = buckets[bucket &* 2]
                    if head == 0 { return nil }
                    if UInt32(truncatingIfNeeded: head >> 32) == hash {
                        let slot = Self.slot(head)
                        let id = buckets[bucket &* 2 &+ 1]
                        if tag != 0, holdsBytes(slot, tag: tag, key) {
                            return Holder(id: id, slot: slot, hasSameBytes: true)
                        }
                        if matches(slot) { return Holder(id: id, slot: slot, hasSameBytes: false) }
                    }
                    bucket = (bucket &+ 1) & mask
                }
            }
        }
    }

    /// Adds an entry for the object `id` in `slot`, holding `value`, in the empty bucket a
    /// ``probe(_:where:)`` just found, with no change to the index in between.
    mutating func insert(_ hash: UInt32, slot: Int, id: UInt64, value: AttributeValue, at bucket: Int) {
        precondition(slot >= 0 && slot < Int(UInt32.max), "a unique index holds slots below 2^32 - 1")
        buckets[bucket &* 2] = UInt64(hash) << 32 | UInt64(slot &+ 1)
        buckets[bucket &* 2 &+ 1] = id
        KeyBytes.with(value) { tag, key in
            guard tag != 0 else { return }
            let start = keys.count
            precondition(start < Int(UInt32.max), "a unique index keeps up to 2^32 - 2 words of keys")
            keys.append(UInt64(tag))
            // The bytes a word at a time, the last one padded with zeros.
            var offset = 0
            while offset &+ 8 <= key.count {
                keys.append(key.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset &+= 8
            }
            if offset < key.count, let bytes = key.baseAddress {
                var last: UInt64 = 0
                withUnsafeMutableBytes(of: &last) { word in
                    word.baseAddress?.copyMemory(from: bytes + offset, byteCount: key.count &- offset)
                }
                keys.append(last)
            }
            coverKeyStart(of: slot)
            keyStarts[slot] = UInt32(start &+ 1)
        }
        count += 1
        // Grown past four fifths full. At three quarters, SampleTrips-100k's 100,000 names took
        // 262,144 buckets (4 MiB), a cache miss for each lookup; now 131,072 (2 MiB): W3's
        // lookups, 22 alternating rounds, median 100.0 ms against 96.6 ms, faster in 17, while
        // W1 and W2 did not move (measured at seven eighths, which gives these names the same
        // table). A name that is not there is looked for through about 13 buckets on average
        // at the fullest, four cache lines.
        if count &* 5 > (mask &+ 1) &* 4 { grow() }
    }

    /// Points the entry in `bucket` at the object `id` in `slot`, which holds a value equal to
    /// the entry's.
    ///
    /// The key record moves to the new slot with its bytes: they equal the new value's, or are
    /// another spelling of it, which a probe settles through the rows.
    mutating func replace(at bucket: Int, slot: Int, id: UInt64) {
        let old = Self.slot(buckets[bucket &* 2])
        buckets[bucket &* 2] = buckets[bucket &* 2] & 0xFFFF_FFFF_0000_0000 | UInt64(slot &+ 1)
        buckets[bucket &* 2 &+ 1] = id
        guard old != slot, old < keyStarts.count, keyStarts[old] != 0 else { return }
        coverKeyStart(of: slot)
        keyStarts[slot] = keyStarts[old]
        keyStarts[old] = 0
    }

    /// Removes the entry of `hash` for `slot`, if there is one.
    mutating func remove(_ hash: UInt32, slot: Int) {
        let wanted = UInt64(hash) << 32 | UInt64(slot &+ 1)
        var bucket = Int(hash) & mask
        while buckets[bucket &* 2] != wanted {
            if buckets[bucket &* 2] == 0 { return }
            bucket = (bucket &+ 1) & mask
        }
        if slot < keyStarts.count, keyStarts[slot] != 0 {
            removedWords += recordWords(at: Int(keyStarts[slot]) &- 1)
            keyStarts[slot] = 0
        }
        // Shift back every later entry of the run that the hole would cut off from its home.
        var hole = bucket
        var next = (hole &+ 1) & mask
        while buckets[next &* 2] != 0 {
            let home = Int(truncatingIfNeeded: buckets[next &* 2] >> 32) & mask
            // The entry may move into the hole unless its home lies after the hole, up to it.
            if (next &- home) & mask >= (next &- hole) & mask {
                buckets[hole &* 2] = buckets[next &* 2]
                buckets[hole &* 2 &+ 1] = buckets[next &* 2 &+ 1]
                hole = next
            }
            next = (next &+ 1) & mask
        }
        buckets[hole &* 2] = 0
        buckets[hole &* 2 &+ 1] = 0
        count -= 1
        if removedWords >= 64, removedWords &* 2 > keys.count { compact() }
    }

    /// Every entry: the slot, once each.
    var slots: [Int] {
        stride(from: 0, to: buckets.count, by: 2).compactMap { buckets[$0] == 0 ? nil : Self.slot(buckets[$0]) }
    }

    /// The words of ``keys`` in use, removed records' included: for tests.
    var keyWords: Int { keys.count }

    /// Makes ``keyStarts`` long enough for `slot`, doubling its length at least: slots are
    /// added one by one, and growing by one each time copied the array's tail each time.
    @inline(__always)
    private mutating func coverKeyStart(of slot: Int) {
        guard keyStarts.count <= slot else { return }
        let length = Swift.max(slot &+ 1, keyStarts.count &* 2, 64)
        keyStarts.append(contentsOf: repeatElement(0, count: length &- keyStarts.count))
    }

    /// The words of the key record starting at `start` in ``keys``: its tag word and its bytes.
    private func recordWords(at start: Int) -> Int {
        1 &+ (KeyBytes.byteCount(ofTag: UInt32(truncatingIfNeeded: keys[start])) &+ 7) / 8
    }

    /// The slot in a non-empty bucket's first word.
    @inline(__always)
    private static func slot(_ head: UInt64) -> Int {
        Int(truncatingIfNeeded: head & 0xFFFF_FFFF) &- 1
    }

    /// Whether the key record of `slot` holds the bytes `key`, of the kind and count `tag`.
    @inline(__always)
    private func holdsBytes(_ slot: Int, tag: UInt32, _ key: UnsafeRawBufferPointer) -> Bool {
        keyStarts.withUnsafeBufferPointer { starts in
            guard slot < starts.count, starts[slot] != 0 else { return false }
            let start = Int(starts[slot]) &- 1
            return keys.withUnsafeBufferPointer { keys in
                guard keys[start] == UInt64(tag) else { return false }
                guard let keyBase = key.baseAddress, !key.isEmpty else { return true }
                guard let base = keys.baseAddress, start &+ 1 &+ (key.count &+ 7) / 8 <= keys.count else {
                    return false
                }
                return memcmp(UnsafeRawPointer(base + (start &+ 1)), keyBase, key.count) == 0
            }
        }
    }

    /// Doubles the buckets and places every entry again, from its stored hash bits.
    private mutating func grow() {
        let old = buckets
        mask = (mask &+ 1) &* 2 &- 1
        buckets = Array(repeating: 0, count: (mask &+ 1) &* 2)
        for index in stride(from: 0, to: old.count, by: 2) where old[index] != 0 {
            var bucket = Int(truncatingIfNeeded: old[index] >> 32) & mask
            while buckets[bucket &* 2] != 0 { bucket = (bucket &+ 1) & mask }
            buckets[bucket &* 2] = old[index]
            buckets[bucket &* 2 &+ 1] = old[index &+ 1]
        }
    }

    /// Copies the live key records together, dropping the words of removed ones.
    private mutating func compact() {
        var kept: [UInt64] = []
        kept.reserveCapacity(keys.count &- removedWords)
        for slot in keyStarts.indices where keyStarts[slot] != 0 {
            let start = Int(keyStarts[slot]) &- 1
            let words = recordWords(at: start)
            keyStarts[slot] = UInt32(kept.count &+ 1)
            kept.append(contentsOf: keys[start..<(start &+ words)])
        }
        keys = kept
        removedWords = 0
    }
}
