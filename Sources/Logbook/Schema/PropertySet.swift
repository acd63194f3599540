/// A set of property indexes of one model type, as a bit set.
///
/// Indexes are positions in the model's binding (``_$ModelBinding``), which is declaration
/// order. The first 64 fit in one word without allocating; a model with more properties
/// allocates the rest.
struct PropertySet: Hashable, Sendable, Sequence {
    private var low: UInt64 = 0
    private var high: [UInt64] = []

    init() {}

    init(_ indexes: some Sequence<Int>) {
        for index in indexes { insert(index) }
    }

    var isEmpty: Bool {
        low == 0 && high.allSatisfy { $0 == 0 }
    }

    var count: Int {
        high.reduce(low.nonzeroBitCount) { $0 + $1.nonzeroBitCount }
    }

    func contains(_ index: Int) -> Bool {
        precondition(index >= 0, "A property index is never negative")
        if index < 64 { return low & (1 << UInt64(index)) != 0 }
        let word = index / 64 - 1
        guard word < high.count else { return false }
        return high[word] & (1 << UInt64(index % 64)) != 0
    }

    /// Adds an index.
    ///
    /// - Returns: Whether the set was empty before.
    @discardableResult
    mutating func insert(_ index: Int) -> Bool {
        precondition(index >= 0, "A property index is never negative")
        let wasEmpty = isEmpty
        if index < 64 {
            low |= 1 << UInt64(index)
        } else {
            let word = index / 64 - 1
            if word >= high.count { high.append(contentsOf: repeatElement(0, count: word - high.count + 1)) }
            high[word] |= 1 << UInt64(index % 64)
        }
        return wasEmpty
    }

    mutating func remove(_ index: Int) {
        precondition(index >= 0, "A property index is never negative")
        if index < 64 {
            low &= ~(1 << UInt64(index))
        } else {
            let word = index / 64 - 1
            guard word < high.count else { return }
            high[word] &= ~(1 << UInt64(index % 64))
        }
    }

    mutating func removeAll() {
        low = 0
        high = []
    }

    /// The indexes in increasing order.
    func makeIterator() -> Iterator {
        Iterator(words: [low] + high)
    }

    struct Iterator: IteratorProtocol {
        fileprivate let words: [UInt64]
        private var position = 0

        fileprivate init(words: [UInt64]) {
            self.words = words
        }

        mutating func next() -> Int? {
            while position < words.count * 64 {
                let index = position
                position += 1
                if words[index / 64] & (1 << UInt64(index % 64)) != 0 { return index }
            }
            return nil
        }
    }

    static func == (lhs: PropertySet, rhs: PropertySet) -> Bool {
        Array(lhs) == Array(rhs)
    }

    func hash(into hasher: inout Hasher) {
        for index in self { hasher.combine(index) }
    }
}
