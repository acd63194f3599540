/// Where each live object lives in its table's columns: identifier to slot, for every table of
/// a projection at once.
///
/// Identifiers are handed out from one counter for all entities, so they are dense and arrive
/// in ascending order: an array indexed by identifier finds a slot with one read, and objects
/// saved together sit next to each other in it, where a hash table scatters them and makes
/// nearly every insert and lookup a cache miss. It costs 4 bytes per identifier ever handed
/// out, whatever the number of entities. The array grows only as far as the identifiers in use
/// justify; an identifier far beyond them (which only a damaged or forged log holds) goes to a
/// dictionary instead, so that it cannot make the array huge.
///
/// Identifiers are unique across entities, so one directory serves every table; a table
/// confirms that a slot holds the identifier asked for (see ``Projection/slot(_:_:)``).
struct IdentifierSlots: Sendable {
    private static let none = UInt32.max
    private var dense: [UInt32] = []
    private var sparse: [UInt64: UInt32] = [:]
    /// The number of identifiers held.
    private(set) var count = 0

    /// The slot recorded for `id`, in whichever table holds it.
    @inline(__always)
    func slot(of id: UInt64) -> Int? {
        if id < UInt64(dense.count) {
            let slot = dense[Int(id)]
            return slot == Self.none ? nil : Int(slot)
        }
        if sparse.isEmpty { return nil }
        return sparse[id].map(Int.init)
    }

    /// How many identifiers the array covers (0 up to this).
    var coveredIdentifiers: Int { dense.count }

    /// Records that `id` lives in `slot`, replacing what was recorded for it.
    mutating func set(_ id: UInt64, slot: Int) {
        precondition(slot < Int(Self.none), "a table holds at most \(Self.none - 1) objects")
        if id >= UInt64(dense.count), id < denseLimit {
            grow(toCover: Int(id))
        }
        if id < UInt64(dense.count) {
            if dense[Int(id)] == Self.none { count += 1 }
            dense[Int(id)] = UInt32(slot)
        } else if sparse.updateValue(UInt32(slot), forKey: id) == nil {
            count += 1
        }
    }

    /// Forgets `id`, if it is recorded in `slot`.
    mutating func remove(_ id: UInt64, ifIn slot: Int) {
        if id < UInt64(dense.count) {
            guard dense[Int(id)] == UInt32(truncatingIfNeeded: slot) else { return }
            dense[Int(id)] = Self.none
            count -= 1
        } else if sparse[id] == UInt32(truncatingIfNeeded: slot) {
            sparse[id] = nil
            count -= 1
        }
    }

    /// Makes the array cover identifiers up to `largest` at once, for `objects` about to be set,
    /// when the array would grow to cover them one by one anyway: a table loaded from a
    /// checkpoint, whose identifiers come in slot order rather than ascending.
    private mutating func prepare(adding objects: Int, upTo largest: UInt64) {
        guard largest >= UInt64(dense.count), largest < UInt64(count &+ objects) &* 4 &+ (1 << 20) else { return }
        grow(toCover: Int(largest))
    }

    /// Records the slot of every identifier of a table loaded whole, 0 standing for a free
    /// slot: what ``set(_:slot:)`` for each would, in one pass over the array.
    ///
    /// - Returns: The first identifier already recorded, in this table or another, which only a
    ///   damaged checkpoint holds; the identifiers before it are recorded, the others not.
    mutating func record(_ identifiers: WordColumn, largest: UInt64, live: Int) -> UInt64? {
        precondition(identifiers.count < Int(Self.none), "a table holds at most \(Self.none - 1) objects")
        prepare(adding: live, upTo: largest)
        let covered = UInt64(dense.count)
        var added = 0
        var duplicate: UInt64?
        var beyond = false
        dense.withUnsafeMutableBufferPointer { dense in
            for slot in identifiers.indices {
                let id = identifiers[slot]
                guard id != 0 else { continue }
                guard id < covered else {
                    beyond = true
                    continue
                }
                guard dense[Int(id)] == Self.none else {
                    duplicate = id
                    return
                }
                dense[Int(id)] = UInt32(truncatingIfNeeded: slot)
                added &+= 1
            }
        }
        count += added
        if let duplicate { return duplicate }
        guard beyond else { return nil }
        // Identifiers too far beyond the others for the array, one at a time.
        for position in identifiers.indices {
            let id = identifiers[position]
            guard id != 0, id >= covered else { continue }
            if slot(of: id) != nil { return id }
            set(id, slot: position)
        }
        return nil
    }

    /// Identifiers below this go to the array: four times the identifiers held and a million
    /// more, far beyond what a counter-assigned store reaches, far below what a forged
    /// identifier could ask for.
    private var denseLimit: UInt64 {
        UInt64(count) * 4 + (1 << 20)
    }

    private mutating func grow(toCover id: Int) {
        let wanted = max(id + 1, dense.count * 2, 1024)
        dense.reserveCapacity(wanted)
        dense.append(contentsOf: repeatElement(Self.none, count: wanted - dense.count))
        // Identifiers the array now covers leave the dictionary.
        guard !sparse.isEmpty else { return }
        for (sparseID, slot) in sparse where sparseID < UInt64(dense.count) {
            dense[Int(sparseID)] = slot
            sparse[sparseID] = nil
        }
    }
}
