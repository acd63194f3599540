import CMemoryHints
import Foundation

/// The objects of a table by the value of one unique attribute: an open-addressing hash table
/// of slots and identifiers, with a copy of each value's bytes for the usual kinds of key.
///
/// Each bucket is three `UInt64`s: the first holds 32 bits of the value's hash in its upper
/// half and the slot plus one in its lower half (0 for an empty bucket), the second the
/// object's identifier, the third where the value's *key record* starts in ``keys``, plus one
/// (0 for none). A key record is a tag word (the kind of value and its byte count, see
/// ``KeyBytes``), then the bytes, padded to a whole word. Values that keep no bytes have no
/// record.
///
/// A probe compares values only where the hash bits agree. There it compares the key record
/// with the bytes of the value looked for. The bucket gives the slot, the identifier and the
/// record at once, so that the record, the registry of a context and the row can all be read
/// at the same time: comparing with the table's own rows read the row, then the string it
/// holds, then the identifier, one after the other, each a cache miss in a large table; and
/// finding the record through an array by slot was a cache miss between the bucket and the
/// record. Equal bytes mean equal values. Where the bytes differ or are not kept, the caller's
/// comparison with the row decides, so that strings that are equal but spelled differently in
/// Unicode (é precomposed and decomposed) still match.
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

    /// Three words per bucket: hash bits and slot, identifier, key record start.
    private var buckets: [UInt64]
    /// The number of buckets minus one; the number is a power of two.
    private var mask: Int
    /// The key records, one after the other.
    private var keys: [UInt64] = []
    /// The words of removed records still in ``keys``.
    private var removedWords = 0
    /// The number of entries.
    private(set) var count = 0

    init() {
        buckets = Array(repeating: 0, count: 16 &* Self.stride)
        mask = 15
    }

    /// An empty index with room for `expected` entries before it grows, for an index about to
    /// take that many at once (a table loaded from a checkpoint).
    init(expecting expected: Int) {
        var size = 16
        // Grown past four fifths full, as ``insert(_:slot:id:value:at:)`` does.
        while size < Int.max / 8 && expected &* 5 > size &* 4 { size &*= 2 }
        buckets = Array(repeating: 0, count: size &* Self.stride)
        mask = size &- 1
        keys.reserveCapacity(expected &* 3)
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
            guard let base = buckets.baseAddress, bucket &* Self.stride < buckets.count else { return }
            logbook_prefetch(UnsafeRawPointer(base + bucket &* Self.stride))
        }
    }

    /// Looks for an entry of `hash` whose slot `matches`, up to the first empty bucket.
    @inline(__always)
    func probe(_ hash: UInt32, where matches: (Int) -> Bool) -> Probe {
        var bucket = Int(hash) & mask
        while true {
            let head = buckets[bucket &* Self.stride]
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
                    let head = buckets[bucket &* Self.stride]
                    if head == 0 { return nil }
                    if UInt32(truncatingIfNeeded: head >> 32) == hash {
                        let slot = Self.slot(head)
                        let id = buckets[bucket &* Self.stride &+ 1]
                        let start = buckets[bucket &* Self.stride &+ 2]
                        if tag != 0, start != 0, holdsBytes(at: Int(truncatingIfNeeded: start) &- 1, tag: tag, key) {
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
        buckets[bucket &* Self.stride] = UInt64(hash) << 32 | UInt64(slot &+ 1)
        buckets[bucket &* Self.stride &+ 1] = id
        buckets[bucket &* Self.stride &+ 2] = KeyBytes.with(value) { tag, key -> UInt64 in
            guard tag != 0 else { return 0 }
            let start = keys.count
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
            return UInt64(start &+ 1)
        }
        count += 1
        // Grown past four fifths full. At three quarters, SampleTrips-100k's 100,000 names took
        // 262,144 buckets, a cache miss for each lookup; now 131,072 (3 MiB at three words a
        // bucket): W3's lookups, 22 alternating rounds at two words a bucket, median 100.0 ms
        // against 96.6 ms, faster in 17, while W1 and W2 did not move (measured at seven
        // eighths, which gives these names the same table). A name that is not there is looked
        // for through about 13 buckets on average at the fullest, six cache lines.
        if count &* 5 > (mask &+ 1) &* 4 { grow() }
    }

    /// Points the entry in `bucket` at the object `id` in `slot`, which holds a value equal to
    /// the entry's.
    ///
    /// The entry keeps its key record: the record's bytes equal the new value's, or are another
    /// spelling of it, which a probe settles through the rows.
    mutating func replace(at bucket: Int, slot: Int, id: UInt64) {
        let head = bucket &* Self.stride
        buckets[head] = buckets[head] & 0xFFFF_FFFF_0000_0000 | UInt64(slot &+ 1)
        buckets[head &+ 1] = id
    }

    /// Removes the entry of `hash` for `slot`, if there is one.
    mutating func remove(_ hash: UInt32, slot: Int) {
        let wanted = UInt64(hash) << 32 | UInt64(slot &+ 1)
        let stride = Self.stride
        var bucket = Int(hash) & mask
        while buckets[bucket &* stride] != wanted {
            if buckets[bucket &* stride] == 0 { return }
            bucket = (bucket &+ 1) & mask
        }
        let start = buckets[bucket &* stride &+ 2]
        if start != 0 { removedWords += recordWords(at: Int(truncatingIfNeeded: start) &- 1) }
        // Shift back every later entry of the run that the hole would cut off from its home.
        var hole = bucket
        var next = (hole &+ 1) & mask
        while buckets[next &* stride] != 0 {
            let home = Int(truncatingIfNeeded: buckets[next &* stride] >> 32) & mask
            // The entry may move into the hole unless its home lies after the hole, up to it.
            if (next &- home) & mask >= (next &- hole) & mask {
                for word in 0..<stride { buckets[hole &* stride &+ word] = buckets[next &* stride &+ word] }
                hole = next
            }
            next = (next &+ 1) & mask
        }
        for word in 0..<stride { buckets[hole &* stride &+ word] = 0 }
        count -= 1
        if removedWords >= 64, removedWords &* 2 > keys.count { compact() }
    }

    /// Every entry: the slot, once each.
    var slots: [Int] {
        Swift.stride(from: 0, to: buckets.count, by: Self.stride).compactMap {
            buckets[$0] == 0 ? nil : Self.slot(buckets[$0])
        }
    }

    /// The words of ``keys`` in use, removed records' included: for tests.
    var keyWords: Int { keys.count }

    /// The words of a bucket.
    private static let stride = 3

    /// The words of the key record starting at `start` in ``keys``: its tag word and its bytes.
    private func recordWords(at start: Int) -> Int {
        1 &+ (KeyBytes.byteCount(ofTag: UInt32(truncatingIfNeeded: keys[start])) &+ 7) / 8
    }

    /// The slot in a non-empty bucket's first word.
    @inline(__always)
    private static func slot(_ head: UInt64) -> Int {
        Int(truncatingIfNeeded: head & 0xFFFF_FFFF) &- 1
    }

    /// Whether the key record starting at `start` holds the bytes `key`, of the kind and count
    /// `tag`.
    @inline(__always)
    private func holdsBytes(at start: Int, tag: UInt32, _ key: UnsafeRawBufferPointer) -> Bool {
        keys.withUnsafeBufferPointer { keys in
            guard start < keys.count, keys[start] == UInt64(tag) else { return false }
            guard let keyBase = key.baseAddress, !key.isEmpty else { return true }
            guard let base = keys.baseAddress, start &+ 1 &+ (key.count &+ 7) / 8 <= keys.count else {
                return false
            }
            return memcmp(UnsafeRawPointer(base + (start &+ 1)), keyBase, key.count) == 0
        }
    }

    /// Doubles the buckets and places every entry again, from its stored hash bits.
    private mutating func grow() {
        let old = buckets
        let stride = Self.stride
        mask = (mask &+ 1) &* 2 &- 1
        buckets = Array(repeating: 0, count: (mask &+ 1) &* stride)
        for index in Swift.stride(from: 0, to: old.count, by: stride) where old[index] != 0 {
            var bucket = Int(truncatingIfNeeded: old[index] >> 32) & mask
            while buckets[bucket &* stride] != 0 { bucket = (bucket &+ 1) & mask }
            for word in 0..<stride { buckets[bucket &* stride &+ word] = old[index &+ word] }
        }
    }

    /// Copies the live key records together, dropping the words of removed ones.
    private mutating func compact() {
        var kept: [UInt64] = []
        kept.reserveCapacity(keys.count &- removedWords)
        for index in Swift.stride(from: 2, to: buckets.count, by: Self.stride) where buckets[index] != 0 {
            let start = Int(truncatingIfNeeded: buckets[index]) &- 1
            let words = recordWords(at: start)
            buckets[index] = UInt64(kept.count &+ 1)
            kept.append(contentsOf: keys[start..<(start &+ words)])
        }
        keys = kept
        removedWords = 0
    }
}
