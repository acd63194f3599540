import Foundation
import Logbook

/// Writes JSON by hand into a byte buffer: one object per line, fast enough to stream a store.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = []

    init() {
        bytes.reserveCapacity(1 << 16)
    }

    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        needsComma.removeAll(keepingCapacity: true)
    }

    mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma.append(false)
    }

    mutating func endObject() {
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma.append(false)
    }

    mutating func endArray() {
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func key(_ name: String) {
        separate()
        appendString(name)
        bytes.append(UInt8(ascii: ":"))
        // The value that follows must not add a comma of its own.
        if !needsComma.isEmpty { needsComma[needsComma.count - 1] = false }
        pendingKey = true
    }

    private var pendingKey = false

    /// A key known at compile time, which needs no escaping.
    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        if !needsComma.isEmpty { needsComma[needsComma.count - 1] = false }
        pendingKey = true
    }

    mutating func string(_ value: String) {
        separate()
        appendString(value)
    }

    mutating func number(_ value: UInt64) {
        separate()
        appendDigits(value)
    }

    mutating func number(_ value: Int64) {
        separate()
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(value.magnitude)
    }

    /// Writes the decimal digits of `value` without going through a `String`.
    private mutating func appendDigits(_ value: UInt64) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { scratch in
            var rest = value
            var index = scratch.count
            repeat {
                index -= 1
                scratch[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            bytes.append(contentsOf: scratch[index...])
        }
    }

    mutating func raw(_ text: String) {
        separate()
        bytes.append(contentsOf: text.utf8)
    }

    mutating func rawBytes(_ data: some Collection<UInt8>) {
        separate()
        bytes.append(contentsOf: data)
    }

    mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
    }

    private mutating func separate() {
        if pendingKey {
            pendingKey = false
        } else if let last = needsComma.last, last {
            bytes.append(UInt8(ascii: ","))
        }
        if !needsComma.isEmpty { needsComma[needsComma.count - 1] = true }
    }

    private mutating func appendString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = value
        // Most strings need no escaping: copy them in one go.
        let copied = text.withUTF8 { buffer -> Bool in
            for byte in buffer where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return false
            }
            bytes.append(contentsOf: buffer)
            return true
        }
        if copied {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [
                    0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
                ])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

extension JSONWriter {
    /// Writes an attribute value as typed JSON: numbers as numbers (non-finite ones as strings),
    /// dates in ISO 8601, UUIDs and URLs as strings, data in base64, composites as the JSON they
    /// are stored as.
    mutating func value(_ value: AttributeValue) {
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
    private mutating func dateString(_ date: Date) {
        guard let parts = ValueText.civil(date) else {
            string(ValueText.iso8601(date))
            return
        }
        separate()
        bytes.append(UInt8(ascii: "\""))
        func digits(_ value: Int, _ width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(parts.year, 4)
        bytes.append(UInt8(ascii: "-"))
        digits(parts.month, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(parts.day, 2)
        bytes.append(UInt8(ascii: "T"))
        digits(parts.second / 3600, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(parts.second / 60 % 60, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(parts.second % 60, 2)
        bytes.append(UInt8(ascii: "."))
        digits(parts.millisecond, 3)
        bytes.append(contentsOf: [UInt8(ascii: "Z"), UInt8(ascii: "\"")])
    }

    private mutating func floating(_ number: Double) {
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
