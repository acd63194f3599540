extension Schema {
    /// The stored type of an attribute.
    ///
    /// The type is what the schema records about a property's Swift type: enough to decode any
    /// stored value without the application's code, and to tell whether two versions of a model
    /// store a property the same way. `Int` and `Int64` are distinct here, although both are
    /// stored as ``AttributeValue/int(_:)``, because changing one into the other is a change
    /// to the declarations.
    ///
    /// ```swift
    /// let type = try #require(schema.entity(named: "Trip")?.attribute(named: "name")?.type)
    /// #expect(type == .string)
    /// ```
    ///
    /// ## Topics
    ///
    /// ### Scalars
    /// - ``bool``
    /// - ``int``
    /// - ``int8``
    /// - ``int16``
    /// - ``int32``
    /// - ``int64``
    /// - ``uint``
    /// - ``uint8``
    /// - ``uint16``
    /// - ``uint32``
    /// - ``uint64``
    /// - ``double``
    /// - ``float``
    /// - ``decimal``
    /// - ``string``
    /// - ``date``
    /// - ``uuid``
    /// - ``url``
    /// - ``data``
    ///
    /// ### Composed types
    /// - ``optional(_:)``
    /// - ``array(_:)``
    /// - ``rawRepresentable(typeName:rawType:)``
    /// - ``composite(typeName:)``
    /// - ``transformable(transformerName:)``
    ///
    /// ### Inspecting a type
    /// - ``isOptional``
    /// - ``nonOptional``
    public indirect enum AttributeType: Hashable, Sendable, Codable, CustomStringConvertible {
        /// `Bool`, stored as ``AttributeValue/bool(_:)``.
        case bool
        /// `Int`, stored as ``AttributeValue/int(_:)``.
        case int
        /// `Int8`, stored as ``AttributeValue/int(_:)``.
        case int8
        /// `Int16`, stored as ``AttributeValue/int(_:)``.
        case int16
        /// `Int32`, stored as ``AttributeValue/int(_:)``.
        case int32
        /// `Int64`, stored as ``AttributeValue/int(_:)``.
        case int64
        /// `UInt`, stored as ``AttributeValue/uint(_:)``.
        case uint
        /// `UInt8`, stored as ``AttributeValue/uint(_:)``.
        case uint8
        /// `UInt16`, stored as ``AttributeValue/uint(_:)``.
        case uint16
        /// `UInt32`, stored as ``AttributeValue/uint(_:)``.
        case uint32
        /// `UInt64`, stored as ``AttributeValue/uint(_:)``.
        case uint64
        /// `Double`, stored as ``AttributeValue/double(_:)``.
        case double
        /// `Float`, stored as ``AttributeValue/float(_:)``.
        case float
        /// `Decimal`, stored as ``AttributeValue/decimal(_:)``.
        case decimal
        /// `String`, stored as ``AttributeValue/string(_:)``.
        case string
        /// `Date`, stored as ``AttributeValue/date(_:)``.
        case date
        /// `UUID`, stored as ``AttributeValue/uuid(_:)``.
        case uuid
        /// `URL`, stored as ``AttributeValue/url(_:)``.
        case url
        /// `Data`, stored as ``AttributeValue/data(_:)``.
        case data
        /// An optional of the wrapped type; `nil` is stored as ``AttributeValue/null``.
        case optional(AttributeType)
        /// An array of the element type, stored as ``AttributeValue/array(_:)``.
        case array(AttributeType)
        /// A `RawRepresentable` type, usually an enum, stored as its raw value.
        ///
        /// - Parameters:
        ///   - typeName: The unqualified name of the Swift type.
        ///   - rawType: The type of its raw value.
        case rawRepresentable(typeName: String, rawType: AttributeType)
        /// A `Codable` type, stored as ``AttributeValue/composite(_:)``: JSON with sorted keys.
        ///
        /// - Parameter typeName: The unqualified name of the Swift type.
        case composite(typeName: String)
        /// A value converted to `Data` by an ``AttributeTransformer``, stored as
        /// ``AttributeValue/data(_:)``.
        ///
        /// - Parameter transformerName: The unqualified name of the transformer type.
        case transformable(transformerName: String)

        /// Whether the type is an optional.
        public var isOptional: Bool {
            if case .optional = self { true } else { false }
        }

        /// The type with one level of optionality removed, or the type itself.
        public var nonOptional: AttributeType {
            if case .optional(let wrapped) = self { wrapped } else { self }
        }

        /// Whether a unique constraint can hold values of this type: numbers, strings and UUIDs,
        /// or optionals of them.
        var canBeUnique: Bool {
            switch nonOptional {
            case .int, .int8, .int16, .int32, .int64, .uint, .uint8, .uint16, .uint32, .uint64,
                .double, .float, .decimal, .string, .uuid:
                true
            default:
                false
            }
        }

        /// The type as Swift spells it, for messages: `String`, `Optional<Date>`, `[Int]`.
        public var description: String {
            switch self {
            case .bool: "Bool"
            case .int: "Int"
            case .int8: "Int8"
            case .int16: "Int16"
            case .int32: "Int32"
            case .int64: "Int64"
            case .uint: "UInt"
            case .uint8: "UInt8"
            case .uint16: "UInt16"
            case .uint32: "UInt32"
            case .uint64: "UInt64"
            case .double: "Double"
            case .float: "Float"
            case .decimal: "Decimal"
            case .string: "String"
            case .date: "Date"
            case .uuid: "UUID"
            case .url: "URL"
            case .data: "Data"
            case .optional(let wrapped): "Optional<\(wrapped)>"
            case .array(let element): "[\(element)]"
            case .rawRepresentable(let name, let raw): "\(name)(rawValue: \(raw))"
            case .composite(let name): "\(name)(Codable)"
            case .transformable(let name): "Data(transformed by \(name))"
            }
        }
    }
}

