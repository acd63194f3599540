/// A set of property indexes of one model type, as a bit set.
///
/// Indexes are positions in the model's binding (``_$ModelBinding``), which is declaration
/// order. The first 64 fit in one word without allocating; a model with more properties
/// allocates the rest.
@usableFromInline
struct PropertySet: Hashable, Sendable, Sequence {
    @usableFromInline private(set) var low: UInt64 = 0
    @usableFromInline private(set) var high: [UInt64] = []

    init() {}

    /// The set whose first word is `low` and whose further words are `high`.
    init(low: UInt64, high: [UInt64]) {
        self.low = low
        self.high = high
    }

    init(_ indexes: some Sequence<Int>) {
        for index in indexes { insert(index) }
    }

    @inlinable
    var isEmpty: Bool {
        low == 0 && high.allSatisfy { $0 == 0 }
    }

    var count: Int {
        high.reduce(low.nonzeroBitCount) { $0 + $1.nonzeroBitCount }
    }

    @inlinable
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
    @inline(__always)
    mutating func insert(_ index: Int) -> Bool {
        precondition(index >= 0, "A property index is never negative")
        // A replay adds every attribute of every object here: keep the usual case to a few
        // instructions.
        if index < 64 && high.isEmpty {
            let wasEmpty = low == 0
            low |= 1 << UInt64(index)
            return wasEmpty
        }
        return insertAnywhere(index)
    }

    private mutating func insertAnywhere(_ index: Int) -> Bool {
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
    @usableFromInline
    func makeIterator() -> Iterator {
        Iterator(low: low, high: high)
    }

    /// Walks the set bits word by word, without allocating.
    @usableFromInline
    struct Iterator: IteratorProtocol {
        private let high: [UInt64]
        /// The bits of the current word not returned yet.
        private var word: UInt64
        /// The current word: 0 for `low`, then 1 + its position in `high`.
        private var wordIndex = 0

        fileprivate init(low: UInt64, high: [UInt64]) {
            self.high = high
            self.word = low
        }

        @usableFromInline
        mutating func next() -> Int? {
            while word == 0 {
                guard wordIndex < high.count else { return nil }
                word = high[wordIndex]
                wordIndex += 1
            }
            let bit = word.trailingZeroBitCount
            word &= word - 1
            return wordIndex * 64 + bit
        }
    }

    @usableFromInline
    static func == (lhs: PropertySet, rhs: PropertySet) -> Bool {
        Array(lhs) == Array(rhs)
    }

    @usableFromInline
    func hash(into hasher: inout Hasher) {
        for index in self { hasher.combine(index) }
    }
}
