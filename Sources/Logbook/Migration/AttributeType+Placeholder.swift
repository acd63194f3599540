import Foundation

extension Schema.AttributeType {
    /// A stand-in for a missing value: zero, false, empty. `nil` for types without an obvious
    /// one (URLs, composites, transformed values, enums).
    var placeholderValue: AttributeValue? {
        switch self {
        case .bool: return .bool(false)
        case .int, .int8, .int16, .int32, .int64: return .int(0)
        case .uint, .uint8, .uint16, .uint32, .uint64: return .uint(0)
        case .double: return .double(0)
        case .float: return .float(0)
        case .decimal: return .decimal(0)
        case .string: return .string("")
        case .date: return .date(Date(timeIntervalSinceReferenceDate: 0))
        case .uuid: return .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case .data: return .data(Data())
        case .array: return .array([])
        case .optional: return .null
        case .url, .rawRepresentable, .composite, .transformable: return nil
        }
    }
}
