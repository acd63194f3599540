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
    ///
    /// ### Creating an entity
    /// - ``init(name:attributes:relationships:)``
    public struct Entity: Hashable, Sendable, Codable {
        /// The entity's name.
        public var name: String
        /// The persisted attributes, sorted by name.
        public private(set) var attributes: [Attribute]
        /// The relationships, sorted by name.
        public private(set) var relationships: [Relationship]

        /// Creates an entity description.
        ///
        /// - Parameters:
        ///   - name: The entity's name.
        ///   - attributes: Its attributes, in any order.
        ///   - relationships: Its relationships, in any order.
        public init(name: String, attributes: [Attribute], relationships: [Relationship]) {
            self.name = name
            self.attributes = attributes.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            self.relationships = relationships.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
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
                relationships: try container.decode([Relationship].self, forKey: .relationships)
            )
        }

        private enum CodingKeys: String, CodingKey {
            case name
            case attributes
            case relationships
        }
    }
}
