/// A column of 64-bit words, one per slot: a table's identifiers, or the targets of a to-one
/// relationship.
///
/// A table replayed from the log holds its columns in arrays. A table loaded from a checkpoint
/// reads them where they lie in the file, little-endian words in place (see the On-disk format
/// article), until the column is first written: it then copies them into an array of its own,
/// once. An open from a checkpoint therefore neither allocates nor copies the columns of a
/// table it only reads.
struct WordColumn: RandomAccessCollection, @unchecked Sendable {
    // Unchecked: `stored` points into `region`'s bytes, which never change and stay alive as
    // long as this column refers to them.

    /// The words once copied, or for a column that never was in a checkpoint.
    private var owned: [UInt64] = []
    /// The first stored word, while the column is still the checkpoint's.
    private var stored: UnsafeRawPointer?
    private var storedCount = 0
    /// The checkpoint that holds the stored words, kept alive with them.
    private var region: CheckpointBytes?

    /// An empty column.
    init() {}

    /// The words of `array`.
    init(_ array: [UInt64]) {
        owned = array
    }

    /// `count` words of `region`, from byte `offset`, read in place until the column changes.
    init(stored region: CheckpointBytes, offset: Int, count: Int) {
        let bytes = region.buffer(offset..<(offset + count * 8))
        self.region = region
        stored = bytes.baseAddress
        storedCount = count
    }

    var startIndex: Int { 0 }
    var endIndex: Int { stored == nil ? owned.count : storedCount }

    /// Whether the words are still read from a checkpoint.
    var isStored: Bool { stored != nil }

    subscript(position: Int) -> UInt64 {
        @inline(__always) get {
            if let stored {
                precondition(UInt(bitPattern: position) < UInt(bitPattern: storedCount), "index out of range")
                return UInt64(littleEndian: stored.loadUnaligned(fromByteOffset: position &* 8, as: UInt64.self))
            }
            return owned[position]
        }
        set {
            makeOwned()
            owned[position] = newValue
        }
    }

    /// Lets go of the memory of the pages that hold words `range` while they are still read
    /// from a checkpoint (whole pages only; see ``CheckpointBytes/dropPages(_:)``): for a pass
    /// that read them once. A later read maps them again from the page cache. Nothing for words
    /// the column owns.
    func dropPages(_ range: Range<Int>) {
        guard let stored, let region else { return }
        let start = stored - region.base
        let words = range.clamped(to: 0..<storedCount)
        region.dropPages((start + words.lowerBound * 8)..<(start + words.upperBound * 8))
    }

    /// Lets go of the memory of the chunk of the checkpoint that holds word `position`, while
    /// the words are still read from it (see ``CheckpointBytes/dropChunks(holding:)``): after a
    /// lookup of one object. Nothing for words the column owns.
    func dropChunk(around position: Int) {
        dropChunks(around: CollectionOfOne(position))
    }

    /// ``dropChunk(around:)`` for each of `positions`, each chunk once.
    func dropChunks(around positions: some Sequence<Int>) {
        guard let stored, let region else { return }
        let start = stored - region.base
        var dropped: [Int] = []
        for position in positions where position >= 0 && position < storedCount {
            let offset = start + position * 8
            let chunk = offset / CheckpointFormat.chunkSize
            guard !dropped.contains(chunk) else { continue }
            dropped.append(chunk)
            region.dropChunks(holding: offset..<(offset + 8))
        }
    }

    /// Adds a word at the end.
    mutating func append(_ word: UInt64) {
        makeOwned()
        owned.append(word)
    }

    /// Copies the stored words into ``owned``, before the first change.
    private mutating func makeOwned() {
        guard let start = stored else { return }
        let count = storedCount
        owned = [UInt64](unsafeUninitializedCapacity: count) { buffer, initialized in
            for index in 0..<count {
                buffer[index] = UInt64(littleEndian: start.loadUnaligned(fromByteOffset: index &* 8, as: UInt64.self))
            }
            initialized = count
        }
        stored = nil
        storedCount = 0
        region = nil
    }
}
