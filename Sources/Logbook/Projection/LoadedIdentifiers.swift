/// The identifiers of a table as a checkpoint holds them, when they ascend from slot to slot
/// (the free slots, 0, aside) with no long run of free slots: the slot of one of them is found
/// by searching the column in place, so that loading the table records none of them in the
/// projection's ``IdentifierSlots``, whose array of four bytes per identifier was the largest
/// allocation of an open. A store's identifiers come from one counter and objects are
/// appended to their table, so a table's identifiers ascend until a delete frees a slot and an
/// insert reuses it.
///
/// The column never changes (``EntityTable/identifiers`` is a copy that changes with the
/// table): an object deleted since, or moved, is told apart by ``EntityTable/holds(_:at:)``,
/// and the objects placed since are in ``IdentifierSlots``, which a lookup asks first.
struct LoadedIdentifiers: Sendable {
    /// The longest run of free slots a searched column may hold: a probe that lands in one
    /// reads back to the identifier before it.
    static let longestGap = 64

    /// The identifiers, ascending but for the free slots' zeros, in runs of at most
    /// ``longestGap``.
    let identifiers: WordColumn
    /// The first and the last identifier that is not 0; `first > last` when there is none.
    private let first: UInt64
    private let last: UInt64

    init(identifiers: WordColumn) {
        self.identifiers = identifiers
        first = identifiers.first { $0 != 0 } ?? 1
        last = identifiers.last { $0 != 0 } ?? 0
    }

    /// Whether `identifiers`, read in slot order, can be searched: each one that is not 0
    /// larger than the one before, and no more than ``longestGap`` zeros in a row.
    struct Check {
        private var largest: UInt64 = 0
        private var gap = 0
        private(set) var isSearchable = true

        mutating func next(_ id: UInt64) {
            if id == 0 {
                gap &+= 1
                isSearchable = isSearchable && gap <= LoadedIdentifiers.longestGap
            } else {
                gap = 0
                isSearchable = isSearchable && id > largest
                largest = id
            }
        }
    }

    /// The identifier in `position` or, when that slot was free, in the nearest slot before it
    /// that was not; 0 when there is none. It never decreases as `position` grows.
    @inline(__always)
    private func key(_ position: Int) -> UInt64 {
        var at = position
        while at >= 0 {
            let id = identifiers[at]
            if id != 0 { return id }
            at &-= 1
        }
        return 0
    }

    /// The slot that held `id` when the table was loaded, if one did.
    ///
    /// Identifiers handed out by one counter are spread evenly over a table that was saved
    /// together with others, so the search starts where `id` falls between the first and the
    /// last identifier, and widens from there.
    ///
    /// - Complexity: O(1) for evenly spread identifiers, O(log *n*) at worst.
    func slot(of id: UInt64) -> Int? {
        let count = identifiers.count
        guard id != 0, id >= first, id <= last, count > 0 else { return nil }
        // Where `id` would be if the identifiers were spread evenly.
        let guess =
            last > first ? min(count - 1, Int(Double(id - first) / Double(last - first) * Double(count - 1))) : 0
        // Widen to `below` and `above` with key(below) < id <= key(above), where -1 and
        // `count` stand for the ends, then bisect.
        var below: Int
        var above: Int
        var step = 1
        if key(guess) < id {
            below = guess
            above = guess &+ 1
            while above < count, key(above) < id {
                below = above
                above &+= step
                step &*= 2
            }
            above = min(above, count)
        } else {
            above = guess
            below = guess &- 1
            while below >= 0, key(below) >= id {
                above = below
                below &-= step
                step &*= 2
            }
            below = max(below, -1)
        }
        while above &- below > 1 {
            let middle = below &+ (above &- below) / 2
            if key(middle) < id { below = middle } else { above = middle }
        }
        return above < count && identifiers[above] == id ? above : nil
    }
}

/// The identifiers met so far while loading a checkpoint's tables, one bit each: for finding an
/// identifier held twice, in two tables, without ``IdentifierSlots``.
///
/// A structure passed `inout`, not a class: a class's array is checked for exclusive access at
/// run time on every change, which took longer than the bits themselves.
struct IdentifierBits {
    /// The identifiers below this have a bit; 0 when there are none.
    let end: UInt64
    private var words: [UInt64]

    /// Bits for the identifiers below `end`; none when they would take more than `limit` bytes
    /// (only a damaged or forged counter asks for that many).
    init(below end: UInt64, limit: Int) {
        guard end / 8 <= UInt64(limit) else {
            self.end = 0
            words = []
            return
        }
        self.end = end
        words = Array(repeating: 0, count: Int((end + 63) / 64))
    }

    /// Records `id`, which must be below ``end``; `false` when it was recorded already.
    mutating func insert(_ id: UInt64) -> Bool {
        let word = Int(id / 64)
        let bit: UInt64 = 1 << (id % 64)
        guard words[word] & bit == 0 else { return false }
        words[word] |= bit
        return true
    }
}
