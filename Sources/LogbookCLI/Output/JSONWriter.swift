import Foundation
import Logbook

/// Writes JSON by hand into a byte buffer: one object per line, fast enough to stream a store.
///
/// A class over memory it manages itself, so that appending a byte is a store and an increment:
/// over an `[UInt8]`, the copy-on-write checks and the reference counting around every append
/// took about a quarter of the time `logbook dump --format json` spent on SampleTrips-100k.
final class JSONWriter {
    private var storage: UnsafeMutableRawPointer
    private var capacity: Int
    /// The number of bytes written since the last ``reset()``.
    private(set) var count = 0
    /// One bit per open object or array, innermost in bit 0: whether the next value there needs
    /// a comma before it.
    private var needsComma: UInt64 = 0
    private var depth = 0
    private var pendingKey = false

    init(capacity: Int = 1 << 16) {
        self.capacity = max(capacity, 64)
        storage = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 8)
    }

    deinit {
        storage.deallocate()
    }

    /// A copy of the bytes written since the last ``reset()``.
    var bytes: [UInt8] {
        withBytes { [UInt8]($0) }
    }

    /// Calls `body` with the bytes written since the last ``reset()``.
    func withBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        try body(UnsafeRawBufferPointer(start: storage, count: count))
    }

    func reset() {
        rollBack(to: 0)
    }

    /// Forgets what was written after the first `count` bytes, which must end at the top level
    /// (between two values, outside any object or array).
    func rollBack(to count: Int) {
        precondition(count <= self.count, "rolling back to bytes never written")
        self.count = count
        needsComma = 0
        depth = 0
        pendingKey = false
    }

    func beginObject() {
        separate()
        append(UInt8(ascii: "{"))
        push()
    }

    func endObject() {
        pop()
        append(UInt8(ascii: "}"))
    }

    func beginArray() {
        separate()
        append(UInt8(ascii: "["))
        push()
    }

    func endArray() {
        pop()
        append(UInt8(ascii: "]"))
    }

    func key(name: String) {
        separate()
        appendString(name)
        append(UInt8(ascii: ":"))
        pendingKey = true
    }

    /// A key given as UTF-8 bytes.
    func key(utf8 name: UnsafeRawBufferPointer) {
        separate()
        appendUTF8(name)
        append(UInt8(ascii: ":"))
        pendingKey = true
    }

    /// A key known at compile time, which needs no escaping.
    func key(_ name: StaticString) {
        separate()
        appendQuoted(name)
        append(UInt8(ascii: ":"))
        pendingKey = true
    }

    func string(_ value: String) {
        separate()
        appendString(value)
    }

    /// A string known at compile time, which needs no escaping.
    func string(constant value: StaticString) {
        separate()
        appendQuoted(value)
    }

    /// A string given as UTF-8 bytes.
    func string(utf8 value: UnsafeRawBufferPointer) {
        separate()
        appendUTF8(value)
    }

    func number(_ value: UInt64) {
        separate()
        appendDigits(value)
    }

    func number(_ value: Int64) {
        separate()
        if value < 0 { append(UInt8(ascii: "-")) }
        appendDigits(value.magnitude)
    }

    func raw(_ text: String) {
        separate()
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    func rawBytes(_ data: Data) {
        separate()
        data.withUnsafeBytes { append($0) }
    }

    func newline() {
        append(UInt8(ascii: "\n"))
    }

    // MARK: - Bytes
    //
    // The three functions below are forced inline: the optimizer left them as calls, and
    // `reserve` alone then took a tenth of `logbook dump --format json` on SampleTrips-100k.

    @inline(__always)
    private func reserve(_ extra: Int) {
        if count + extra > capacity { grow(toHold: extra) }
    }

    @inline(never)
    private func grow(toHold extra: Int) {
        var newCapacity = capacity * 2
        while count + extra > newCapacity { newCapacity *= 2 }
        let grown = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 8)
        grown.copyMemory(from: storage, byteCount: count)
        storage.deallocate()
        storage = grown
        capacity = newCapacity
    }

    @inline(__always)
    fileprivate func append(_ byte: UInt8) {
        reserve(1)
        storage.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    @inline(__always)
    fileprivate func append(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (storage + count).copyMemory(from: base, byteCount: bytes.count)
        count += bytes.count
    }

    /// Writes a string literal between quotes, straight from its bytes: the literals this type
    /// is given are ASCII and need no escaping.
    @inline(__always)
    private func appendQuoted(_ literal: StaticString) {
        guard literal.hasPointerRepresentation else {
            // A literal of one Unicode scalar.
            append(UInt8(ascii: "\""))
            literal.withUTF8Buffer { append(UnsafeRawBufferPointer($0)) }
            append(UInt8(ascii: "\""))
            return
        }
        let length = literal.utf8CodeUnitCount
        reserve(length + 2)
        storage.storeBytes(of: UInt8(ascii: "\""), toByteOffset: count, as: UInt8.self)
        (storage + count + 1).copyMemory(from: literal.utf8Start, byteCount: length)
        storage.storeBytes(of: UInt8(ascii: "\""), toByteOffset: count + length + 1, as: UInt8.self)
        count += length + 2
    }

    private func push() {
        precondition(depth < 64, "JSON nested deeper than 64 levels")
        depth += 1
        needsComma <<= 1
    }

    private func pop() {
        depth -= 1
        needsComma >>= 1
    }

    @inline(__always)
    fileprivate func separate() {
        if pendingKey {
            pendingKey = false
        } else if depth > 0 && needsComma & 1 != 0 {
            append(UInt8(ascii: ","))
        }
        if depth > 0 { needsComma |= 1 }
    }

    /// Writes the decimal digits of `value` without going through a `String`.
    private func appendDigits(_ value: UInt64) {
        reserve(20)
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { scratch in
            var rest = value
            var index = scratch.count
            repeat {
                index -= 1
                scratch[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            append(UnsafeRawBufferPointer(rebasing: scratch[index...]))
        }
    }

    private func appendString(_ value: String) {
        var text = value
        text.withUTF8 { appendUTF8(UnsafeRawBufferPointer($0)) }
    }

    private func appendUTF8(_ buffer: UnsafeRawBufferPointer) {
        // Most strings need no escaping: copy them in one go, between quotes.
        guard !Self.needsEscaping(buffer) else {
            append(UInt8(ascii: "\""))
            for byte in buffer { appendEscaped(byte) }
            append(UInt8(ascii: "\""))
            return
        }
        let length = buffer.count
        reserve(length + 2)
        let start = storage + count
        start.storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
        if let base = buffer.baseAddress { (start + 1).copyMemory(from: base, byteCount: length) }
        start.storeBytes(of: UInt8(ascii: "\""), toByteOffset: length + 1, as: UInt8.self)
        count += length + 2
    }

    /// Whether `buffer` holds a byte that JSON escapes: a control character, `"` or `\`.
    ///
    /// Tests eight bytes at a time: a byte below 0x20, and a byte equal to a given one after an
    /// exclusive or, is a byte below a bound, which a subtraction shows in its high bit.
    static func needsEscaping(_ buffer: UnsafeRawBufferPointer) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func flagged(_ word: UInt64) -> Bool {
            func below(_ value: UInt64, _ bound: UInt64) -> UInt64 {
                (value &- ones &* bound) & ~value & highs
            }
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            return below(word, 0x20) | below(quote, 1) | below(backslash, 1) != 0
        }
        guard buffer.count >= 8 else {
            for byte in buffer where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return true
            }
            return false
        }
        var offset = 0
        while offset + 8 < buffer.count {
            if flagged(buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) { return true }
            offset += 8
        }
        // The last eight bytes, overlapping the words already tested.
        return flagged(buffer.loadUnaligned(fromByteOffset: buffer.count - 8, as: UInt64.self))
    }

    private func appendEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""):
            append(0x5C)
            append(0x22)
        case UInt8(ascii: "\\"):
            append(0x5C)
            append(0x5C)
        case 0x0A:
            append(0x5C)
            append(UInt8(ascii: "n"))
        case 0x0D:
            append(0x5C)
            append(UInt8(ascii: "r"))
        case 0x09:
            append(0x5C)
            append(UInt8(ascii: "t"))
        case 0..<0x20:
            let hex = Array("0123456789abcdef".utf8)
            for escaped in [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]] {
                append(escaped)
            }
        default:
            append(byte)
        }
    }
}

