import Foundation

// The functions a generated `init(_$storage:values:)` calls to read each property's value.
// Overloads pick the conversion at compile time: scalars and `RawRepresentable` types convert
// directly, relationships start empty, and everything else goes through the codec in the
// model's binding.

extension _$ModelStorage {
    /// Not API: reads a scalar, or an optional or array of scalars.
    ///
    /// Compiled into each generated initializer. A stored value that is already of the
    /// property's type (a `String` for a `String`, a `Date` for a `Date`…) is taken as it is;
    /// any other goes through the type's `init(attributeValue:)`, which converts or throws. Through
    /// that initializer and its error handling alone, each `String` or `Date` property of a
    /// fetched model cost 130–180 instructions (callgrind on `logbook _measure-trips --load`).
    @inlinable @inline(__always)
    public static func _$decode<Model: PersistentModel, Value: AttributeValueConvertible>(
        _ values: inout [AttributeValue],
        _ index: Int,
        _ model: Model.Type
    ) throws -> Value {
        if index < values.count, let value = _$takeSameType(&values[index], as: Value.self) { return value }
        return try converting(values, index, model)
    }

    /// Not API: ``_$sameType(_:as:)``, moving a string out of `stored` (which holds `null`
    /// afterwards) instead of copying it: the model keeps the one reference the stored values
    /// held, where a copy retained the string for the model and released it again when the
    /// values were reused.
    @inlinable @inline(__always)
    static func _$takeSameType<Value>(_ stored: inout AttributeValue, as _: Value.Type) -> Value? {
        guard Value.self == String.self else { return _$sameType(stored, as: Value.self) }
        guard case .string = stored else { return nil }
        var taken = AttributeValue.null
        swap(&taken, &stored)
        guard case .string(let text) = consume taken else { return nil }
        return text as? Value
    }

    /// Not API: `stored` as a `Value` when it holds one without conversion; `nil` otherwise.
    ///
    /// Each test compares two types that are constants once `Value` is known, so that only the
    /// one for the property's type remains.
    @inlinable @inline(__always)
    static func _$sameType<Value>(_ stored: AttributeValue, as _: Value.Type) -> Value? {
        switch stored {
        case .string(let text) where Value.self == String.self: text as? Value
        case .date(let date) where Value.self == Date.self: date as? Value
        case .bool(let flag) where Value.self == Bool.self: flag as? Value
        case .int(let number) where Value.self == Int.self:
            Int(exactly: number).flatMap { $0 as? Value }
        case .double(let number) where Value.self == Double.self: number as? Value
        case .uuid(let uuid) where Value.self == UUID.self: uuid as? Value
        default: nil
        }
    }

    /// The value of property `index` through its type's conversion, with the error located.
    @usableFromInline
    static func converting<Model: PersistentModel, Value: AttributeValueConvertible>(
        _ values: [AttributeValue],
        _ index: Int,
        _ model: Model.Type
    ) throws -> Value {
        let stored = try storedValue(values, index, model)
        do {
            return try Value(attributeValue: stored)
        } catch let error as SchemaError {
            throw located(error, model, index)
        }
    }

    /// Not API: reads a `RawRepresentable` value from its raw value.
    public static func _$decode<Model: PersistentModel, Value: RawRepresentable>(
        _ values: inout [AttributeValue],
        _ index: Int,
        _ model: Model.Type
    ) throws -> Value where Value.RawValue: AttributeValueConvertible {
        try decodeRaw(values, index, model)
    }

    /// Not API: reads a `Codable` `RawRepresentable` value from its raw value.
    public static func _$decode<Model: PersistentModel, Value: RawRepresentable & Codable>(
        _ values: inout [AttributeValue],
        _ index: Int,
        _ model: Model.Type
    ) throws -> Value where Value.RawValue: AttributeValueConvertible {
        try decodeRaw(values, index, model)
    }

    /// Not API: reads any other value with the codec in the model's binding.
    public static func _$decode<Model: PersistentModel, Value>(
        _ values: inout [AttributeValue],
        _ index: Int,
        _ model: Model.Type
    ) throws -> Value {
        try _$decodeWithBinding(&values, index, model)
    }

