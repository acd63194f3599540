// Conformances of the scalar types, `Optional` and `Array` to `AttributeValueConvertible`.
// Integers of every width store as `.int` or `.uint`; reading accepts either case as long as
// the number fits, so that a store keeps its values when a property moves between widths.

// MARK: - Bool

extension Bool: AttributeValueConvertible {
    public static var attributeType: Schema.AttributeType { .bool }
    public var attributeValue: AttributeValue { .bool(self) }
    public init(attributeValue: AttributeValue) throws {
        guard case .bool(let value) = attributeValue else {
            throw SchemaError.mismatch(expected: .bool, found: attributeValue)
        }
        self = value
    }
}

// MARK: - Integers

extension FixedWidthInteger {
    /// Reads an integer of this width from a stored `.int` or `.uint`.
    fileprivate init(stored value: AttributeValue, as type: Schema.AttributeType) throws {
        let converted: Self?
        switch value {
        case .int(let number): converted = Self(exactly: number)
        case .uint(let number): converted = Self(exactly: number)
        default: throw SchemaError.mismatch(expected: type, found: value)
        }
        guard let converted else { throw SchemaError.outOfRange(type, found: value) }
        self = converted
    }
}

extension Int: AttributeValueConvertible {
    public static var attributeType: Schema.AttributeType { .int }
    public var attributeValue: AttributeValue { .int(Int64(self)) }
    public init(attributeValue: AttributeValue) throws { try self.init(stored: attributeValue, as: .int) }
}

extension Int8: AttributeValueConvertible {
    public static var attributeType: Schema.AttributeType { .int8 }
    public var attributeValue: AttributeValue { .int(Int64(self)) }
    public init(attributeValue: AttributeValue) throws { try self.init(stored: attributeValue, as: .int8) }
}

extension Int16: AttributeValueConvertible {
    public static var attributeType: Schema.AttributeType { .int16 }
    public var attributeValue: AttributeValue { .int(Int64(self)) }
    public init(attributeValue: AttributeValue) throws { try self.init(stored: attributeValue, as: .int16) }
}

extension Int32: AttributeValueConvertible {
    public static var attributeType: Schema.AttributeType { .int32 }
    public var attributeValue: AttributeValue { .int(Int64(self)) }
    public init(attributeValue: AttributeValue) throws { try self.init(stored: attributeValue, as: .int32) }
}

extension Int64: AttributeValueConvertible {
    public static var attributeType: Schema.AttributeType { .int64 }
    public var attributeValue: AttributeValue { .int(self) }
    public init(attributeValue: AttributeValue) throws { try self.init(stored: attributeValue, as: .int64) }
}

extension UInt: AttributeValueConvertible {
    public static var attributeType: Schema.AttributeType { .uint }
    public var attributeValue: AttributeValue { .uint(UInt64(self)) }
    public init(attributeValue: AttributeValue) throws { try self.init(stored: attributeValue, as: .uint) }
}

extension UInt8: AttributeValueConvertible {
    public static var attributeType: Schema.AttributeType { .uint8 }
    public var attributeValue: AttributeValue { .uint(UInt64(self)) }
    public init(attributeValue: AttributeValue) throws { try self.init(stored: attributeValue, as: .uint8) }
}

extension UInt16: AttributeValueConvertible {
    public static var attributeType: Schema.AttributeType { .uint16 }
    public var attributeValue: AttributeValue { .uint(UInt64(self)) }
    public init(attributeValue: AttributeValue) throws { try self.init(stored: attributeValue, as: .uint16) }
}

extension UInt32: AttributeValueConvertible {
    public static var attributeType: Schema.AttributeType { .uint32 }
    public var attributeValue: AttributeValue { .uint(UInt64(self)) }
    public init(attributeValue: AttributeValue) throws { try self.init(stored: attributeValue, as: .uint32) }
}

extension UInt64: AttributeValueConvertible {
    public static var attributeType: Schema.AttributeType { .uint64 }
    public var attributeValue: AttributeValue { .uint(self) }
    public init(attributeValue: AttributeValue) throws { try self.init(stored: attributeValue, as: .uint64) }
}

// MARK: - Floating point and decimal

