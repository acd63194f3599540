/// The targets of one to-many relationship, a list per slot.
///
/// A table replayed from the log holds an array per slot. A table loaded from a checkpoint
/// reads its lists where they lie in the file (where each slot's targets end, then every
/// target, as the On-disk format article lays out) until a slot's list changes: that slot then
/// gets an array of its own. Loading therefore allocates no array per object, and a fetch reads
/// the lists of the objects it returns.
struct LinkLists: Sendable {
    /// The lists of the slots that changed since the load, and of every slot added since; an
    /// empty array for a slot whose list is still the file's.
    private var lists: [[UInt64]] = []
    /// For each slot below `stored.count`, whether its list is in `lists`.
    private var changed: [Bool] = []
    private var stored: StoredLinks?

    init() {}

    /// The lists of `stored.count` slots as the checkpoint holds them.
    init(stored: StoredLinks) {
        self.stored = stored
        lists = Array(repeating: [], count: stored.count)
        changed = Array(repeating: false, count: stored.count)
    }

    /// The number of slots.
    var count: Int { lists.count }

    /// Whether the list of `slot` is still the checkpoint's.
    @inline(__always)
    private func isStored(_ slot: Int) -> Bool {
        slot < changed.count && !changed[slot]
    }

    /// The targets of the object in `slot`.
    subscript(slot: Int) -> [UInt64] {
        if isStored(slot), let stored { return stored.targets(slot) }
        return lists[slot]
    }

    /// Calls `body` with each target of the object in `slot`, in order.
    @inline(__always)
    func forEach(in slot: Int, _ body: (UInt64) -> Void) {
        if isStored(slot), let stored {
            stored.forEach(in: slot, body)
            return
        }
        for target in lists[slot] { body(target) }
    }

    /// Lets go of the memory of the checkpoint's chunks that hold the list of `slot`, while it is
    /// still the checkpoint's: after a read of the list, for an object met at random.
    func dropChunks(of slot: Int) {
        if isStored(slot), let stored { stored.dropChunks(of: slot) }
    }

    /// Adds a slot with no targets.
    mutating func appendSlot() {
        lists.append([])
    }

    /// Changes the list of `slot` in place.
    mutating func update<Result>(_ slot: Int, _ body: (inout [UInt64]) -> Result) -> Result {
        if isStored(slot), let stored {
            lists[slot] = stored.targets(slot)
            changed[slot] = true
        }
        return body(&lists[slot])
    }
}

/// The to-many lists of one relationship as a checkpoint stores them: for each slot the
/// position where its targets end, then all the targets, 64-bit little-endian words.
struct StoredLinks: @unchecked Sendable {
    /// The checkpoint the words lie in, kept alive with them.
    let region: CheckpointBytes
    private let ends: UnsafeRawPointer
    private let targets: UnsafeRawPointer
    /// The number of slots.
    let count: Int

    /// The lists of `count` slots whose ends start at byte `ends` of `region` and whose targets
    /// start at byte `targets`; ``CheckpointReader`` checked that the ends ascend and that the
    /// targets lie within the section.
    init(region: CheckpointBytes, ends: Int, targets: Int, count: Int) {
        self.region = region
        self.ends = region.base + ends
        self.targets = region.base + targets
        self.count = count
    }

    @inline(__always)
    private func end(_ slot: Int) -> Int {
        Int(truncatingIfNeeded: UInt64(littleEndian: ends.loadUnaligned(fromByteOffset: slot &* 8, as: UInt64.self)))
    }

    @inline(__always)
    private func bounds(_ slot: Int) -> Range<Int> {
        (slot == 0 ? 0 : end(slot &- 1))..<end(slot)
    }

    @inline(__always)
    private func target(_ position: Int) -> UInt64 {
        UInt64(littleEndian: targets.loadUnaligned(fromByteOffset: position &* 8, as: UInt64.self))
    }

    func targets(_ slot: Int) -> [UInt64] {
        bounds(slot).map(target)
    }

    /// Lets go of the memory of the chunks that hold the list of `slot`: where it ends, and its
    /// targets (see ``CheckpointBytes/dropChunks(holding:)``).
    func dropChunks(of slot: Int) {
        let endsOffset = ends - region.base
        region.dropChunks(holding: (endsOffset + Swift.max(slot - 1, 0) * 8)..<(endsOffset + (slot + 1) * 8))
        let list = bounds(slot)
        let targetsOffset = targets - region.base
        if !list.isEmpty {
            region.dropChunks(holding: (targetsOffset + list.lowerBound * 8)..<(targetsOffset + list.upperBound * 8))
        }
    }

    @inline(__always)
    func forEach(in slot: Int, _ body: (UInt64) -> Void) {
        for position in bounds(slot) { body(target(position)) }
    }
}
