import Foundation

extension EventCodec {
    /// The first fields of an insert or update, as ``readChange(_:head:attribute:reference:)``
    /// hands them over: views into the event's bytes, valid only during the call.
    package struct ChangeHead {
        /// `true` for an update, `false` for an insert.
        package var isUpdate: Bool
        package var schemaNumber: UInt32
        /// The entity name's UTF-8 bytes.
        package var entity: UnsafeRawBufferPointer
        package var id: UInt64
    }

    /// An attribute value as ``readChange(_:head:attribute:reference:)`` hands it over.
    package enum ChangeValue {
        /// A value that needs no allocation: null, a Boolean, a number or a date.
        case scalar(AttributeValue)
        /// A string's UTF-8 bytes, already checked to be valid UTF-8.
        case string(UnsafeRawBufferPointer)
    }

    /// Reads an insert or update event field by field, without building it: for copying a store's
    /// events out (as `logbook dump` does) without an allocation per event.
    ///
    /// `head` is called first; when it returns `false` the reading stops there. Then `attribute`
    /// is called for each attribute and `reference` for each to-one relationship, in the order
    /// they are stored.
    ///
    /// - Returns: `true` when the whole event was read and is exactly what ``decode(_:)-(ArraySlice<UInt8>)``
    ///   would accept. `false` when `head` declined, or when the bytes are not an insert or update,
    ///   hold a value other than a scalar or a string, or are malformed; some closures may have
    ///   been called by then. The caller then decodes the event in full, which reports any damage.
    @inline(__always)
    package static func readChange(
        _ bytes: UnsafeRawBufferPointer,
        head: (ChangeHead) -> Bool,
        attribute: (UnsafeRawBufferPointer, ChangeValue) -> Void,
        reference: (UnsafeRawBufferPointer, UInt64?) -> Void
    ) -> Bool {
        var cursor = ChangeCursor(bytes: bytes)
        guard let tag = cursor.byte(), tag == Kind.insert.rawValue || tag == Kind.update.rawValue,
            let schemaNumber = cursor.number(), schemaNumber <= UInt64(UInt32.max),
            let entity = cursor.string(), let id = cursor.number()
        else { return false }
        let change = ChangeHead(
            isUpdate: tag == Kind.update.rawValue,
            schemaNumber: UInt32(schemaNumber),
            entity: entity,
            id: id
        )
        guard head(change), let attributes = cursor.count() else { return false }
        for _ in 0..<attributes {
            guard let name = cursor.string(), let value = cursor.value() else { return false }
            attribute(name, value)
        }
        guard let references = cursor.count() else { return false }
        for _ in 0..<references {
            guard let name = cursor.string() else { return false }
            switch cursor.byte() {
            case 0:
                reference(name, nil)
            case 1:
                guard let target = cursor.number() else { return false }
                reference(name, target)
            default:
                return false
            }
        }
        return cursor.position == bytes.count
    }

    /// The grammar of ``decode(_:)-(ArraySlice<UInt8>)`` for the parts of an insert or update,
    /// over raw bytes.
    private struct ChangeCursor {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        @inline(__always)
        mutating func byte() -> UInt8? {
            guard position < bytes.count else { return nil }
            defer { position += 1 }
            return bytes[position]
        }

        @inline(__always)
        mutating func number() -> UInt64? {
            LEB128.read(bytes, at: &position)
        }

        /// A count, checked against the bytes left: every element takes at least one byte.
        @inline(__always)
        mutating func count() -> Int? {
            guard let value = number(), value <= UInt64(bytes.count - position) else { return nil }
            return Int(value)
        }

        @inline(__always)
        mutating func string() -> UnsafeRawBufferPointer? {
            guard let length = count() else { return nil }
            let text = UnsafeRawBufferPointer(rebasing: bytes[position..<(position + length)])
            if !isASCII(from: position, count: length) && String(validating: text, as: UTF8.self) == nil {
                return nil
            }
            position += length
            return text
        }

        /// Whether the `count` bytes at `start` are all below 0x80, eight at a time: byte by
        /// byte, this test was the hottest instruction of a replay. The last word ends with the
        /// text, reaching back into the bytes before it (which it ignores) or into its own
        /// earlier bytes, so that the short names and values of most events take one word.
        @inline(__always)
        private func isASCII(from start: Int, count: Int) -> Bool {
            let end = start &+ count
            if end < 8 {
                var high: UInt8 = 0
                for index in start..<end { high |= bytes[index] }
                return high & 0x80 == 0
            }
            var high: UInt64 = 0
            var index = start
            while index &+ 8 < end {
                high |= bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                index &+= 8
            }
            // The last (up to) eight bytes, little-endian so that the bytes before `index` are the
            // low ones, shifted out.
            let last = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: end &- 8, as: UInt64.self))
            high |= last >> (UInt64(8 &- (end &- index)) &* 8)
            return high & 0x8080_8080_8080_8080 == 0
        }

        mutating func bits<T: FixedWidthInteger>(_ type: T.Type) -> T? {
            let size = MemoryLayout<T>.size
            guard bytes.count - position >= size else { return nil }
            defer { position += size }
            return T(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: T.self))
        }

        mutating func value() -> ChangeValue? {
            guard let tag = byte().flatMap(ValueTag.init(rawValue:)) else { return nil }
            switch tag {
            case .null: return .scalar(.null)
            case .false: return .scalar(.bool(false))
            case .true: return .scalar(.bool(true))
            case .int:
                guard let raw = number() else { return nil }
                return .scalar(.int(Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)))
            case .uint:
                return number().map { .scalar(.uint($0)) }
            case .double:
                return bits(UInt64.self).map { .scalar(.double(Double(bitPattern: $0))) }
            case .float:
                return bits(UInt32.self).map { .scalar(.float(Float(bitPattern: $0))) }
            case .date:
                return bits(UInt64.self).map {
                    .scalar(.date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: $0))))
                }
            case .string:
                return string().map { .string($0) }
            case .decimal, .uuid, .url, .data, .array, .composite, .external:
                return nil
            }
        }
    }
}
