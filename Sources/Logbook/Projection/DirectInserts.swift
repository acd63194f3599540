/// The inserts of a batch, recorded from the models a save inserts: the projection applies
/// them from these values, and the batch's bytes are encoded from them
/// (``EventCodec/appendInserts(_:names:schemaNumber:to:leavingRoomFor:)``). A replay's
/// ``InsertPredecoder`` records the inserts it decodes from a batch's bytes here too; both end
/// in the same rows (``Projection/applyInsert(_:at:sequence:takingValues:)``).
///
/// Flat, so that a batch of thousands of inserts makes a handful of arrays rather than two per
/// insert. The saving thread fills it, encodes the batch's bytes from it, then moves the values
/// out into the projection (``withValuesToTake(_:)``). A replay hands a predecoded batch to the
/// one thread that applies it, which moves the values out too: it is `Sendable` for that.
package final class DirectInserts: @unchecked Sendable {
    /// One insert: its table, its identifier, and where its attributes and to-one references
    /// are in the flat arrays.
    package struct Head {
        package let table: Int
        package let id: UInt64
        package let attributes: Range<Int>
        package let references: Range<Int>
    }

    // Unchecked: every access is a single step that calls out to nothing.
    @exclusivity(unchecked) package private(set) var heads: [Head] = []
    @exclusivity(unchecked) private(set) var attributeIndexes: [Int] = []
    @exclusivity(unchecked) private(set) var values: [AttributeValue] = []
    @exclusivity(unchecked) private(set) var references: [(relationship: Int, target: UInt64)] = []
    /// For each insert a replay decoded ahead or a save recorded: the ``UniqueIndex/hash(_:)``
    /// of its table's one unique attribute, with bit 32 set, or 0 where it has none. The
    /// applying thread then neither hashes the value nor waits for the index's bucket, which it
    /// asks for a few inserts ahead.
    @exclusivity(unchecked) private(set) var uniqueHashes: [UInt64] = []

    @exclusivity(unchecked) private var open: (table: Int, id: UInt64, attributes: Int, references: Int)?

    package init() {}

    /// Starts recording the insert of `id` into `table`.
    package func begin(table: Int, id: UInt64) {
        precondition(open == nil, "an insert is being recorded already")
        open = (table, id, values.count, references.count)
    }

    /// Records the value of the table's attribute at `index`, in the order the event lists it.
    package func attribute(_ index: Int, _ value: AttributeValue) {
        attributeIndexes.append(index)
        values.append(value)
    }

    /// Records a to-one reference that the event carries, after its attributes.
    package func reference(_ relationship: Int, _ target: UInt64) {
        references.append((relationship, target))
    }

    /// Records the unique hash (see ``uniqueHashes``) of the insert ended last.
    func setUniqueHash(_ hash: UInt32) {
        let position = heads.count - 1
        precondition(position >= 0 && open == nil, "a unique hash belongs to an ended insert")
        if uniqueHashes.count < position {
            uniqueHashes.append(contentsOf: repeatElement(0, count: position - uniqueHashes.count))
        }
        uniqueHashes.append(1 << 32 | UInt64(hash))
    }

    /// The unique hash recorded for the insert at `index`, if any.
    @inline(__always)
    func uniqueHash(at index: Int) -> UInt32? {
        guard index < uniqueHashes.count else { return nil }
        let word = uniqueHashes[index]
        return word == 0 ? nil : UInt32(truncatingIfNeeded: word)
    }

    /// Makes room for `count` inserts of a few attributes and a to-one reference or so each,
    /// as most models have: growing the arrays as they filled copied them over and over.
    func reserveCapacity(forInserts count: Int) {
        heads.reserveCapacity(count)
        attributeIndexes.reserveCapacity(count * 4)
        values.reserveCapacity(count * 4)
        references.reserveCapacity(count)
    }

    /// Calls `body` with the recorded values, for a caller that moves values out of them,
    /// leaving `null` in their place.
    ///
    /// For a replay, which applies each recorded insert once and then drops them all, and for a
    /// save once its batch is encoded: the projection takes each string without retaining it,
    /// and dropping the recorded inserts releases nothing. One pointer for all the values:
    /// taking them one by one checked the array's uniqueness for each.
    func withValuesToTake<Result>(_ body: (UnsafeMutableBufferPointer<AttributeValue>) -> Result) -> Result {
        values.withUnsafeMutableBufferPointer { body($0) }
    }

    /// Calls `body` with the recorded values, to copy them.
    func withValues<Result>(_ body: (UnsafeBufferPointer<AttributeValue>) -> Result) -> Result {
        values.withUnsafeBufferPointer { body($0) }
    }

    /// Forgets every insert, keeping the arrays' memory for the next batch.
    func removeAll() {
        heads.removeAll(keepingCapacity: true)
        attributeIndexes.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        references.removeAll(keepingCapacity: true)
        uniqueHashes.removeAll(keepingCapacity: true)
        open = nil
    }

    /// Drops the insert being recorded, as if it had never begun.
    func cancel() {
        guard let open else { return }
        attributeIndexes.removeSubrange(open.attributes...)
        values.removeSubrange(open.attributes...)
        references.removeSubrange(open.references...)
        self.open = nil
    }

    /// Ends the insert begun last.
    package func end() {
        guard let open else { preconditionFailure("no insert is being recorded") }
        heads.append(
            Head(
                table: open.table,
                id: open.id,
                attributes: open.attributes..<values.count,
                references: open.references..<references.count
            )
        )
        self.open = nil
    }
}
