extension Schema {
    /// A stable identifier of a schema's stored shape: the SHA-256 of a canonical encoding.
    ///
    /// The same declarations give the same fingerprint on every run and every machine. Every
    /// change that affects what is stored or how it is read changes it: an entity or property
    /// name, an attribute's type or optionality, an option such as `.unique`, an original name,
    /// a hash modifier, a relationship's destination, cardinality, optionality, delete rule,
    /// model counts, inverse or options. What does not: `@Transient` properties (they are not
    /// in the schema), the order of declarations, comments, default values, and the schema's
    /// ``Schema/version``, which is a label rather than a shape.
    ///
    /// ```swift
    /// let v1 = Schema(versionedSchema: SampleTripsSchemaV1.self)
    /// print(v1.fingerprint.hexString)   // 64 lowercase hexadecimal digits
    /// ```
    ///
    /// ## The canonical encoding
    ///
    /// Integers are little-endian. A *string* is its UTF-8 length as a `UInt32`, then its
    /// bytes. An *optional* is a byte `0` for `nil`, or `1` followed by the value. A *count* is
    /// a `UInt32`. Entities, attributes and relationships are sorted by name, comparing UTF-8
    /// bytes; options by their canonical names (`unique`, `transformable(ColorTransformer)`).
    ///
    /// ```
    /// schema       = string("logbook-schema-1") count(entities) entity*
    /// entity       = string(name) count(attributes) attribute* count(relationships) relationship*
    /// attribute    = string(name) type count(options) string(option)* optional(string(originalName))
    ///                optional(string(hashModifier))
    /// relationship = string(name) string(destination) byte(isToMany) byte(isOptional)
    ///                string(deleteRule) optional(int64(minimum)) optional(int64(maximum))
    ///                optional(string(inverseName)) optional(string(originalName))
    ///                count(options) string(option)* optional(string(hashModifier))
    /// type         = byte(tag) [payload]     see `Schema.AttributeType.fingerprintTag`
    /// ```
    ///
    /// When an entity has unique constraints over several properties (`#Unique`) or indexes
    /// (`#Index`), a section follows the entities; a schema without any has none, so its
    /// fingerprint is the one it had before these existed. Entities are in the order above;
    /// those with neither are left out.
    ///
    /// ```
    /// section      = string("logbook-constraints-1") count(entities) constraints*
    /// constraints  = string(name) count(unique) names* count(indexes) names*
    /// names        = count(names) string(name)*
    /// ```
    ///
    /// When an entity has a superentity (model inheritance), a last section follows, naming
    /// each such entity and its superentity in the order above; a schema without inheritance
    /// has none, so its fingerprint is the one it had before inheritance existed.
    ///
    /// ```
    /// section      = string("logbook-hierarchy-1") count(entities) (string(name) string(superentity))*
    /// ```
    ///
    /// ## Topics
    ///
    /// ### Reading a fingerprint
    /// - ``bytes``
    /// - ``hexString``
    public struct Fingerprint: Hashable, Sendable, Codable, CustomStringConvertible {
        /// The 32 bytes of the SHA-256 digest.
        public let bytes: [UInt8]

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        /// The digest as 64 lowercase hexadecimal digits.
        public var hexString: String {
            let digits = Array("0123456789abcdef".utf8)
            var text: [UInt8] = []
            text.reserveCapacity(bytes.count * 2)
            for byte in bytes {
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0f)])
            }
            return String(decoding: text, as: UTF8.self)
        }

        public var description: String { hexString }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let bytes = Self.bytes(fromHex: text), bytes.count == 32 else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "A fingerprint is 64 hexadecimal digits"
                )
            }
            self.bytes = bytes
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(hexString)
        }

        private static func bytes(fromHex text: String) -> [UInt8]? {
            let digits = Array(text.utf8)
            guard digits.count % 2 == 0 else { return nil }
            var bytes: [UInt8] = []
            for index in stride(from: 0, to: digits.count, by: 2) {
                guard let high = value(ofHexDigit: digits[index]), let low = value(ofHexDigit: digits[index + 1]) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            }
            return bytes
        }

        private static func value(ofHexDigit digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: nil
            }
        }
    }

    /// The fingerprint of the schema's stored shape.
    ///
    /// - Complexity: O(*n*) in the size of the schema.
    public var fingerprint: Fingerprint {
        Fingerprint(bytes: SHA256.hash(canonicalEncoding))
    }

    /// The bytes the fingerprint hashes, as ``Fingerprint`` describes them.
    package var canonicalEncoding: [UInt8] {
        var encoder = CanonicalEncoder()
        encoder.string("logbook-schema-1")
        encoder.count(entities.count)
        for entity in entities.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
            encoder.string(entity.name)
            let attributes = entity.attributes.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            encoder.count(attributes.count)
            for attribute in attributes {
                encoder.string(attribute.name)
                encoder.type(attribute.type)
                encoder.options(attribute.options.map(\.canonicalName))
                encoder.optional(attribute.originalName) { $0.string($1) }
                encoder.optional(attribute.hashModifier) { $0.string($1) }
            }
            let relationships = entity.relationships.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            encoder.count(relationships.count)
            for relationship in relationships {
                encoder.string(relationship.name)
                encoder.string(relationship.destination)
                encoder.bool(relationship.isToMany)
                encoder.bool(relationship.isOptional)
                encoder.string(relationship.deleteRule.rawValue)
                encoder.optional(relationship.minimumModelCount) { $0.int($1) }
                encoder.optional(relationship.maximumModelCount) { $0.int($1) }
                encoder.optional(relationship.inverseName) { $0.string($1) }
                encoder.optional(relationship.originalName) { $0.string($1) }
                encoder.options(relationship.options.map(\.canonicalName))
                encoder.optional(relationship.hashModifier) { $0.string($1) }
            }
        }
        let constrained = entities.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) })
            .filter { !$0.uniquenessConstraints.isEmpty || !$0.indexes.isEmpty }
        if !constrained.isEmpty {
            encoder.string("logbook-constraints-1")
            encoder.count(constrained.count)
            for entity in constrained {
                encoder.string(entity.name)
                for lists in [entity.uniquenessConstraints, entity.indexes] {
                    encoder.count(lists.count)
                    for names in lists {
                        encoder.count(names.count)
                        for name in names { encoder.string(name) }
                    }
                }
            }
        }
        let derived = entities.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) })
            .compactMap { entity in entity.superentityName.map { (entity.name, $0) } }
        if !derived.isEmpty {
            encoder.string("logbook-hierarchy-1")
            encoder.count(derived.count)
            for (name, superentity) in derived {
                encoder.string(name)
                encoder.string(superentity)
            }
        }
        return encoder.bytes
    }
}

