import Foundation

/// The objects of a table by the value of one unique attribute: an open-addressing hash table
/// whose entries keep each object's slot, its identifier and, for the usual kinds of key, a
/// copy of the value's bytes.
///
/// Each bucket is one `UInt64`: the upper half holds 32 bits of the value's hash, the lower half
/// where its entry starts in ``entries`` plus one (0 for an empty bucket). An entry is two or
/// more words of ``entries``:
/// - the slot in the lower half of the first word, and the key's *tag* in the upper half: the
///   kind of value and its byte count, or 0 when the entry keeps no bytes (see ``KeyBytes``);
/// - the object's identifier;
/// - the key's bytes, padded to a whole word.
///
/// A probe compares values only where the hash bits agree. There it compares the key's bytes
/// with the entry's, which sit next to the identifier: one read where comparing with the
/// table's own rows took three (the row, the string the row holds, and the identifier), all
/// cache misses in a large table. Equal bytes mean equal values. Where the bytes differ or are
/// not kept, the caller's comparison with the row decides, so that strings that are equal but
/// spelled differently in Unicode (é precomposed and decomposed) still match.
///
/// Growing the table places every bucket again from its stored hash bits, without hashing a
/// value or touching the rows or the entries. Collisions go to the next bucket (linear
/// probing), and a removal shifts the buckets after it back, so that no bucket is ever marked
/// deleted. A removed entry's words stay in ``entries`` until they are half of it; then the
/// live entries are copied together.
///
/// The index does not keep the values themselves: ``EntityTable`` hashes them with
/// ``hash(_:)``, hands each new entry its value, of which the entry keeps the bytes, and
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
        /// Whether the entry's bytes are the very bytes of the value looked for: then a copy of
        /// that value stands for the stored one, without reading the stored one.
        let hasSameBytes: Bool
    }

    private var buckets: [UInt64]
    /// `buckets.count - 1`; the count is a power of two.
    private var mask: Int
    /// The entries the buckets point to, one after the other.
    private var entries: [UInt64] = []
    /// The words of removed entries still in ``entries``.
    private var removedWords = 0
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
            let bucketValue = buckets[bucket]
            if bucketValue == 0 { return .vacant(bucket: bucket) }
            if UInt32(truncatingIfNeeded: bucketValue >> 32) == hash {
                let slot = Int(truncatingIfNeeded: entries[Self.start(bucketValue)] & 0xFFFF_FFFF)
                if matches(slot) { return .found(slot: slot, bucket: bucket) }
            }
            bucket = (bucket &+ 1) & mask
        }
    }

    /// The object holding `value`, whose hash is `hash`: the entry's bytes decide where they
    /// equal `value`'s, `matches` (given the slot) everywhere else.
    @inline(__always)
    func find(_ hash: UInt32, _ value: AttributeValue, where matches: (Int) -> Bool) -> Holder? {
        KeyBytes.with(value) { tag, key in
            buckets.withUnsafeBufferPointer { buckets in
                entries.withUnsafeBufferPointer { entries in
                    var bucket = Int(hash) & mask
                    while true {
                        let bucketValue = buckets[bucket]
                        if bucketValue == 0 { return nil }
                        if UInt32(truncatingIfNeeded: bucketValue >> 32) == hash {
                            let start = Self.start(bucketValue)
                            let head = entries[start]
                            let slot = Int(truncatingIfNeeded: head & 0xFFFF_FFFF)
                            // The identifier is read with the head: the two share a cache line.
                            let id = entries[start &+ 1]
                            if tag != 0, UInt32(truncatingIfNeeded: head >> 32) == tag,
                                Self.bytes(in: entries, at: start &+ 2, equal: key)
                            {
                                return Holder(id: id, slot: slot, hasSameBytes: true)
                            }
                            if matches(slot) { return Holder(id: id, slot: slot, hasSameBytes: false) }
                        }
                        bucket = (bucket &+ 1) & mask
                    }
                }
            }
        }
    }

    /// Adds an entry for the object `id` in `slot`, holding `value`, in the empty bucket a
    /// ``probe(_:where:)`` just found, with no change to the index in between.
    mutating func insert(_ hash: UInt32, slot: Int, id: UInt64, value: AttributeValue, at bucket: Int) {
        precondition(slot >= 0 && slot < Int(UInt32.max), "a unique index holds slots below 2^32 - 1")
        let start = entries.count
        precondition(start < Int(UInt32.max), "a unique index holds entries of up to 2^32 - 1 words")
        KeyBytes.with(value) { tag, key in
            entries.append(UInt64(slot) | UInt64(tag) << 32)
            entries.append(id)
            // The bytes a word at a time, the last one padded with zeros.
            var offset = 0
            while offset &+ 8 <= key.count {
                entries.append(key.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset &+= 8
            }
            if offset < key.count, let bytes = key.baseAddress {
                var last: UInt64 = 0
                withUnsafeMutableBytes(of: &last) { word in
                    word.baseAddress?.copyMemory(from: bytes + offset, byteCount: key.count &- offset)
                }
                entries.append(last)
            }
        }
        buckets[bucket] = UInt64(hash) << 32 | UInt64(start &+ 1)
        count += 1
        if count &* 4 > buckets.count &* 3 { grow() }
    }

    /// Points the entry in `bucket` at the object `id` in `slot`, which holds a value equal to
    /// the entry's.
    ///
    /// The entry keeps its bytes: they equal the new value's, or are another spelling of it,
    /// which a probe settles through the rows.
    mutating func replace(at bucket: Int, slot: Int, id: UInt64) {
        let start = Self.start(buckets[bucket])
        entries[start] = entries[start] & 0xFFFF_FFFF_0000_0000 | UInt64(slot)
        entries[start &+ 1] = id
    }

    /// Removes the entry of `hash` for `slot`, if there is one.
    mutating func remove(_ hash: UInt32, slot: Int) {
        var bucket = Int(hash) & mask
        while true {
            let bucketValue = buckets[bucket]
            if bucketValue == 0 { return }
            if UInt32(truncatingIfNeeded: bucketValue >> 32) == hash,
                entries[Self.start(bucketValue)] & 0xFFFF_FFFF == UInt64(slot)
            {
                break
            }
            bucket = (bucket &+ 1) & mask
        }
        removedWords += Self.words(of: entries[Self.start(buckets[bucket])])
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
        if removedWords >= 64, removedWords &* 2 > entries.count { compact() }
    }

    /// Every entry: the slot, once each.
    var slots: [Int] {
        buckets.compactMap { $0 == 0 ? nil : Int(truncatingIfNeeded: entries[Self.start($0)] & 0xFFFF_FFFF) }
    }

    /// The words of ``entries`` in use, removed entries' included: for tests.
    var entryWords: Int { entries.count }

    /// Where the entry of a non-empty bucket starts in ``entries``.
    @inline(__always)
    private static func start(_ bucketValue: UInt64) -> Int {
        Int(truncatingIfNeeded: bucketValue & 0xFFFF_FFFF) &- 1
    }

    /// The words an entry takes, from its first word.
    @inline(__always)
    private static func words(of head: UInt64) -> Int {
        2 &+ (KeyBytes.byteCount(ofTag: UInt32(truncatingIfNeeded: head >> 32)) &+ 7) / 8
    }

    /// Whether the bytes from word `start` of `entries` on are `key`'s.
    @inline(__always)
    private static func bytes(
        in entries: UnsafeBufferPointer<UInt64>,
        at start: Int,
        equal key: UnsafeRawBufferPointer
    ) -> Bool {
        guard let keyBase = key.baseAddress, !key.isEmpty else { return true }
        guard let base = entries.baseAddress, start &+ (key.count &+ 7) / 8 <= entries.count else { return false }
        return memcmp(UnsafeRawPointer(base + start), keyBase, key.count) == 0
    }

    /// Doubles the buckets and places every entry again, from its stored hash bits.
    private mutating func grow() {
        let old = buckets
        buckets = Array(repeating: 0, count: old.count &* 2)
        mask = buckets.count &- 1
        for bucketValue in old where bucketValue != 0 {
            var bucket = Int(truncatingIfNeeded: bucketValue >> 32) & mask
            while buckets[bucket] != 0 { bucket = (bucket &+ 1) & mask }
            buckets[bucket] = bucketValue
        }
    }

    /// Copies the live entries together, dropping the words of removed ones.
    private mutating func compact() {
        var kept: [UInt64] = []
        kept.reserveCapacity(entries.count &- removedWords)
        for bucket in buckets.indices where buckets[bucket] != 0 {
            let start = Self.start(buckets[bucket])
            let words = Self.words(of: entries[start])
            buckets[bucket] = buckets[bucket] & 0xFFFF_FFFF_0000_0000 | UInt64(kept.count &+ 1)
            kept.append(contentsOf: entries[start..<(start &+ words)])
        }
        entries = kept
        removedWords = 0
    }
}