    /// Not API: reads a value with the codec in the model's binding; generated code calls it
    /// directly for `.transformable(by:)` attributes.
    public static func _$decodeWithBinding<Model: PersistentModel, Value>(
        _ values: inout [AttributeValue],
        _ index: Int,
        _ model: Model.Type
    ) throws -> Value {
        let stored = try storedValue(values, index, model)
        guard case .attribute(let attribute) = Model._$binding.properties[index].kind,
            let codec = attribute.codec as? AttributeCodec<Value>
        else {
            preconditionFailure("Property \(index) of \(Model.self) is not an attribute of type \(Value.self)")
        }
        do {
            return try codec.decode(stored)
        } catch let error as SchemaError {
            throw located(error, model, index)
        }
    }

    /// Not API: a to-one relationship starts empty; the context fills it in.
    public static func _$decode<Model: PersistentModel, Target: PersistentModel>(
        _ values: inout [AttributeValue],
        _ index: Int,
        _ model: Model.Type
    ) throws -> Target? {
        nil
    }

    /// Not API: a to-many relationship starts empty; the context fills it in.
    public static func _$decode<Model: PersistentModel, Target: PersistentModel>(
        _ values: inout [AttributeValue],
        _ index: Int,
        _ model: Model.Type
    ) throws -> [Target] {
        []
    }

    /// Not API: an optional to-many relationship starts `nil`; the context fills it in.
    public static func _$decode<Model: PersistentModel, Target: PersistentModel>(
        _ values: inout [AttributeValue],
        _ index: Int,
        _ model: Model.Type
    ) throws -> [Target]? {
        nil
    }

    /// Not API: whether a property has no stored value, so that a generated initializer can
    /// give a non-optional property its declared default.
    @inlinable
    public static func _$isMissing(_ values: [AttributeValue], _ index: Int) -> Bool {
        guard index < values.count else { return true }
        if case .null = values[index] { return true }
        return false
    }

    /// Not API: `models`, which are all of type `Model`, as an array of it; compiled into the
    /// model's module, where the array's type is known.
    @inlinable
    public static func _$array<Model: PersistentModel>(_ models: [AnyObject], of _: Model.Type) -> [Model] {
        // An array of no capacity is the standard library's one shared empty array, whose count
        // the uninitialized initializer writes: a write that every thread's empty arrays share,
        // which ThreadSanitizer reports as a race with any thread that reads one.
        if models.isEmpty { return [] }
        return [Model](unsafeUninitializedCapacity: models.count) { typed, count in
            for model in models {
                typed.initializeElement(at: count, to: downcast(model, to: Model.self))
                count += 1
            }
        }
    }

    // MARK: - Helpers

    private static func decodeRaw<Model: PersistentModel, Value: RawRepresentable>(
        _ values: [AttributeValue],
        _ index: Int,
        _ model: Model.Type
    ) throws -> Value where Value.RawValue: AttributeValueConvertible {
        let stored = try storedValue(values, index, model)
        let raw: Value.RawValue
        do {
            raw = try Value.RawValue(attributeValue: stored)
        } catch let error as SchemaError {
            throw located(error, model, index)
        }
        guard let value = Value(rawValue: raw) else {
            throw located(
                SchemaError(.invalidRawValue, "A stored raw value matches no case of \(schemaTypeName(Value.self))"),
                model,
                index
            )
        }
        return value
    }

    /// The stored value of property `index`.
    ///
    /// Inlinable, like the scalar `_$decode` that calls it, so that it compiles into each
    /// generated initializer: as a call of its own it cost more than the conversion it feeds
    /// (63 of the 176 instructions decoding a `Bool` took, callgrind on `logbook _measure-trips
    /// --memory`). The error is built out of line.
    @inlinable
    static func storedValue<Model: PersistentModel>(
        _ values: [AttributeValue],
        _ index: Int,
        _ model: Model.Type
    ) throws -> AttributeValue {
        guard index < values.count else { throw valueCountMismatch(values.count, model) }
        return values[index]
    }

    /// The error for an initializer given fewer values than its model has properties.
    @usableFromInline
    static func valueCountMismatch<Model: PersistentModel>(_ count: Int, _: Model.Type) -> SchemaError {
        let binding = Model._$binding
        return SchemaError(
            .valueCountMismatch,
            "\(count) values for \(binding.properties.count) properties",
            entity: binding.entityName
        )
    }

    @usableFromInline
    static func located<Model: PersistentModel>(
        _ error: SchemaError,
        _ model: Model.Type,
        _ index: Int
    ) -> SchemaError {
        let binding = Model._$binding
        return error.locating(entity: binding.entityName, property: binding.properties[index].name)
    }
}
