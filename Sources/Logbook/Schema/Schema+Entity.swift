extension Schema {
    /// A model type as the schema sees it: a name, attributes and relationships.
    ///
    /// The name is the unqualified class name, so `SampleTripsSchemaV1.Trip` and
    /// `SampleTripsSchemaV3.Trip` are both the entity `Trip`. Attributes and relationships are
    /// kept sorted by name: an entity is the same whatever order its properties are declared in.
    ///
    /// ```swift
    /// let trip = try #require(schema.entity(named: "Trip"))
    /// #expect(trip.attribute(named: "name")?.isUnique == true)
    /// ```
    ///
    /// ## Topics
    ///
    /// ### Describing an entity
    /// - ``name``
    /// - ``attributes``
    /// - ``relationships``
    /// - ``attribute(named:)``
    /// - ``relationship(named:)``
    /// - ``uniqueProperties``
    /// - ``uniquenessConstraints``
    /// - ``indexes``
    ///
    /// ### Creating an entity
    /// - ``init(name:attributes:relationships:uniquenessConstraints:indexes:)``
    public struct Entity: Hashable, Sendable, Codable {
        /// The entity's name.
        public var name: String
        /// The persisted attributes, sorted by name.
        public private(set) var attributes: [Attribute]
        /// The relationships, sorted by name.
        public private(set) var relationships: [Relationship]
        /// The unique constraints over several properties, which `#Unique` declares: each the
        /// names of its properties, sorted, and the constraints sorted.
        ///
        /// A constraint over one property is not here: it is that property's
        /// ``Attribute/Option/unique`` option, as `@Attribute(.unique)` declares it. An object
        /// whose values of a constraint's properties all equal a stored object's is an upsert
        /// of that object; a constraint does not apply to an object with `nil` in one of them.
        public private(set) var uniquenessConstraints: [[String]]
        /// The indexes `#Index` declares: each the names of its properties, its leading
        /// property first; the indexes sorted.
        public private(set) var indexes: [[String]]

        /// Creates an entity description.
        ///
        /// - Parameters:
        ///   - name: The entity's name.
        ///   - attributes: Its attributes, in any order.
        ///   - relationships: Its relationships, in any order.
        ///   - uniquenessConstraints: Unique constraints over two or more properties, by name.
        ///   - indexes: Indexes over one or more properties, by name, leading property first.
        public init(
            name: String,
            attributes: [Attribute],
            relationships: [Relationship],
            uniquenessConstraints: [[String]] = [],
            indexes: [[String]] = []
        ) {
            self.name = name
            self.attributes = attributes.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            self.relationships = relationships.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            self.uniquenessConstraints = Self.canonical(uniquenessConstraints.map(Self.sortedNames))
            self.indexes = Self.canonical(indexes)
        }

        /// Names sorted by their UTF-8 bytes.
        private static func sortedNames(_ names: [String]) -> [String] {
            names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }

        /// Lists of names without repeats, sorted: the same declarations in any order give
        /// the same entity.
        private static func canonical(_ lists: [[String]]) -> [[String]] {
            var seen: Set<[String]> = []
            return lists.filter { !$0.isEmpty && seen.insert($0).inserted }
                .sorted { $0.joined(separator: ",").utf8.lexicographicallyPrecedes($1.joined(separator: ",").utf8) }
        }

        /// The attribute with this name.
        public func attribute(named name: String) -> Attribute? {
            attributes.first { $0.name == name }
        }

        /// The relationship with this name.
        public func relationship(named name: String) -> Relationship? {
            relationships.first { $0.name == name }
        }

        /// The names of the unique attributes and relationships, sorted.
        public var uniqueProperties: [String] {
            (attributes.filter(\.isUnique).map(\.name) + relationships.filter(\.isUnique).map(\.name))
                .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }

        /// Replaces a relationship's inverse name.
        mutating func setInverse(_ inverse: String?, ofRelationshipAt index: Int) {
            relationships[index].inverseName = inverse
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                name: try container.decode(String.self, forKey: .name),
                attributes: try container.decode([Attribute].self, forKey: .attributes),
                relationships: try container.decode([Relationship].self, forKey: .relationships),
                uniquenessConstraints: try container.decodeIfPresent([[String]].self, forKey: .uniquenessConstraints)
                    ?? [],
                indexes: try container.decodeIfPresent([[String]].self, forKey: .indexes) ?? []
            )
        }

        /// Writes the constraints and indexes only when there are some, so that an entity
        /// without them is recorded in the very bytes it was before they existed.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(attributes, forKey: .attributes)
            try container.encode(relationships, forKey: .relationships)
            if !uniquenessConstraints.isEmpty {
                try container.encode(uniquenessConstraints, forKey: .uniquenessConstraints)
            }
            if !indexes.isEmpty { try container.encode(indexes, forKey: .indexes) }
        }

        private enum CodingKeys: String, CodingKey {
            case name
            case attributes
            case relationships
            case uniquenessConstraints
            case indexes
        }
    }
}

extension Schema {
    /// The unique constraints over several properties and the indexes of each entity that has
    /// any, one line each, as the `logbook` tool prints them:
    /// `Trip #Unique(name, startDate)` or `Trip #Index(startDate)`.
    package var constraintLines: [String] {
        entities.flatMap { entity in
            entity.uniquenessConstraints.map { "\(entity.name) #Unique(\($0.joined(separator: ", ")))" }
                + entity.indexes.map { "\(entity.name) #Index(\($0.joined(separator: ", ")))" }
        }
    }
}
