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
    /// - ``superentityName``
    /// - ``superentity``
    /// - ``subentities``
    ///
    /// ### Creating an entity
    /// - ``init(name:attributes:relationships:uniquenessConstraints:indexes:superentityName:)``
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
        /// The name of the entity this one inherits from, when its model class is a subclass of
        /// another model class; `nil` for an entity at the root of its hierarchy.
        ///
        /// An entity holds every attribute and relationship it inherits, beside its own. See
        /// ``superentity`` and ``subentities`` for the entities themselves, as SwiftData's
        /// `Schema.Entity.superentity` and `subentities` give them.
        ///
        /// ```swift
        /// schema.entity(named: "BusinessTrip")?.superentityName   // "Trip"
        /// ```
        public internal(set) var superentityName: String?

        /// The entity this one inherits from, as the schema holds it (with its own
        /// ``superentity``, and no ``subentities``); `nil` for an entity at the root of its
        /// hierarchy, or one not taken from a ``Schema``.
        ///
        /// ```swift
        /// let business = try #require(schema.entity(named: "BusinessTrip"))
        /// business.superentity?.name   // "Trip"
        /// ```
        public var superentity: Entity? { hierarchy?.superentity }

        /// The entities that inherit from this one directly, as the schema holds them (each with
        /// its ``superentity``, and no subentities of its own); empty for an entity no other
        /// inherits from, or one not taken from a ``Schema``.
        ///
        /// ```swift
        /// let trip = try #require(schema.entity(named: "Trip"))
        /// trip.subentities.map(\.name).sorted()   // ["BusinessTrip", "PersonalTrip"]
        /// ```
        public var subentities: Set<Entity> { hierarchy?.subentities ?? [] }

        /// The entities above and below this one, filled in by the schema; not part of the
        /// entity's value (equality, hashing and coding ignore it).
        var hierarchy: Hierarchy?

        /// Creates an entity description.
        ///
        /// - Parameters:
        ///   - name: The entity's name.
        ///   - attributes: Its attributes, in any order.
        ///   - relationships: Its relationships, in any order.
        ///   - uniquenessConstraints: Unique constraints over two or more properties, by name.
        ///   - indexes: Indexes over one or more properties, by name, leading property first.
        ///   - superentityName: The entity it inherits from, if any: see ``superentityName``.
        public init(
            name: String,
            attributes: [Attribute],
            relationships: [Relationship],
            uniquenessConstraints: [[String]] = [],
            indexes: [[String]] = [],
            superentityName: String? = nil
        ) {
            self.name = name
            self.superentityName = superentityName
            self.attributes = attributes.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            self.relationships = relationships.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            self.uniquenessConstraints = Self.canonical(uniquenessConstraints.map(Self.sortedNames))
            self.indexes = Self.canonical(indexes)
        }

        /// Whether two entities describe the same thing: name, properties, constraints, indexes
        /// and superentity name. The linked ``superentity`` and ``subentities`` do not count.
        public static func == (lhs: Entity, rhs: Entity) -> Bool {
            lhs.name == rhs.name && lhs.attributes == rhs.attributes && lhs.relationships == rhs.relationships
                && lhs.uniquenessConstraints == rhs.uniquenessConstraints && lhs.indexes == rhs.indexes
                && lhs.superentityName == rhs.superentityName
        }

        /// Hashes what ``==(_:_:)`` compares.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(attributes)
            hasher.combine(relationships)
            hasher.combine(uniquenessConstraints)
            hasher.combine(indexes)
            hasher.combine(superentityName)
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
                indexes: try container.decodeIfPresent([[String]].self, forKey: .indexes) ?? [],
                superentityName: try container.decodeIfPresent(String.self, forKey: .superentity)
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
            // Written only for a subentity, so that an entity without one keeps its bytes.
            if let superentityName { try container.encode(superentityName, forKey: .superentity) }
        }

        private enum CodingKeys: String, CodingKey {
            case name
            case attributes
            case relationships
            case uniquenessConstraints
            case indexes
            case superentity
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

extension Schema.Entity {
    /// An entity's neighbours in its hierarchy, held in a class so that an entity can refer to
    /// entities without containing itself.
    final class Hierarchy: Sendable {
        let superentity: Schema.Entity?
        let subentities: Set<Schema.Entity>

        init(superentity: Schema.Entity?, subentities: Set<Schema.Entity>) {
            self.superentity = superentity
            self.subentities = subentities
        }
    }
}

extension Schema {
    /// `entities` with each one's ``Entity/superentity`` and ``Entity/subentities`` filled in.
    static func linkingHierarchy(_ entities: [Entity]) -> [Entity] {
        guard entities.contains(where: { $0.superentityName != nil }) else { return entities }
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        // Each entity with its chain of superentities, none with subentities.
        var chained: [String: Entity] = [:]
        func chain(_ name: String, depth: Int) -> Entity? {
            if let done = chained[name] { return done }
            guard var entity = byName[name], depth <= entities.count else { return nil }
            let superentity = entity.superentityName.flatMap { chain($0, depth: depth + 1) }
            entity.hierarchy = superentity.map { Entity.Hierarchy(superentity: $0, subentities: []) }
            chained[name] = entity
            return entity
        }
        for entity in entities { _ = chain(entity.name, depth: 0) }
        return entities.map { entity in
            let subentities = Set(
                entities.filter { $0.superentityName == entity.name }.compactMap { chained[$0.name] }
            )
            var linked = entity
            let superentity = entity.superentityName.flatMap { chained[$0] }
            if superentity != nil || !subentities.isEmpty {
                linked.hierarchy = Entity.Hierarchy(superentity: superentity, subentities: subentities)
            }
            return linked
        }
    }

    /// One line for each entity with a superentity, as the `logbook` tool prints them:
    /// `BusinessTrip: Trip`, in the order of the entities' names.
    package var hierarchyLines: [String] {
        entities.compactMap { entity in entity.superentityName.map { "\(entity.name): \($0)" } }
    }

    /// The names of an entity and of every entity below it, the entity first.
    ///
    /// ```swift
    /// schema.entityNames(inheritingFrom: "Trip")   // ["Trip", "BusinessTrip", "PersonalTrip"]
    /// ```
    package func entityNames(inheritingFrom name: String) -> [String] {
        var names = [name]
        var index = 0
        while index < names.count {
            let current = names[index]
            names += entities.filter { $0.superentityName == current && !names.contains($0.name) }.map(\.name)
            index += 1
        }
        return names
    }
}