extension Double: AttributeValueConvertible {
    public static var attributeType: Schema.AttributeType { .double }
    public var attributeValue: AttributeValue { .double(self) }
    /// Reads a stored `.double`, or a `.float` widened without loss.
    public init(attributeValue: AttributeValue) throws {
        switch attributeValue {
        case .double(let value): self = value
        case .float(let value): self = Double(value)
        default: throw SchemaError.mismatch(expected: .double, found: attributeValue)
        }
    }
}

extension Float: AttributeValueConvertible {
    public static var attributeType: Schema.AttributeType { .float }
    public var attributeValue: AttributeValue { .float(self) }
    public init(attributeValue: AttributeValue) throws {
        guard case .float(let value) = attributeValue else {
            throw SchemaError.mismatch(expected: .float, found: attributeValue)
        }
        self = value
    }
}

extension Decimal: AttributeValueConvertible {
    public static var attributeType: Schema.AttributeType { .decimal }
    public var attributeValue: AttributeValue { .decimal(self) }
    public init(attributeValue: AttributeValue) throws {
        guard case .decimal(let value) = attributeValue else {
            throw SchemaError.mismatch(expected: .decimal, found: attributeValue)
        }
        self = value
    }
}

// MARK: - Foundation values

extension String: AttributeValueConvertible {
    public static var attributeType: Schema.AttributeType { .string }
    public var attributeValue: AttributeValue { .string(self) }
    public init(attributeValue: AttributeValue) throws {
        guard case .string(let value) = attributeValue else {
            throw SchemaError.mismatch(expected: .string, found: attributeValue)
        }
        self = value
    }
}

extension Date: AttributeValueConvertible {
    public static var attributeType: Schema.AttributeType { .date }
    public var attributeValue: AttributeValue { .date(self) }
    public init(attributeValue: AttributeValue) throws {
        guard case .date(let value) = attributeValue else {
            throw SchemaError.mismatch(expected: .date, found: attributeValue)
        }
        self = value
    }
}

extension UUID: AttributeValueConvertible {
    public static var attributeType: Schema.AttributeType { .uuid }
    public var attributeValue: AttributeValue { .uuid(self) }
    public init(attributeValue: AttributeValue) throws {
        guard case .uuid(let value) = attributeValue else {
            throw SchemaError.mismatch(expected: .uuid, found: attributeValue)
        }
        self = value
    }
}

extension URL: AttributeValueConvertible {
    public static var attributeType: Schema.AttributeType { .url }
    public var attributeValue: AttributeValue { .url(self) }
    public init(attributeValue: AttributeValue) throws {
        guard case .url(let value) = attributeValue else {
            throw SchemaError.mismatch(expected: .url, found: attributeValue)
        }
        self = value
    }
}

extension Data: AttributeValueConvertible {
    public static var attributeType: Schema.AttributeType { .data }
    public var attributeValue: AttributeValue { .data(self) }
    public init(attributeValue: AttributeValue) throws {
        guard case .data(let value) = attributeValue else {
            throw SchemaError.mismatch(expected: .data, found: attributeValue)
        }
        self = value
    }
}

// MARK: - Optional and Array

extension Optional: AttributeValueConvertible where Wrapped: AttributeValueConvertible {
    public static var attributeType: Schema.AttributeType { .optional(Wrapped.attributeType) }

    /// ``AttributeValue/null`` for `nil`, the wrapped value's form otherwise. A `nil` nested
    /// inside another optional is stored as ``AttributeValue/null`` too, and reads back as the
    /// outer `nil`.
    public var attributeValue: AttributeValue {
        switch self {
        case .none: .null
        case .some(let wrapped): wrapped.attributeValue
        }
    }

    public init(attributeValue: AttributeValue) throws {
        if case .null = attributeValue {
            self = .none
        } else {
            self = .some(try Wrapped(attributeValue: attributeValue))
        }
    }
}

extension Array: AttributeValueConvertible where Element: AttributeValueConvertible {
    public static var attributeType: Schema.AttributeType { .array(Element.attributeType) }
    public var attributeValue: AttributeValue { .array(map(\.attributeValue)) }
    public init(attributeValue: AttributeValue) throws {
        guard case .array(let elements) = attributeValue else {
            throw SchemaError.mismatch(expected: Self.attributeType, found: attributeValue)
        }
        self = try elements.map(Element.init(attributeValue:))
    }
}