extension Schema.AttributeType {
    /// The byte that opens the type in the canonical encoding. Scalars are `0x01`–`0x13` in
    /// declaration order; `optional` is `0x20` followed by the wrapped type, `array` `0x21`
    /// and the element type, `rawRepresentable` `0x22`, the type name and the raw type,
    /// `composite` `0x23` and the type name, `transformable` `0x24` and the transformer name.
    /// These numbers never change.
    var fingerprintTag: UInt8 {
        switch self {
        case .bool: 0x01
        case .int: 0x02
        case .int8: 0x03
        case .int16: 0x04
        case .int32: 0x05
        case .int64: 0x06
        case .uint: 0x07
        case .uint8: 0x08
        case .uint16: 0x09
        case .uint32: 0x0a
        case .uint64: 0x0b
        case .double: 0x0c
        case .float: 0x0d
        case .decimal: 0x0e
        case .string: 0x0f
        case .date: 0x10
        case .uuid: 0x11
        case .url: 0x12
        case .data: 0x13
        case .optional: 0x20
        case .array: 0x21
        case .rawRepresentable: 0x22
        case .composite: 0x23
        case .transformable: 0x24
        }
    }
}

/// Writes the canonical encoding that ``Schema/Fingerprint`` describes.
private struct CanonicalEncoder {
    private(set) var bytes: [UInt8] = []

    mutating func count(_ value: Int) {
        precondition(value >= 0 && value <= Int(UInt32.max), "A count fits in a UInt32")
        let count = UInt32(value)
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: count >> UInt32(shift))) }
    }

    mutating func int(_ value: Int) {
        let number = Int64(value)
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: number >> Int64(shift))) }
    }

    mutating func bool(_ value: Bool) {
        bytes.append(value ? 1 : 0)
    }

    mutating func string(_ value: String) {
        count(value.utf8.count)
        bytes.append(contentsOf: value.utf8)
    }

    mutating func optional<Value>(_ value: Value?, _ write: (inout CanonicalEncoder, Value) -> Void) {
        guard let value else {
            bytes.append(0)
            return
        }
        bytes.append(1)
        write(&self, value)
    }

    mutating func options(_ names: [String]) {
        let sorted = names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        count(sorted.count)
        for name in sorted { string(name) }
    }

    mutating func type(_ type: Schema.AttributeType) {
        bytes.append(type.fingerprintTag)
        switch type {
        case .optional(let wrapped): self.type(wrapped)
        case .array(let element): self.type(element)
        case .rawRepresentable(let name, let raw):
            string(name)
            self.type(raw)
        case .composite(let name): string(name)
        case .transformable(let name): string(name)
        default: break
        }
    }
}
