/// Unsigned LEB128 variable-length integers: seven bits a byte, least significant group first,
/// the high bit set on every byte but the last.
package enum LEB128 {
    /// The most bytes an encoded `UInt64` takes.
    package static let maximumLength = 10

    /// Appends the encoding of `value` to `bytes`.
    package static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// The number of bytes `value` takes when encoded.
    package static func length(of value: UInt64) -> Int {
        var rest = value
        var count = 1
        while rest >= 0x80 {
            rest >>= 7
            count += 1
        }
        return count
    }

    /// Decodes a value at `offset`, advancing it.
    ///
    /// - Returns: `nil` when the bytes end early or the encoding is longer than ten bytes or
    ///   overflows 64 bits. Never traps.
    // Inlined because verification and dumping read several varints per event: with the call,
    // `logbook verify` of SampleTrips-100k spent 15% of its time in this function.
    @inline(__always)
    package static func read(_ bytes: UnsafeRawBufferPointer, at offset: inout Int) -> UInt64? {
        // Most lengths, counts and identifiers fit in one byte.
        if offset < bytes.count {
            let first = bytes[offset]
            if first < 0x80 {
                offset += 1
                return UInt64(first)
            }
        }
        return readLong(bytes, at: &offset)
    }

    /// The general case of ``read(_:at:)``: a value of two or more bytes, or a malformed one.
    private static func readLong(_ bytes: UnsafeRawBufferPointer, at offset: inout Int) -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        var position = offset
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if shift == 63 && byte > 1 { return nil }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 {
                offset = position
                return result
            }
            shift += 7
            if shift > 63 { return nil }
        }
        return nil
    }
}
