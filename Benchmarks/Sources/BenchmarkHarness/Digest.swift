import Foundation

/// A running FNV-1a digest of the values a workload touched.
///
/// Touching an object means reading each of its attributes: a string's length, a date's bits, a
/// boolean. That is what a program does with loaded objects at the least, and it keeps the
/// optimiser from dropping the loading.
public struct Digest: Sendable {
    public private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    public init() {}

    public mutating func add(_ integer: Int) {
        value = (value ^ UInt64(truncatingIfNeeded: integer)) &* 0x0000_0100_0000_01B3
    }

    public mutating func add(_ string: String) {
        add(string.utf8.count)
    }

    public mutating func add(_ date: Date) {
        add(Int(truncatingIfNeeded: date.timeIntervalSince1970.bitPattern))
    }

    public mutating func add(_ flag: Bool) {
        add(flag ? 1 : 0)
    }
}
