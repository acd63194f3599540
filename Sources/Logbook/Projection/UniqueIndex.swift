/// The objects of a table by the value of one unique attribute: an open-addressing hash table
/// of slots, which compares a candidate through the value in the table's own rows rather than a
/// copy of it.
///
/// Each bucket is one `UInt64`: the upper half holds 32 bits of the value's hash, the lower half
/// the slot plus one (0 for an empty bucket). A probe compares values only where those hash bits
/// agree; growing the table places every entry again from its stored bits, without hashing a
/// value or touching the rows. Collisions go to the next bucket (linear probing), and a removal
/// shifts the entries after it back, so that no bucket is ever marked deleted.
///
/// The index does not know the values: ``EntityTable`` hashes them with ``hash(_:)`` and
/// compares them, and must remove an object's entry before it changes the object's value (see
/// ``EntityTable/unindex(_:slot:)``).
struct UniqueIndex: Sendable {
    /// A bucket's place, or where a value would go.
    enum Probe {
        /// A slot whose value matched, and its bucket.
        case found(slot: Int, bucket: Int)
        /// The empty bucket where the value would go.
        case vacant(bucket: Int)
    }

    private var buckets: [UInt64]
    /// `buckets.count - 1`; the count is a power of two.
    private var mask: Int
    /// The number of entries.
    private(set) var count = 0

    init() {
        buckets = Array(repeating: 0, count: 16)
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

    /// Looks for an entry of `hash` whose slot `matches`, up to the first empty bucket.
    @inline(__always)
    func probe(_ hash: UInt32, where matches: (Int) -> Bool) -> Probe {
        var bucket = Int(hash) & mask
        while true {
            let entry = buckets[bucket]
            if entry == 0 { return .vacant(bucket: bucket) }
            if UInt32(truncatingIfNeeded: entry >> 32) == hash {
                let slot = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) &- 1
                if matches(slot) { return .found(slot: slot, bucket: bucket) }
            }
            bucket = (bucket &+ 1) & mask
        }
    }

    /// Adds an entry in the empty bucket a ``probe(_:where:)`` just found, with no change to
    /// the index in between.
    mutating func insert(_ hash: UInt32, slot: Int, at bucket: Int) {
        precondition(slot >= 0 && slot < Int(UInt32.max), "a unique index holds slots below 2^32 - 1")
        buckets[bucket] = UInt64(hash) << 32 | UInt64(slot &+ 1)
        count += 1
        if count &* 4 > buckets.count &* 3 { grow() }
    }

    /// Points the entry in `bucket` at another slot holding an equal value.
    mutating func replace(at bucket: Int, slot: Int) {
        buckets[bucket] = buckets[bucket] & 0xFFFF_FFFF_0000_0000 | UInt64(slot &+ 1)
    }

    /// Removes the entry of `hash` for `slot`, if there is one.
    mutating func remove(_ hash: UInt32, slot: Int) {
        let wanted = UInt64(hash) << 32 | UInt64(slot &+ 1)
        var bucket = Int(hash) & mask
        while buckets[bucket] != wanted {
            if buckets[bucket] == 0 { return }
            bucket = (bucket &+ 1) & mask
        }
        // Shift back every later entry of the run that the hole would cut off from its home.
        var hole = bucket
        var next = (hole &+ 1) & mask
        while buckets[next] != 0 {
            let home = Int(truncatingIfNeeded: buckets[next] >> 32) & mask
            // The entry may move into the hole unless its home lies after the hole, up to it.
            if (next &- home) & mask >= (next &- hole) & mask {
                buckets[hole] = buckets[next]
                hole = next
            }
            next = (next &+ 1) & mask
        }
        buckets[hole] = 0
        count -= 1
    }

    /// Every entry: the slot, once each.
    var slots: [Int] {
        buckets.compactMap { $0 == 0 ? nil : Int(truncatingIfNeeded: $0 & 0xFFFF_FFFF) - 1 }
    }

    /// Doubles the buckets and places every entry again, from its stored hash bits.
    private mutating func grow() {
        let old = buckets
        buckets = Array(repeating: 0, count: old.count &* 2)
        mask = buckets.count &- 1
        for entry in old where entry != 0 {
            var bucket = Int(truncatingIfNeeded: entry >> 32) & mask
            while buckets[bucket] != 0 { bucket = (bucket &+ 1) & mask }
            buckets[bucket] = entry
        }
    }
}
