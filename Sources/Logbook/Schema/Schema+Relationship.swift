extension Schema {
    /// A relationship of an entity: a property that refers to other models.
    ///
    /// `@Model` records one for each stored property whose type is an optional model, an array
    /// of models or an optional array of models, with what `@Relationship` adds. A schema fills
    /// in ``inverseName`` when it pairs relationships up.
    ///
    /// ```swift
    /// @Relationship(.cascade) var bucketList: [BucketListItem]? = []
    /// // destination "BucketListItem", to-many, optional, delete rule .cascade,
    /// // inverse "trip" (found implicitly)
    /// ```
    ///
    /// ## Topics
    ///
    /// ### Describing a relationship
    /// - ``name``
    /// - ``destination``
    /// - ``isToMany``
    /// - ``isOptional``
    /// - ``deleteRule``
    /// - ``minimumModelCount``
    /// - ``maximumModelCount``
    /// - ``inverseName``
    /// - ``originalName``
    /// - ``options``
    /// - ``isUnique``
    /// - ``hashModifier``
    /// - ``DeleteRule``
    /// - ``Option``
    ///
    /// ### Creating a relationship
    /// - ``init(name:destination:isToMany:isOptional:deleteRule:minimumModelCount:maximumModelCount:inverseName:originalName:options:hashModifier:)``
    public struct Relationship: Hashable, Sendable, Codable {
        /// The property's name.
        public var name: String
        /// The entity name of the related models.
        public var destination: String
        /// Whether the property holds many models (an array) rather than one.
        public var isToMany: Bool
        /// Whether the property is an optional: `Target?` or `[Target]?`.
        public var isOptional: Bool
        /// What deleting the model does to the related models.
        public var deleteRule: DeleteRule
        /// The fewest related models a save accepts, or `nil` for no minimum.
        public var minimumModelCount: Int?
        /// The most related models a save accepts, or `nil` for no maximum.
        public var maximumModelCount: Int?
        /// The name of the relationship on the destination that points back, or `nil` when
        /// there is none.
        public var inverseName: String?
        /// The name the property had in an earlier version, when it was renamed.
        public var originalName: String?
        /// The options given to `@Relationship`.
        public var options: [Option]
        /// A string that changes the schema's fingerprint without any other change.
        public var hashModifier: String?

        /// Creates a relationship description.
        ///
        /// - Parameters:
        ///   - name: The property's name.
        ///   - destination: The entity name of the related models.
        ///   - isToMany: Whether the property holds many models.
        ///   - isOptional: Whether the property is an optional.
        ///   - deleteRule: What deleting the model does to the related models.
        ///   - minimumModelCount: The fewest related models, or `nil`.
        ///   - maximumModelCount: The most related models, or `nil`.
        ///   - inverseName: The relationship on the destination that points back, or `nil`.
        ///   - originalName: The property's name in an earlier version.
        ///   - options: The relationship's options; duplicates are dropped.
        ///   - hashModifier: A string that changes the schema's fingerprint.
        public init(
            name: String,
            destination: String,
            isToMany: Bool,
            isOptional: Bool = true,
            deleteRule: DeleteRule = .nullify,
            minimumModelCount: Int? = nil,
            maximumModelCount: Int? = nil,
            inverseName: String? = nil,
            originalName: String? = nil,
            options: [Option] = [],
            hashModifier: String? = nil
        ) {
            self.name = name
            self.destination = destination
            self.isToMany = isToMany
            self.isOptional = isOptional
            self.deleteRule = deleteRule
            self.minimumModelCount = minimumModelCount
            self.maximumModelCount = maximumModelCount
            self.inverseName = inverseName
            self.originalName = originalName
            self.options = Array(Set(options)).sorted { $0.canonicalName < $1.canonicalName }
            self.hashModifier = hashModifier
        }

        /// Whether the relationship has the ``Option/unique`` option.
        public var isUnique: Bool { options.contains(.unique) }
    }
}

extension Schema.Relationship {
    /// What deleting a model does to the models it relates to.
    ///
    /// ## Topics
    ///
    /// ### Rules
    /// - ``nullify``
    /// - ``cascade``
    /// - ``deny``
    /// - ``noAction``
    public enum DeleteRule: String, Hashable, Sendable, Codable, CaseIterable {
        /// The related models stay; their inverse stops referring to the deleted model. The
        /// default.
        case nullify
        /// The related models are deleted too.
        case cascade
        /// The delete fails while any related model exists.
        case deny
        /// Nothing happens to the related models; their inverse keeps referring to the deleted
        /// model until it is changed.
        case noAction
    }

    /// An option of `@Relationship`.
    ///
    /// ## Topics
    ///
    /// ### Options
    /// - ``unique``
    public struct Option: Hashable, Sendable, Codable, CustomStringConvertible {
        private enum Kind: String, Hashable, Sendable {
            case unique
        }

        private let kind: Kind

        private init(_ kind: Kind) {
            self.kind = kind
        }

        /// The related model is unique among the entity's objects: no two objects relate to the
        /// same model. Allowed on to-one relationships only.
        public static let unique = Option(.unique)

        /// The option's name in the schema and in the fingerprint's canonical encoding.
        var canonicalName: String { kind.rawValue }

        public var description: String { canonicalName }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let name = try container.decode(String.self)
            guard let kind = Kind(rawValue: name) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "Unknown relationship option '\(name)'"
                )
            }
            self.init(kind)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(canonicalName)
        }
    }
}

extension Schema.Relationship {
    /// Whether the relationship sets a minimum or maximum model count, which a save checks.
    var hasCountLimit: Bool { minimumModelCount != nil || maximumModelCount != nil }
}
