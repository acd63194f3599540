/// SplitMix64, the seedable 64-bit generator of Steele, Lea and Flood ("Fast splittable
/// pseudorandom number generators", OOPSLA 2014).
///
/// The data sets must be identical on every machine and every toolchain, so nothing here goes
/// through the standard library's `random(in:using:)`, whose algorithm is not specified: the
/// generator and the bounded draws below are the whole of the randomness.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// The increment of the state, the odd integer closest to 2^64 / φ.
    static let gamma: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// Creates a generator whose sequence is fully determined by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// Returns the next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= Self.gamma
        return Self.mix(state)
    }

    /// Returns an integer in `0..<bound`, by Lemire's multiply-high reduction.
    ///
    /// The bias is below `bound / 2^64`, far under anything a benchmark data set can notice, and
    /// the result depends only on the generator's state.
    ///
    /// - Precondition: `bound > 0`.
    public mutating func next(below bound: Int) -> Int {
        precondition(bound > 0, "a bounded draw needs a positive bound")
        return Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// Returns `true` with probability `percent` / 100.
    public mutating func chance(percent: Int) -> Bool {
        next(below: 100) < percent
    }

    /// Returns one element of a non-empty array.
    public mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[next(below: elements.count)]
    }

    /// The SplitMix64 output function (a variant of MurmurHash3's 64-bit finalizer).
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A generator for element `index` of a stream seeded with `seed`.
    ///
    /// Seeding element `i` with `seed + i·γ` would make neighbouring elements share all but one
    /// draw, so the per-element seed is passed through the output function first.
    public static func forElement(_ index: Int, of seed: UInt64) -> SplitMix64 {
        SplitMix64(seed: mix(seed &+ UInt64(truncatingIfNeeded: index) &* gamma))
    }
}
