/// A stored value, as Logbook keeps it: independent of the application's Swift types.
///
/// Every persisted attribute of a model converts to and from an `AttributeValue`. The log, the
/// projections and the `logbook` tool only ever see these values, so they can decode, compare
/// and print a store without the application's code.
///
/// How Swift values map to attribute values:
///
/// | Swift type | Attribute value |
/// |---|---|
/// | `Bool` | ``bool(_:)`` |
/// | `Int`, `Int8` … `Int64` | ``int(_:)`` |
/// | `UInt`, `UInt8` … `UInt64` | ``uint(_:)`` |
/// | `Double`, `Float`, `Decimal` | ``double(_:)``, ``float(_:)``, ``decimal(_:)`` |
/// | `String`, `Date`, `UUID`, `URL`, `Data` | ``string(_:)``, ``date(_:)``, ``uuid(_:)``, ``url(_:)``, ``data(_:)`` |
/// | `Optional` | ``null`` or the wrapped value |
/// | `Array` | ``array(_:)`` of the elements |
/// | `RawRepresentable` (enums) | the raw value |
/// | other `Codable` types | ``composite(_:)`` |
/// | values of a `.transformable(by:)` attribute | ``data(_:)`` |
///
/// Scalars never go through `Codable`. A composite holds the value encoded by `JSONEncoder`
/// with sorted keys, the default date strategy (seconds since 2001-01-01 as a number) and
/// base64 data; non-finite floating-point numbers are written as the strings `"NaN"`,
/// `"+Infinity"` and `"-Infinity"`. The JSON is stable for a given value and readable by the
/// `logbook` tool.
///
/// ```swift
/// let value = "Lisbon".attributeValue      // .string("Lisbon")
/// let name = try String(attributeValue: value)
/// ```
///
/// ## Topics
///
/// ### Values
/// - ``null``
/// - ``bool(_:)``
/// - ``int(_:)``
/// - ``uint(_:)``
/// - ``double(_:)``
/// - ``float(_:)``
/// - ``decimal(_:)``
/// - ``string(_:)``
/// - ``date(_:)``
/// - ``uuid(_:)``
/// - ``url(_:)``
/// - ``data(_:)``
/// - ``array(_:)``
/// - ``composite(_:)``
///
/// ### Converting Swift values
/// - ``AttributeValueConvertible``
public enum AttributeValue: Hashable, Sendable {
    /// No value: a `nil` optional.
    case null
    /// A Boolean.
    case bool(Bool)
    /// A signed integer of any width.
    case int(Int64)
    /// An unsigned integer of any width.
    case uint(UInt64)
    /// A double-precision floating-point number.
    case double(Double)
    /// A single-precision floating-point number.
    case float(Float)
    /// A decimal number.
    case decimal(Decimal)
    /// A string.
    case string(String)
    /// A point in time.
    case date(Date)
    /// A UUID.
    case uuid(UUID)
    /// A URL.
    case url(URL)
    /// Bytes.
    case data(Data)
    /// An ordered collection of values.
    case array([AttributeValue])
    /// A `Codable` value, encoded as JSON with sorted keys.
    case composite(Data)

    /// The name of the value's case, for messages that must not show the value itself.
    public var kind: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .int: "int"
        case .uint: "uint"
        case .double: "double"
        case .float: "float"
        case .decimal: "decimal"
        case .string: "string"
        case .date: "date"
        case .uuid: "uuid"
        case .url: "url"
        case .data: "data"
        case .array: "array"
        case .composite: "composite"
        }
    }
}

/// A Swift type that converts to and from an ``AttributeValue`` directly.
///
/// Logbook conforms the scalar types it stores (`Bool`, the integers, `Double`, `Float`,
/// `Decimal`, `String`, `Date`, `UUID`, `URL`, `Data`), and `Optional` and `Array` of
/// conforming types. `RawRepresentable` enums and other `Codable` types need no conformance:
/// `@Model` stores them by raw value and as composites.
///
/// Conform a type of your own when it is a better fit for one of the scalar cases than for a
/// composite, for example a wrapper around a `String`:
///
/// ```swift
/// struct Email: Codable, AttributeValueConvertible {
///     var address: String
///
///     static var attributeType: Schema.AttributeType { .string }
///     var attributeValue: AttributeValue { .string(address) }
///     init(attributeValue: AttributeValue) throws {
///         address = try String(attributeValue: attributeValue)
///     }
/// }
/// ```
///
/// The protocol refines `Codable` so that the compiler always prefers this conversion over the
/// composite one for a type that supports both.
///
/// ## Topics
///
/// ### Converting
/// - ``attributeType``
/// - ``attributeValue``
/// - ``init(attributeValue:)``
public protocol AttributeValueConvertible: Codable, SendableMetatype {
    /// The stored type the schema records for properties of this type.
    static var attributeType: Schema.AttributeType { get }

    /// The value as stored.
    var attributeValue: AttributeValue { get }

    /// Creates a value from its stored form.
    ///
    /// - Parameter attributeValue: A stored value.
    /// - Throws: ``SchemaError/typeMismatch`` when the value is of another kind,
    ///   ``SchemaError/valueOutOfRange`` when a number does not fit the type.
    init(attributeValue: AttributeValue) throws
}

// MARK: - Errors

extension SchemaError {
    static func mismatch(expected: Schema.AttributeType, found value: AttributeValue) -> SchemaError {
        SchemaError(.typeMismatch, "Expected a stored \(expected), found a value of kind '\(value.kind)'")
    }

    static func outOfRange(_ type: Schema.AttributeType, found value: AttributeValue) -> SchemaError {
        SchemaError(.valueOutOfRange, "A stored \(value.kind) value does not fit \(type)")
    }
}