extension Schema.AttributeType {
    /// A key of the encoding Swift synthesizes for the enum: a case's name, an associated value's
    /// label, or `_0` for an unlabelled one.
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes what the synthesized `encode(to:)` writes: `{"int":{}}`, `{"optional":{"_0":…}}`,
    /// `{"rawRepresentable":{"rawType":…,"typeName":"…"}}`.
    ///
    /// Written out, with one key type for every case, because the synthesized decoder has a key
    /// type per case: Swift's runtime looks each one's generic containers up the first time it is
    /// used, which took a tenth of an open from a checkpoint (every open decodes the schemas the
    /// store recorded).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: container.codingPath,
                    debugDescription: "An attribute type has exactly one case key, not \(container.allKeys.count)"
                )
            )
        }
        let fields = try container.nestedContainer(keyedBy: Key.self, forKey: key)
        func type(_ name: String) throws -> Self { try fields.decode(Self.self, forKey: Key(name)) }
        func text(_ name: String) throws -> String { try fields.decode(String.self, forKey: Key(name)) }
        switch key.stringValue {
        case "bool": self = .bool
        case "int": self = .int
        case "int8": self = .int8
        case "int16": self = .int16
        case "int32": self = .int32
        case "int64": self = .int64
        case "uint": self = .uint
        case "uint8": self = .uint8
        case "uint16": self = .uint16
        case "uint32": self = .uint32
        case "uint64": self = .uint64
        case "double": self = .double
        case "float": self = .float
        case "decimal": self = .decimal
        case "string": self = .string
        case "date": self = .date
        case "uuid": self = .uuid
        case "url": self = .url
        case "data": self = .data
        case "optional": self = .optional(try type("_0"))
        case "array": self = .array(try type("_0"))
        case "rawRepresentable": self = .rawRepresentable(typeName: try text("typeName"), rawType: try type("rawType"))
        case "composite": self = .composite(typeName: try text("typeName"))
        case "transformable": self = .transformable(transformerName: try text("transformerName"))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: key,
                in: container,
                debugDescription: "Unknown attribute type \(key.stringValue)"
            )
        }
    }
}
