extension Schema {
    /// A persisted attribute of an entity: a property whose value is stored, not a relationship.
    ///
    /// `@Model` records one for each stored property that is neither `@Transient` nor a
    /// relationship, with what `@Attribute` adds.
    ///
    /// ```swift
    /// @Attribute(originalName: "start_date") var startDate: Date
    /// // Schema.Attribute(name: "startDate", type: .date, originalName: "start_date")
    /// ```
    ///
    /// ## Topics
    ///
    /// ### Describing an attribute
    /// - ``name``
    /// - ``type``
    /// - ``isOptional``
    /// - ``hasDefaultValue``
    /// - ``originalName``
    /// - ``options``
    /// - ``isUnique``
    /// - ``hashModifier``
    /// - ``Option``
    ///
    /// ### Creating an attribute
    /// - ``init(name:type:hasDefaultValue:originalName:options:hashModifier:)``
    public struct Attribute: Hashable, Sendable, Codable {
        /// The property's name.
        public var name: String
        /// The stored type.
        public var type: AttributeType
        /// Whether the declaration gives a default: an initial value, or `nil` for an optional.
        ///
        /// Recorded so that migrations can tell whether an added attribute can be filled in.
        /// It is not part of the ``Schema/fingerprint``: adding or removing a default does not
        /// change what is stored.
        public var hasDefaultValue: Bool
        /// The name the property had in an earlier version, when it was renamed.
        public var originalName: String?
        /// The options given to `@Attribute`, in a canonical order.
        public var options: [Option]
        /// A string that changes the schema's fingerprint without any other change.
        public var hashModifier: String?

        /// Creates an attribute description.
        ///
        /// - Parameters:
        ///   - name: The property's name.
        ///   - type: The stored type.
        ///   - hasDefaultValue: Whether the declaration gives a default.
        ///   - originalName: The property's name in an earlier version.
        ///   - options: The attribute's options, in any order; duplicates are dropped.
        ///   - hashModifier: A string that changes the schema's fingerprint.
        public init(
            name: String,
            type: AttributeType,
            hasDefaultValue: Bool = false,
            originalName: String? = nil,
            options: [Option] = [],
            hashModifier: String? = nil
        ) {
            self.name = name
            self.type = type
            self.hasDefaultValue = hasDefaultValue
            self.originalName = originalName
            self.options = Array(Set(options)).sorted { $0.canonicalName < $1.canonicalName }
            self.hashModifier = hashModifier
        }

        /// Whether `nil` can be stored.
        public var isOptional: Bool { type.isOptional }

        /// Whether the attribute has the ``Option/unique`` option.
        public var isUnique: Bool { options.contains(.unique) }
    }
}

extension Schema.Attribute {
    /// An option of `@Attribute`.
    ///
    /// ```swift
    /// @Attribute(.unique) var name: String
    /// @Attribute(.externalStorage) var photo: Data
    /// ```
    ///
    /// ## Topics
    ///
    /// ### Options
    /// - ``unique``
    /// - ``externalStorage``
    /// - ``preserveValueOnDeletion``
    /// - ``ephemeral``
    /// - ``spotlight``
    /// - ``allowsCloudEncryption``
    /// - ``transformable(by:)``
    public struct Option: Hashable, Sendable, Codable, CustomStringConvertible {
        private enum Kind: String, Hashable, Sendable {
            case unique
            case externalStorage
            case preserveValueOnDeletion
            case ephemeral
            case spotlight
            case allowsCloudEncryption
            case transformable
        }

        private let kind: Kind
        private let transformerName: String?

        private init(_ kind: Kind, transformerName: String? = nil) {
            self.kind = kind
            self.transformerName = transformerName
        }

        /// The value is unique among the entity's objects: inserting a model whose value
        /// collides with a saved one updates the saved one instead (an upsert).
        ///
        /// Allowed on numeric types, `String` and `UUID`, and optionals of them.
        public static let unique = Option(.unique)

        /// The value is large and is kept in a file beside the log instead of in the model's
        /// events.
        ///
        /// For a `Data` attribute (or a `.transformable(by:)` one, which stores `Data`), each value
        /// of at least ``ModelConfiguration/externalStorageThreshold`` bytes (16 KiB by default)
        /// is written to a file under `external/` in the store's directory, named by the SHA-256
        /// of its bytes, before the save's batch that refers to it; the same bytes saved twice are
        /// one file. Smaller values, and values of other types, stay in the log. A store in
        /// memory or kept in PostgreSQL keeps every value inline.
        ///
        /// ```swift
        /// @Model final class Photo {
        ///     @Attribute(.externalStorage) var image: Data?
        /// }
        /// ```
        ///
        /// A store kept in a directory reads none of the files as it opens: its objects hold the
        /// reference, and a file is read, and checked, when a fetch or a relationship makes a
        /// model of its object, which then holds the bytes. Models, predicates and history see
        /// the bytes. A missing or damaged file fails the fetch that reads it with
        /// ``LogbookError/Code/corruption`` naming the file, the entity, the attribute and the
        /// object, never the open; `logbook verify` checks every file. See <doc:OnDiskFormat>.
        public static let externalStorage = Option(.externalStorage)

        /// The value is meant to stay readable in the history after its model is deleted, as in
        /// SwiftData.
        ///
        /// Recorded in the schema; a deletion event records only the model's identifier in
        /// this release.
        public static let preserveValueOnDeletion = Option(.preserveValueOnDeletion)

        /// Changes to the value are not part of the history that readers of the log consume.
        ///
        /// Recorded in the schema; the value is still saved in this release.
        public static let ephemeral = Option(.ephemeral)

        /// The value is meant for search indexing, as in SwiftData; recorded in the schema only.
        ///
        /// Linux has no Spotlight: the option has no effect.
        public static let spotlight = Option(.spotlight)

        /// The value is meant to be encrypted when synced to CloudKit, as in SwiftData; recorded
        /// in the schema only.
        ///
        /// Logbook does not sync: the option has no effect on Linux, or anywhere.
        public static let allowsCloudEncryption = Option(.allowsCloudEncryption)

        /// The value is stored as `Data` produced by a transformer.
        ///
        /// Logbook's counterpart of SwiftData's `.transformable(by:)`, with an
        /// ``AttributeTransformer`` in place of a `ValueTransformer`.
        ///
        /// ```swift
        /// @Attribute(.transformable(by: ColorTransformer.self)) var color: Color
        /// ```
        ///
        /// - Parameter transformer: The transformer type; the property's type is its `Value`
        ///   or an optional of it.
        /// - Returns: The option.
        public static func transformable<Transformer: AttributeTransformer>(by transformer: Transformer.Type) -> Option
        {
            Option(.transformable, transformerName: schemaTypeName(transformer))
        }

        /// The option's name in the schema, and in the fingerprint's canonical encoding:
        /// `unique`, `transformable(ColorTransformer)`.
        var canonicalName: String {
            if let transformerName { "\(kind.rawValue)(\(transformerName))" } else { kind.rawValue }
        }

        public var description: String { canonicalName }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let name = try container.decode(String.self)
            if name.hasPrefix("transformable("), name.hasSuffix(")") {
                self.init(.transformable, transformerName: String(name.dropFirst("transformable(".count).dropLast()))
            } else if let kind = Kind(rawValue: name), kind != .transformable {
                self.init(kind)
            } else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "Unknown attribute option '\(name)'"
                )
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(canonicalName)
        }
    }
}
