/// The identifiers of a table as a checkpoint holds them, when they ascend from slot to slot
/// with no free slot among them, as a store that never deleted holds them: the slot of one of
/// them is found by searching the column in place, so that loading the table records none of
/// them in the projection's ``IdentifierSlots``, whose array of four bytes per identifier
/// was the largest allocation of an open.
///
/// The column never changes (``EntityTable/identifiers`` is a copy that changes with the
/// table): an object deleted since, or moved, is told apart by ``EntityTable/holds(_:at:)``,
/// and the objects placed since are in ``IdentifierSlots``, which a lookup asks first.
struct LoadedIdentifiers: Sendable {
    /// The identifiers, ascending, none of them 0.
    let identifiers: WordColumn

    /// The slot that held `id` when the table was loaded, if one did.
    ///
    /// Identifiers handed out by one counter are spread evenly over a table that was saved
    /// together with others, so the search starts where `id` falls between the first and the
    /// last identifier, and widens from there.
    ///
    /// - Complexity: O(1) for evenly spread identifiers, O(log *n*) at worst.
    func slot(of id: UInt64) -> Int? {
        let count = identifiers.count
        guard count > 0 else { return nil }
        let first = identifiers[0]
        let last = identifiers[count - 1]
        guard id >= first, id <= last else { return nil }
        guard last > first else { return id == first ? 0 : nil }
        // Where `id` would be if the identifiers were spread evenly.
        let span = Double(last - first)
        let guess = min(count - 1, Int(Double(id - first) / span * Double(count - 1)))
        // Gallop from the guess to a range that holds `id`, then bisect it.
        var low = guess
        var high = guess
        var step = 1
        if identifiers[guess] < id {
            while high < count - 1, identifiers[high] < id {
                low = high + 1
                high = min(count - 1, high + step)
                step &*= 2
            }
        } else {
            while low > 0, identifiers[low] > id {
                high = low - 1
                low = max(0, low - step)
                step &*= 2
            }
        }
        while low <= high {
            let middle = low + (high - low) / 2
            let found = identifiers[middle]
            if found == id { return middle }
            if found < id { low = middle + 1 } else { high = middle - 1 }
        }
        return nil
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
