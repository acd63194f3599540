import Foundation

/// The bytes a unique index keeps of a value, and their tag: the kind of value in the upper
/// half, the byte count in the lower. Equal bytes of one kind are equal values.
///
/// Strings of up to ``maximumCount`` UTF-8 bytes, integers and UUIDs keep their bytes. Other
/// values (floating-point numbers, where equal bits are not always equal values; dates, data,
/// arrays, composites) and longer strings keep none, tag 0, and are compared in the rows.
enum KeyBytes {
    /// The longest string whose bytes an entry keeps.
    static let maximumCount = 256

    private static let string: UInt32 = 1 << 16
    private static let int: UInt32 = 2 << 16
    private static let uint: UInt32 = 3 << 16
    private static let uuid: UInt32 = 4 << 16

    /// The byte count of a tag.
    @inline(__always)
    static func byteCount(ofTag tag: UInt32) -> Int { Int(tag & 0xFFFF) }

    /// Calls `body` with `value`'s tag and bytes; tag 0 and no bytes for a value that keeps none.
    @inline(__always)
    static func with<Result>(_ value: AttributeValue, _ body: (UInt32, UnsafeRawBufferPointer) -> Result) -> Result {
        switch value {
        case .string(let text):
            let answer = text.utf8.withContiguousStorageIfAvailable { utf8 -> Result in
                guard utf8.count <= maximumCount else { return body(0, UnsafeRawBufferPointer(start: nil, count: 0)) }
                return body(string | UInt32(utf8.count), UnsafeRawBufferPointer(utf8))
            }
            return answer ?? body(0, UnsafeRawBufferPointer(start: nil, count: 0))
        case .int(let number):
            return withUnsafeBytes(of: number) { body(int | 8, $0) }
        case .uint(let number):
            return withUnsafeBytes(of: number) { body(uint | 8, $0) }
        case .uuid(let identifier):
            return withUnsafeBytes(of: identifier.uuid) { body(uuid | 16, $0) }
        default:
            return body(0, UnsafeRawBufferPointer(start: nil, count: 0))
        }
    }
}
