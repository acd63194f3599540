/// Appends little-endian integers, varints and length-prefixed bytes to a growing buffer.
///
/// The event codec writes with it. Every multi-byte integer is little-endian; lengths and counts
/// are unsigned LEB128 varints; signed varints are zigzag-encoded first.
package struct BinaryWriter: Sendable {
    package private(set) var bytes: [UInt8]
    /// The length of what the last ``writeWithLengthPrefix(_:)`` wrote after the prefix.
    package private(set) var lastPrefixedLength = 0

    package init(capacity: Int = 64) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// A writer into `buffer`'s memory: its bytes are dropped, its capacity kept. Hand over the
    /// only reference to it (`consume`): a buffer referred to elsewhere too is copied instead,
    /// as passing it on without `consume` did at each step.
    init(reusing buffer: consuming [UInt8]) {
        bytes = consume buffer
        bytes.removeAll(keepingCapacity: true)
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

    /// Writes `count` bytes that `body` initializes in place, every one of them, leaving room
    /// for at least `extra` more bytes after them.
    ///
    /// When the buffer has room for them, the bytes are zeroed first, then written: zeroing
    /// memory the process already uses costs far less than the first touch of new memory.
    /// Otherwise the bytes written so far are copied into a new buffer of the size needed, and
    /// `body` writes after them: for a large write after a few bytes, as a batch's inserts after
    /// its schema record. Writing into a buffer of its own and appending that allocated and
    /// touched the batch's size twice, and copied it once.
    mutating func writeInPlace(count: Int, extra: Int = 0, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        let start = bytes.count
        if bytes.capacity - start >= count + extra {
            bytes.append(contentsOf: repeatElement(0, count: count))
            bytes.withUnsafeMutableBufferPointer { buffer in
                body(UnsafeMutableBufferPointer(rebasing: buffer[start...]))
            }
            return
        }
        // An eighth more, so that the buffer, reused, has room for a slightly larger write.
        bytes = [UInt8](unsafeUninitializedCapacity: start + count + extra + count / 8) { buffer, initialized in
            guard let base = buffer.baseAddress else {
                body(buffer)
                return
            }
            bytes.withUnsafeBufferPointer { written in
                if let old = written.baseAddress { base.initialize(from: old, count: start) }
            }
            body(UnsafeMutableBufferPointer(start: base + start, count: count))
            initialized = start + count
        }
    }

    /// Writes what `body` writes, preceded by its length as a varint.
    ///
    /// The length is not known beforehand: one byte is set aside, which holds any length below
    /// 128; a longer body is moved to make room for the longer varint.
    package mutating func writeWithLengthPrefix(_ body: (inout BinaryWriter) throws -> Void) rethrows {
        let start = bytes.count
        bytes.append(0)
        do {
            try body(&self)
        } catch {
            bytes.removeSubrange(start...)
            throw error
        }
        let length = bytes.count - start - 1
        lastPrefixedLength = length
        if length < 0x80 {
            bytes[start] = UInt8(length)
            return
        }
        var prefix: [UInt8] = []
        LEB128.append(UInt64(length), to: &prefix)
        bytes.replaceSubrange(start..<start + 1, with: prefix)
    }
}

/// A string as ``BinaryWriter/writeString(_:)`` writes it, encoded once: for the names that
/// every event of an entity repeats.
package struct EncodedString: Sendable {
    /// The varint length and the UTF-8 bytes.
    package let bytes: [UInt8]

    package init(_ string: String) {
        var writer = BinaryWriter(capacity: string.utf8.count + 2)
        writer.writeString(string)
        bytes = writer.bytes
    }
}

extension BinaryWriter {
    /// Writes a string encoded beforehand: the same bytes as ``writeString(_:)``.
    package mutating func writeString(_ string: EncodedString) {
        writeBytes(string.bytes)
    }
}

/// Where ``EventCodec/encodeSized(_:into:)`` writes: a growing ``BinaryWriter``, or a
/// ``ByteCursor`` into a buffer sized beforehand.
protocol ByteSink {
    mutating func byte(_ value: UInt8)
    mutating func varint(_ value: UInt64)
    mutating func littleEndian<T: FixedWidthInteger>(_ value: T)
    mutating func bytes(_ source: UnsafeRawBufferPointer)
}

extension BinaryWriter: ByteSink {
    mutating func byte(_ value: UInt8) { write(value) }
    mutating func varint(_ value: UInt64) { writeVarint(value) }
    mutating func littleEndian<T: FixedWidthInteger>(_ value: T) { writeLittleEndian(value) }
    mutating func bytes(_ source: UnsafeRawBufferPointer) { writeBytes(source) }
}
