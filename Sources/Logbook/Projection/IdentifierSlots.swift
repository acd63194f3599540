/// Where each object of a table lives in its columns: identifier to slot, in an open-addressing
/// hash table with linear probing.
///
/// Identifiers are handed out from one counter, so they arrive nearly in order; a
/// multiplicative (Fibonacci) hash of the identifier spreads them over the buckets for the cost
/// of one multiplication, where a `Dictionary` hashes every key with SipHash. Removal shifts the
/// following entries back, so no tombstones accumulate. Identifier 0 is never an object's: it
/// marks an empty bucket.
struct IdentifierSlots: Sendable {
    private var keys: [UInt64]
    private var slots: [UInt32]
    /// log2 of the bucket count.
    private var bits: Int
    /// The number of identifiers held.
    private(set) var count = 0

    init() {
        bits = 4
        keys = .filled(with: 0, count: 1 << bits)
        slots = .filled(with: 0, count: 1 << bits)
    }

    /// The slot of `id`, if the table holds it.
    @inline(__always)
    func slot(of id: UInt64) -> Int? {
        guard id != 0 else { return nil }
        let mask = keys.count - 1
        var bucket = home(id)
        while true {
            let key = keys[bucket]
            if key == id { return Int(slots[bucket]) }
            if key == 0 { return nil }
            bucket = (bucket + 1) & mask
        }
    }

    /// Records that `id` lives in `slot`, replacing what was recorded for it.
    mutating func set(_ id: UInt64, slot: Int) {
        precondition(id != 0, "identifier 0 is reserved")
        if (count + 1) * 10 > keys.count * 7 { grow() }
        let mask = keys.count - 1
        var bucket = home(id)
        while keys[bucket] != 0 && keys[bucket] != id { bucket = (bucket + 1) & mask }
        if keys[bucket] == 0 { count += 1 }
        keys[bucket] = id
        slots[bucket] = UInt32(slot)
    }

    /// Forgets `id`.
    mutating func remove(_ id: UInt64) {
        guard id != 0 else { return }
        let mask = keys.count - 1
        var hole = home(id)
        while keys[hole] != id {
            if keys[hole] == 0 { return }
            hole = (hole + 1) & mask
        }
        // Shift back every following entry of the run that may no longer be reached past the hole.
        var next = (hole + 1) & mask
        while keys[next] != 0 {
            let wanted = home(keys[next])
            // The entry at `next` may move to `hole` unless its home lies cyclically in (hole, next].
            let stays = hole < next ? (wanted > hole && wanted <= next) : (wanted > hole || wanted <= next)
            if !stays {
                keys[hole] = keys[next]
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        keys[hole] = 0
        count -= 1
    }

    @inline(__always)
    private func home(_ id: UInt64) -> Int {
        Int(truncatingIfNeeded: (id &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - bits))
    }

    private mutating func grow() {
        let (oldKeys, oldSlots) = (keys, slots)
        bits += 1
        keys = .filled(with: 0, count: 1 << bits)
        slots = .filled(with: 0, count: 1 << bits)
        count = 0
        for (key, slot) in zip(oldKeys, oldSlots) where key != 0 {
            set(key, slot: Int(slot))
        }
    }
}