/// The bytes a unique index keeps of a value, and their tag: the kind of value in the upper
/// half, the byte count in the lower. Equal bytes of one kind are equal values.
///
/// Strings of up to ``maximumCount`` UTF-8 bytes, integers and UUIDs keep their bytes. Other
/// values (floating-point numbers, where equal bits are not always equal values; dates, data,
/// arrays, composites) and longer strings keep none, tag 0, and are compared in the rows.
enum KeyBytes {
    /// The longest string whose bytes an entry keeps.
    static let maximumCount = 256

    private static let string: UInt32 = 1 << 16
    private static let int: UInt32 = 2 << 16
    private static let uint: UInt32 = 3 << 16
    private static let uuid: UInt32 = 4 << 16

    /// The byte count of a tag.
    @inline(__always)
    static func byteCount(ofTag tag: UInt32) -> Int { Int(tag & 0xFFFF) }

    /// Calls `body` with `value`'s tag and bytes; tag 0 and no bytes for a value that keeps none.
    @inline(__always)
    static func with<Result>(_ value: AttributeValue, _ body: (UInt32, UnsafeRawBufferPointer) -> Result) -> Result {
        switch value {
        case .string(let text):
            let answer = text.utf8.withContiguousStorageIfAvailable { utf8 -> Result in
                guard utf8.count <= maximumCount else { return body(0, UnsafeRawBufferPointer(start: nil, count: 0)) }
                return body(string | UInt32(utf8.count), UnsafeRawBufferPointer(utf8))
            }
            return answer ?? body(0, UnsafeRawBufferPointer(start: nil, count: 0))
        case .int(let number):
            return withUnsafeBytes(of: number) { body(int | 8, $0) }
        case .uint(let number):
            return withUnsafeBytes(of: number) { body(uint | 8, $0) }
        case .uuid(let identifier):
            return withUnsafeBytes(of: identifier.uuid) { body(uuid | 16, $0) }
        default:
            return body(0, UnsafeRawBufferPointer(start: nil, count: 0))
        }
    }
}