extension JSONWriter {
    /// Writes an attribute value as typed JSON: numbers as numbers (non-finite ones as strings),
    /// dates in ISO 8601, UUIDs and URLs as strings, data in base64, composites as the JSON they
    /// are stored as.
    func value(_ value: AttributeValue) {
        switch value {
        case .null: raw("null")
        case .bool(let flag): raw(flag ? "true" : "false")
        case .int(let number): self.number(number)
        case .uint(let number): self.number(number)
        case .double(let number): floating(number)
        case .float(let number): floating(Double(number))
        case .decimal(let number): raw(number.description)
        case .string(let text): string(text)
        case .date(let date): dateString(date)
        case .uuid(let uuid): string(uuid.uuidString)
        case .url(let url): string(url.absoluteString)
        case .data(let data): string(data.base64EncodedString())
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .composite(let data):
            if (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil {
                rawBytes(data)
            } else {
                string(data.base64EncodedString())
            }
        }
    }

    /// Writes a date as an ISO 8601 string, digit by digit.
    private func dateString(_ date: Date) {
        guard let parts = ValueText.civil(date) else {
            string(ValueText.iso8601(date))
            return
        }
        separate()
        append(UInt8(ascii: "\""))
        func digits(_ value: Int, _ width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(parts.year, 4)
        append(UInt8(ascii: "-"))
        digits(parts.month, 2)
        append(UInt8(ascii: "-"))
        digits(parts.day, 2)
        append(UInt8(ascii: "T"))
        digits(parts.second / 3600, 2)
        append(UInt8(ascii: ":"))
        digits(parts.second / 60 % 60, 2)
        append(UInt8(ascii: ":"))
        digits(parts.second % 60, 2)
        append(UInt8(ascii: "."))
        digits(parts.millisecond, 3)
        append(UInt8(ascii: "Z"))
        append(UInt8(ascii: "\""))
    }

    private func floating(_ number: Double) {
        if number.isNaN {
            string("NaN")
        } else if number.isInfinite {
            string(number > 0 ? "Infinity" : "-Infinity")
        } else {
            raw("\(number)")
        }
    }
}

/// Attribute values as text for people.
enum ValueText {
    /// A date in ISO 8601, UTC, with milliseconds: `2026-06-01T00:00:00.000Z`.
    ///
    /// Written by hand: the tool formats two dates for every trip it dumps, and a formatter
    /// object costs several times more.
    static func iso8601(_ date: Date) -> String {
        guard let parts = civil(date) else { return "\(date.timeIntervalSince1970)" }
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        }
        let second = parts.second
        return
            "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))T\(pad(second / 3600, 2)):\(pad(second / 60 % 60, 2)):\(pad(second % 60, 2)).\(pad(parts.millisecond, 3))Z"
    }

    /// The UTC calendar date and time of day of `date`, for years 0 to 9999; `nil` outside them.
    static func civil(_ date: Date) -> (year: Int, month: Int, day: Int, second: Int, millisecond: Int)? {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
        guard milliseconds.isFinite, milliseconds > -62_167_219_200_000, milliseconds < 253_402_300_800_000 else {
            return nil
        }
        let total = Int64(milliseconds)
        let millis = Int((total % 1000 + 1000) % 1000)
        let seconds = (total - Int64(millis)) / 1000
        let days = Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
        let secondOfDay = Int(seconds - Int64(days) * 86_400)
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPrime = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthPrime + 2) / 5 + 1
        let month = monthPrime < 10 ? monthPrime + 3 : monthPrime - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day, secondOfDay, millis)
    }

    static func text(_ value: AttributeValue) -> String {
        switch value {
        case .null: return "nil"
        case .bool(let flag): return "\(flag)"
        case .int(let number): return "\(number)"
        case .uint(let number): return "\(number)"
        case .double(let number): return "\(number)"
        case .float(let number): return "\(number)"
        case .decimal(let number): return number.description
        case .string(let text): return "\"\(text)\""
        case .date(let date): return iso8601(date)
        case .uuid(let uuid): return uuid.uuidString
        case .url(let url): return url.absoluteString
        case .data(let data): return "<\(data.count) bytes>"
        case .array(let elements): return "[" + elements.map(text).joined(separator: ", ") + "]"
        case .composite(let data): return String(decoding: data, as: UTF8.self)
        }
    }
}
