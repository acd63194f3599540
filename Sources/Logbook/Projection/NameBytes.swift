#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A name's UTF-8 bytes, kept so that comparing them with the bytes of an event costs a few
/// instructions: the length, then the first eight bytes as one word, then the rest only when
/// both match.
///
/// A replay compares the entity, attribute and relationship names of every event with the
/// names it met last time; most names are at most eight bytes long.
struct NameBytes: Sendable {
    let count: Int
    private let prefix: UInt64
    private let bytes: [UInt8]

    init(_ name: String) {
        bytes = Array(name.utf8)
        count = bytes.count
        prefix = bytes.withUnsafeBytes { Self.prefix(of: $0) }
    }

    /// The first eight bytes as a word, zero-filled past the end of a shorter name; read the
    /// same way on both sides, so the byte order of the machine does not matter.
    @inline(__always)
    private static func prefix(of bytes: UnsafeRawBufferPointer) -> UInt64 {
        if bytes.count >= 8 { return bytes.loadUnaligned(as: UInt64.self) }
        var word: UInt64 = 0
        for index in 0..<bytes.count { word |= UInt64(bytes[index]) << (UInt64(index) &* 8) }
        return word
    }

    /// Whether `other` holds exactly these bytes.
    @inline(__always)
    func matches(_ other: UnsafeRawBufferPointer) -> Bool {
        guard other.count == count, Self.prefix(of: other) == prefix else { return false }
        if count <= 8 { return true }
        return bytes.withUnsafeBytes { mine in
            guard let left = mine.baseAddress, let right = other.baseAddress else { return false }
            return memcmp(left + 8, right + 8, count - 8) == 0
        }
    }
}
