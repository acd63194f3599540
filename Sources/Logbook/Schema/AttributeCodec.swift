/// How one Swift type converts to and from ``AttributeValue``, and the type the schema records.
///
/// Codecs are built once per property, when a model type's binding is first used. Scalars,
/// optionals and arrays of `AttributeValueConvertible` types, and `RawRepresentable` types,
/// get a codec chosen at compile time by the overloads in `ModelBinding+Factories.swift`.
/// Other `Codable` types are examined at run time by ``detect(_:)``: an optional, an array, a
/// `RawRepresentable` type with a scalar raw value, or a composite.
///
/// The closures are not `@Sendable`, yet the codec is: every codec is built by the factories
/// in this file, whose closures capture nothing but metatypes and other codecs. Metatypes are
/// immutable; the compiler cannot prove them sendable only because run-time detection reaches
/// them through opened existentials, which carry no `SendableMetatype` conformance.
struct AttributeCodec<Value>: @unchecked Sendable {
    /// The stored type the schema records.
    let type: Schema.AttributeType
    /// Converts a property value into its stored form.
    let encode: (Value) throws -> AttributeValue
    /// Converts a stored value back into a property value.
    let decode: (AttributeValue) throws -> Value

    private init(
        type: Schema.AttributeType,
        encode: @escaping (Value) throws -> AttributeValue,
        decode: @escaping (AttributeValue) throws -> Value
    ) {
        self.type = type
        self.encode = encode
        self.decode = decode
    }
}

// MARK: - Codecs chosen at compile time

extension AttributeCodec where Value: AttributeValueConvertible {
    /// The codec of a scalar, or of an optional or array of scalars.
    static var convertible: AttributeCodec {
        AttributeCodec(type: Value.attributeType, encode: { $0.attributeValue }, decode: Value.init(attributeValue:))
    }
}

extension AttributeCodec where Value: RawRepresentable, Value.RawValue: AttributeValueConvertible {
    /// The codec of a `RawRepresentable` type, stored as its raw value.
    static var rawRepresentable: AttributeCodec {
        AttributeCodec(
            type: .rawRepresentable(typeName: schemaTypeName(Value.self), rawType: Value.RawValue.attributeType),
            encode: { $0.rawValue.attributeValue },
            decode: { stored in
                let raw = try Value.RawValue(attributeValue: stored)
                guard let value = Value(rawValue: raw) else {
                    throw SchemaError(
                        .invalidRawValue,
                        "A stored raw value matches no case of \(schemaTypeName(Value.self))"
                    )
                }
                return value
            }
        )
    }
}

extension AttributeCodec where Value: Codable {
    /// The codec of a `Codable` type: detected at run time, a composite when nothing else fits.
    static var codable: AttributeCodec {
        if let detected = detect(Value.self) { return detected }
        return composite
    }

    /// The codec that stores a value as JSON, whatever its type.
    static var composite: AttributeCodec {
        AttributeCodec(
            type: .composite(typeName: schemaTypeName(Value.self)),
            encode: { value in
                do {
                    return .composite(try compositeEncoder().encode(value))
                } catch {
                    throw SchemaError(
                        .compositeCoding,
                        "Cannot encode a value of \(schemaTypeName(Value.self))",
                        cause: error
                    )
                }
            },
            decode: { stored in
                guard case .composite(let data) = stored else {
                    throw SchemaError.mismatch(
                        expected: .composite(typeName: schemaTypeName(Value.self)),
                        found: stored
                    )
                }
                do {
                    return try compositeDecoder().decode(Value.self, from: data)
                } catch {
                    throw SchemaError(
                        .compositeCoding,
                        "Cannot decode a stored value of \(schemaTypeName(Value.self))",
                        cause: error
                    )
                }
            }
        )
    }
}

extension AttributeCodec {
    /// The codec of a property whose values a transformer turns into `Data`.
    static func transformed<Transformer: AttributeTransformer>(
        by transformer: Transformer.Type
    ) -> AttributeCodec where Transformer.Value == Value {
        let name = schemaTypeName(Transformer.self)
        return AttributeCodec(
            type: .transformable(transformerName: name),
            encode: { value in
                do {
                    return .data(try Transformer.encode(value))
                } catch {
                    throw SchemaError(.transformerFailed, "\(name) could not encode a value", cause: error)
                }
            },
            decode: { stored in
                guard case .data(let data) = stored else {
                    throw SchemaError.mismatch(expected: .transformable(transformerName: name), found: stored)
                }
                do {
                    return try Transformer.decode(data)
                } catch {
                    throw SchemaError(.transformerFailed, "\(name) could not decode a stored value", cause: error)
                }
            }
        )
    }

    /// The codec of an optional property whose non-`nil` values a transformer turns into `Data`.
    static func optionalTransformed<Transformer: AttributeTransformer>(
        by transformer: Transformer.Type
    ) -> AttributeCodec where Value == Transformer.Value? {
        let wrapped = AttributeCodec<Transformer.Value>.transformed(by: transformer)
        return wrapped.optional
    }

