/// Appends little-endian integers, varints and length-prefixed bytes to a growing buffer.
///
/// The event codec writes with it. Every multi-byte integer is little-endian; lengths and counts
/// are unsigned LEB128 varints; signed varints are zigzag-encoded first.
package struct BinaryWriter {
    package private(set) var bytes: [UInt8]

    package init(capacity: Int = 64) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    package mutating func write(_ byte: UInt8) {
        bytes.append(byte)
    }

    package mutating func writeLittleEndian<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    package mutating func writeVarint(_ value: UInt64) {
        LEB128.append(value, to: &bytes)
    }

    /// Writes a signed integer as a zigzag varint, so that small negative numbers stay short.
    package mutating func writeSignedVarint(_ value: Int64) {
        writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// Writes a varint length and then the bytes.
    package mutating func writeLengthPrefixed(_ data: some Collection<UInt8>) {
        writeVarint(UInt64(data.count))
        bytes.append(contentsOf: data)
    }

    /// Writes a string as its UTF-8 bytes, length-prefixed.
    package mutating func writeString(_ string: String) {
        var copy = string
        copy.withUTF8 { utf8 in
            writeVarint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    package mutating func writeBytes(_ data: some Collection<UInt8>) {
        bytes.append(contentsOf: data)
    }
}
