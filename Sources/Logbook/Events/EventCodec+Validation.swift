import Foundation

extension EventCodec {
    /// Checks that bytes are one well-formed event, exactly as ``decode(_:)-(ArraySlice<UInt8>)``
    /// would accept them, without building the event.
    ///
    /// Verification walks millions of events; building each one (its strings and arrays) would
    /// cost five times more than checking it. Schema records and migration markers are rare and
    /// are decoded in full.
    ///
    /// - Returns: `nil` for a sound event, otherwise what ``decode(_:)-(ArraySlice<UInt8>)``
    ///   would report.
    package static func validate(_ bytes: ArraySlice<UInt8>) -> String? {
        bytes.withUnsafeBytes { validate($0) }
    }

    /// Checks that bytes are one well-formed event; see ``validate(_:)-(ArraySlice<UInt8>)``.
    package static func validate(_ bytes: UnsafeRawBufferPointer) -> String? {
        if bytes.first == Kind.schema.rawValue || bytes.first == Kind.migration.rawValue {
            do throws(LogbookError) {
                _ = try decode([UInt8](bytes))
                return nil
            } catch {
                return error.message
            }
        }
        var walker = Walker(bytes: bytes)
        guard let problem = walker.event() else { return nil }
        return "undecodable event: \(problem) at byte \(walker.position) of the event"
    }

    /// Walks the grammar of ``decode(_:)-(ArraySlice<UInt8>)`` without allocating.
    ///
    /// The small readers are forced inline: left as calls, their prologues and epilogues took a
    /// fifth of `logbook verify` on SampleTrips-1M.
    private struct Walker {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        var remaining: Int { bytes.count - position }

        @inline(__always)
        mutating func byte() -> UInt8? {
            guard position < bytes.count else { return nil }
            defer { position += 1 }
            return bytes[position]
        }

        @inline(__always)
        mutating func number(limit: UInt64 = .max) -> Bool {
            guard let value = LEB128.read(bytes, at: &position) else { return false }
            return value <= limit
        }

        @inline(__always)
        mutating func count() -> Int? {
            guard let value = LEB128.read(bytes, at: &position), value <= UInt64(remaining) else { return nil }
            return Int(value)
        }

        /// Skips a length-prefixed UTF-8 string, checking that it is valid UTF-8.
        @inline(__always)
        mutating func string() -> Bool {
            stringBytes() != nil
        }

        /// The bytes of a length-prefixed UTF-8 string, or `nil` when it is cut short or not UTF-8.
        @inline(__always)
        mutating func stringBytes() -> UnsafeRawBufferPointer? {
            let start = position
            guard let length = count() else { return nil }
            let text = UnsafeRawBufferPointer(rebasing: bytes[position..<(position + length)])
            if !isASCII(text) && !Self.isUTF8(text) {
                position = start
                return nil
            }
            position += length
            return text
        }

        @inline(never)
        static func isUTF8(_ text: UnsafeRawBufferPointer) -> Bool {
            String(validating: text, as: UTF8.self) != nil
        }

        /// Whether every byte is below 0x80, checked eight bytes at a time.
        // Forced inline: most names and values are a few bytes long, and as a call this check
        // took an eighth of `logbook verify` on SampleTrips-100k.
        @inline(__always)
        func isASCII(_ text: UnsafeRawBufferPointer) -> Bool {
            var index = 0
            var high: UInt64 = 0
            while index + 8 <= text.count {
                high |= text.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                index += 8
            }
            while index < text.count {
                high |= UInt64(text[index])
                index += 1
            }
            return high & 0x8080_8080_8080_8080 == 0
        }

        @inline(__always)
        mutating func skip(_ count: Int) -> Bool {
            guard count <= remaining else { return false }
            position += count
            return true
        }

        mutating func event() -> String? {
            guard let tag = byte() else { return "empty event" }
            guard let kind = Kind(rawValue: tag) else { return "unknown event kind \(tag)" }
            guard number(limit: UInt64(UInt32.max)) else { return "invalid schema number" }
            switch kind {
            case .schema, .migration:
                preconditionFailure("schema records and markers are decoded in full")
            case .insert, .update:
                guard string() else { return "invalid entity name" }
                guard number(limit: maximumIdentifier) else { return "invalid identifier" }
                guard let attributes = count() else { return "invalid attribute count" }
                for _ in 0..<attributes {
                    guard string() else { return "invalid attribute name" }
                    if let problem = value(depth: 0) { return problem }
                }
                guard let references = count() else { return "invalid relationship count" }
                for _ in 0..<references {
                    guard string() else { return "invalid relationship name" }
                    switch byte() {
                    case 0: break
                    case 1: guard number(limit: maximumIdentifier) else { return "invalid target identifier" }
                    default: return "invalid to-one marker"
                    }
                }
            case .delete:
                guard string() else { return "invalid entity name" }
                guard number(limit: maximumIdentifier) else { return "invalid identifier" }
                if remaining > 0 {
                    guard let preserved = count(), preserved > 0 else { return "invalid preserved value count" }
                    for _ in 0..<preserved {
                        guard string() else { return "invalid attribute name" }
                        if let problem = value(depth: 0) { return problem }
                    }
                }
            case .link, .unlink:
                guard string() else { return "invalid entity name" }
                guard number(limit: maximumIdentifier) else { return "invalid identifier" }
                guard string() else { return "invalid relationship name" }
                guard let targets = count() else { return "invalid target count" }
                for _ in 0..<targets {
                    guard number(limit: maximumIdentifier) else { return "invalid target identifier" }
                }
            }
            return remaining == 0 ? nil : "\(remaining) bytes after the event"
        }

        mutating func value(depth: Int) -> String? {
            guard let tag = byte() else { return "missing value" }
            guard let kind = ValueTag(rawValue: tag) else { return "unknown value tag \(tag)" }
            switch kind {
            case .null, .false, .true:
                return nil
            case .int, .uint:
                return number() ? nil : "invalid integer"
            case .double, .date:
                return skip(8) ? nil : "truncated \(kind == .date ? "date" : "double")"
            case .float:
                return skip(4) ? nil : "truncated float"
            case .uuid:
                return skip(16) ? nil : "truncated UUID"
            case .string:
                return string() ? nil : "invalid string"
            case .decimal, .url:
                // Rare: check them the way decoding does.
                guard let utf8 = stringBytes() else { return "invalid \(kind == .url ? "URL" : "decimal")" }
                let text = String(decoding: utf8, as: UTF8.self)
                if kind == .url { return URL(string: text) == nil ? "invalid URL" : nil }
                return Decimal(string: text, locale: nil) == nil ? "invalid decimal '\(text)'" : nil
            case .data, .composite:
                guard let length = count(), skip(length) else {
                    return "truncated \(kind == .data ? "data" : "composite")"
                }
                return nil
            case .external:
                guard depth == 0 else { return "an external reference inside a value" }
                guard number(limit: .max), skip(32 + 4) else { return "truncated external reference" }
                return nil
            case .array:
                guard depth < maximumNesting else { return "arrays nested deeper than \(maximumNesting)" }
                guard let elements = count() else { return "invalid array length" }
                for _ in 0..<elements {
                    if let problem = value(depth: depth + 1) { return problem }
                }
                return nil
            }
        }

    }
}
