/// Reads what ``BinaryWriter`` writes, from a byte slice, without ever trapping.
///
/// Every read returns `nil` when the input is too short or malformed, and leaves the reader where
/// it was; callers turn that into a decoding error with the offset (``offset``) where it happened.
package struct BinaryReader {
    private let bytes: ArraySlice<UInt8>
    /// The index of the next byte in `bytes`.
    private var position: ArraySlice<UInt8>.Index

    package init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.position = bytes.startIndex
    }

    package init(_ bytes: [UInt8]) {
        self.init(bytes[...])
    }

    /// How many bytes have been read.
    package var offset: Int { position - bytes.startIndex }

    /// How many bytes remain.
    package var remaining: Int { bytes.endIndex - position }

    package var isAtEnd: Bool { position == bytes.endIndex }

    package mutating func readByte() -> UInt8? {
        guard position < bytes.endIndex else { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    package mutating func readLittleEndian<T: FixedWidthInteger>(as type: T.Type = T.self) -> T? {
        let size = MemoryLayout<T>.size
        guard remaining >= size else { return nil }
        let start = offset
        // One unaligned load, not a loop of generic shifts: checkpoints read millions of these.
        let stored = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: start, as: T.self) }
        position += size
        return T(littleEndian: stored)
    }

    package mutating func readVarint() -> UInt64? {
        var cursor = offset
        let value = bytes.withUnsafeBytes { LEB128.read($0, at: &cursor) }
        if value != nil { position = bytes.startIndex + cursor }
        return value
    }

    package mutating func readSignedVarint() -> Int64? {
        guard let raw = readVarint() else { return nil }
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    /// Reads a varint length, checked against what remains, then that many bytes.
    package mutating func readLengthPrefixed() -> ArraySlice<UInt8>? {
        let start = position
        guard let length = readVarint(), length <= UInt64(remaining) else {
            position = start
            return nil
        }
        return readBytes(Int(length))
    }

    package mutating func readBytes(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= remaining else { return nil }
        defer { position += count }
        return bytes[position..<(position + count)]
    }

    /// Reads a length-prefixed string; `nil` also when the bytes are not valid UTF-8.
    package mutating func readString() -> String? {
        let start = position
        guard let utf8 = readLengthPrefixed() else { return nil }
        guard let string = Self.string(validating: utf8) else {
            position = start
            return nil
        }
        return string
    }

    /// The text the bytes hold; `nil` when they are not valid UTF-8.
    ///
    /// ASCII, which most names and values are, needs no validation and is decoded from a
    /// buffer pointer: the generic path of `String(validating:as:)` looks up type metadata on
    /// every call, which dominated loading a checkpoint's strings.
    package static func string(validating utf8: ArraySlice<UInt8>) -> String? {
        utf8.withUnsafeBufferPointer { buffer in
            if buffer.allSatisfy({ $0 < 0x80 }) { return String(decoding: buffer, as: UTF8.self) }
            return String(validating: buffer, as: UTF8.self)
        }
    }
}