    /// This codec lifted to an optional of its type.
    var optional: AttributeCodec<Value?> {
        let wrapped = self
        return AttributeCodec<Value?>(
            type: .optional(wrapped.type),
            encode: { value in
                guard let value else { return .null }
                return try wrapped.encode(value)
            },
            decode: { stored in
                if case .null = stored { return nil }
                return try wrapped.decode(stored)
            }
        )
    }

    /// This codec lifted to an array of its type.
    var array: AttributeCodec<[Value]> {
        let element = self
        return AttributeCodec<[Value]>(
            type: .array(element.type),
            encode: { values in .array(try values.map(element.encode)) },
            decode: { stored in
                guard case .array(let values) = stored else {
                    throw SchemaError.mismatch(expected: .array(element.type), found: stored)
                }
                return try values.map(element.decode)
            }
        )
    }
}

// MARK: - Run-time detection

extension AttributeCodec {
    /// Finds the codec for a type by asking, in order: is it `AttributeValueConvertible`, an
    /// optional, an array, a `RawRepresentable` type with a convertible raw value, `Codable`?
    ///
    /// - Returns: The codec, or `nil` when the type is none of these.
    static func detect(_ type: Value.Type) -> AttributeCodec? {
        if let convertible = type as? any AttributeValueConvertible.Type {
            return cast(openConvertible(convertible))
        }
        if let optional = type as? any OptionalCodecProvider.Type {
            return cast(optional.optionalCodec())
        }
        if let array = type as? any ArrayCodecProvider.Type {
            return cast(array.arrayCodec())
        }
        if let raw = type as? any RawRepresentable.Type, let codec = openRawRepresentable(raw) {
            return cast(codec)
        }
        if let codable = type as? any Codable.Type {
            return cast(openCodable(codable))
        }
        return nil
    }

    /// Reinterprets a codec built for an opened type as the codec of `Value`: the two types are
    /// the same at run time, so the cast only fails on a bug in ``detect(_:)``.
    private static func cast(_ codec: Any?) -> AttributeCodec? {
        guard let codec else { return nil }
        guard let typed = codec as? AttributeCodec else {
            preconditionFailure("A detected codec for \(Value.self) has another type: \(Swift.type(of: codec))")
        }
        return typed
    }
}

private func openConvertible<T: AttributeValueConvertible>(_ type: T.Type) -> Any {
    AttributeCodec<T>.convertible
}

private func openRawRepresentable<T: RawRepresentable>(_ type: T.Type) -> Any? {
    guard let raw = AttributeCodec<T.RawValue>.detect(T.RawValue.self), raw.type.isScalar else { return nil }
    return AttributeCodec<T>.detectedRawRepresentable(raw: raw)
}

private func openCodable<T: Codable>(_ type: T.Type) -> Any {
    AttributeCodec<T>.composite
}

extension AttributeCodec where Value: RawRepresentable {
    /// The codec of a `RawRepresentable` type whose raw value's codec was detected at run time.
    fileprivate static func detectedRawRepresentable(raw: AttributeCodec<Value.RawValue>) -> AttributeCodec {
        AttributeCodec(
            type: .rawRepresentable(typeName: schemaTypeName(Value.self), rawType: raw.type),
            encode: { try raw.encode($0.rawValue) },
            decode: { stored in
                guard let value = Value(rawValue: try raw.decode(stored)) else {
                    throw SchemaError(
                        .invalidRawValue,
                        "A stored raw value matches no case of \(schemaTypeName(Value.self))"
                    )
                }
                return value
            }
        )
    }
}

/// `Optional`, seen from run-time detection.
private protocol OptionalCodecProvider {
    static func optionalCodec() -> Any?
}

extension Optional: OptionalCodecProvider {
    fileprivate static func optionalCodec() -> Any? {
        AttributeCodec<Wrapped>.detect(Wrapped.self)?.optional
    }
}

/// `Array`, seen from run-time detection.
private protocol ArrayCodecProvider {
    static func arrayCodec() -> Any?
}

extension Array: ArrayCodecProvider {
    fileprivate static func arrayCodec() -> Any? {
        AttributeCodec<Element>.detect(Element.self)?.array
    }
}

// MARK: - Helpers

extension Schema.AttributeType {
    /// Whether the type is one of the scalar cases, a valid raw value type.
    var isScalar: Bool {
        switch self {
        case .optional, .array, .rawRepresentable, .composite, .transformable: false
        default: true
        }
    }
}

/// The unqualified name of a type, as the schema records it.
func schemaTypeName(_ type: Any.Type) -> String {
    String(describing: type)
}

/// A JSON encoder configured for composites, as ``AttributeValue`` documents.
func compositeEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
        positiveInfinity: "+Infinity",
        negativeInfinity: "-Infinity",
        nan: "NaN"
    )
    return encoder
}

/// A JSON decoder matching ``compositeEncoder()``.
func compositeDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
        positiveInfinity: "+Infinity",
        negativeInfinity: "-Infinity",
        nan: "NaN"
    )
    return decoder
}
