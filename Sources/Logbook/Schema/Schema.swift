/// The description of everything an app persists: its entities, their attributes and
/// relationships.
///
/// Build a schema from model types. Every model reachable through relationships is included,
/// so the root type is enough:
///
/// ```swift
/// let schema = Schema([Trip.self])
/// schema.entities.map(\.name)   // ["BucketListItem", "LivingAccommodation", "Trip"]
/// ```
///
/// As in SwiftData, building a schema from model types does not throw. It checks what the
/// compiler cannot, and a problem it finds is kept in the schema and thrown, as a
/// ``SchemaError``, when a ``ModelContainer`` is made with it (or a ``SchemaMigrationPlan``
/// names it). A schema with a problem has no ``entities``. The checks:
/// - Two model types with the same entity name (``SchemaError/duplicateEntity``), for example
///   `SampleTripsSchemaV1.Trip` and `SampleTripsSchemaV3.Trip` in one schema.
/// - Inverses. A relationship's inverse is the relationship on the destination that points
///   back. An explicit `inverse:` on either side pairs the two. Otherwise the inverse is found
///   implicitly when exactly one relationship of the destination points back and has no other
///   partner; with several candidates the schema cannot choose and throws
///   ``SchemaError/ambiguousInverse``, naming the relationship and every candidate. An explicit
///   inverse that does not point back, or two explicit inverses that disagree, throw
///   ``SchemaError/invalidInverse``. With no candidate, the relationship has no inverse.
/// - Unique constraints on types a unique index cannot hold, or on to-many relationships
///   (``SchemaError/invalidUniqueConstraint``); the compiler already rejects most of these.
/// - Model counts that are negative, inverted, or on a to-one relationship
///   (``SchemaError/invalidModelCount``).
/// - Original names claimed twice in one entity (``SchemaError/duplicateOriginalName``).
///
/// ```swift
/// let schema = Schema([AmbiguousTrip.self])   // does not throw
/// do {
///     _ = try ModelContainer(for: schema)
/// } catch SchemaError.ambiguousInverse {
///     print("Add an explicit `inverse:` to one of the relationships.")
/// }
/// ```
///
/// A schema is a value: two schemas are equal when their versions and entities are, and
/// ``fingerprint`` identifies the stored shape across runs and machines. A schema decoded from
/// a store describes the same entities but has no model types behind it.
///
/// ## Topics
///
/// ### Creating a schema
/// - ``init(_:version:)-([PersistentModel.],_)``
/// - ``init(_:version:)-(PersistentModel....,_)``
/// - ``init(versionedSchema:)``
/// - ``init(entities:version:)``
///
/// ### Inspecting a schema
/// - ``version``
/// - ``entities``
/// - ``entity(named:)``
/// - ``fingerprint``
///
/// ### Describing entities
/// - ``Entity``
/// - ``Attribute``
/// - ``Relationship``
/// - ``AttributeType``
/// - ``Version``
/// - ``Fingerprint``
public struct Schema: Sendable {
    /// The schema's version.
    public var version: Version
    /// The entities, sorted by name.
    public let entities: [Entity]
    /// The model types behind each entity name; empty for a schema decoded from a store.
    let modelTypes: [String: any PersistentModel.Type]

    /// The first problem found in the models, thrown when a container is made with the schema.
    let problem: SchemaError?

    /// Creates the schema of model types and every model they reach through relationships.
    ///
    /// Does not throw: a problem in the models is kept and thrown by
    /// ``ModelContainer/init(for:migrationPlan:configurations:)-(Schema,_,_)``.
    ///
    /// - Parameters:
    ///   - models: The model types; duplicates are ignored.
    ///   - version: The schema's version.
    /// - Complexity: O(*p*²) in the number of relationships of an entity, which is small.
    public init(_ models: [any PersistentModel.Type], version: Version = Version(1, 0, 0)) {
        self.version = version
        switch Self.resolve(models, version: version) {
        case .success(let (entities, types)):
            self.entities = entities
            self.modelTypes = types
            self.problem = nil
        case .failure(let problem):
            self.entities = []
            self.modelTypes = [:]
            self.problem = problem
        }
    }

    /// The entities of model types and the types by entity name, checked.
    private static func resolve(
        _ models: [any PersistentModel.Type],
        version: Version
    ) -> Result<([Entity], [String: any PersistentModel.Type]), SchemaError> {
        Result { () throws(SchemaError) in
            let types = try reachableModelTypes(from: models)
            var declared: [DeclaredEntity] = []
            for (_, type) in types {
                declared.append(try declaredEntity(of: type))
            }
            // Hierarchies first: pairing inverses takes a subentity's inherited relationships
            // from its superentity, which must then be in the schema and not be its own ancestor.
            let unresolved = declared.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }.map { entity in
                Entity(
                    name: entity.name,
                    attributes: entity.attributes,
                    relationships: entity.relationships.map(\.relationship),
                    uniquenessConstraints: entity.uniquenessConstraints,
                    indexes: entity.indexes,
                    superentityName: entity.superentityName
                )
            }
            try Schema(checked: unresolved, version: version).validateHierarchy()
            let entities = try resolveInverses(declared)
            // The rules on the resolved entities, checked on a schema made of them.
            try Schema(checked: entities, version: version).validate()
            return (Schema.linkingHierarchy(entities), types)
        }
    }

    /// A schema of resolved entities, for checking them.
    private init(checked entities: [Entity], version: Version) {
        self.version = version
        self.entities = entities
        self.modelTypes = [:]
        self.problem = nil
    }

    /// Creates the schema of model types and every model they reach through relationships.
    ///
    /// ```swift
    /// let schema = Schema(Trip.self, BucketListItem.self)
    /// ```
    ///
    /// - Parameters:
    ///   - models: The model types.
    ///   - version: The schema's version.
    public init(_ models: any PersistentModel.Type..., version: Version = Version(1, 0, 0)) {
        self.init(models, version: version)
    }

    /// Creates the schema of a versioned schema's models, at its version.
    ///
    /// ```swift
    /// let v1 = Schema(versionedSchema: SampleTripsSchemaV1.self)
    /// ```
    ///
    /// - Parameter versionedSchema: The versioned schema.
    public init(versionedSchema: any VersionedSchema.Type) {
        self.init(versionedSchema.models, version: versionedSchema.versionIdentifier)
    }

    /// Creates a schema from entity descriptions, such as those recorded in a store, with no
    /// model types behind it.
    ///
    /// Inverses are taken as given; the schema checks that they pair up.
    ///
    /// - Parameters:
    ///   - entities: The entities, in any order.
    ///   - version: The schema's version.
    /// - Throws: ``SchemaError`` as ``init(_:version:)-([PersistentModel.],_)`` does.
    public init(entities: [Entity], version: Version) throws {
        var byName: [String: Entity] = [:]
        for entity in entities {
            guard byName.updateValue(entity, forKey: entity.name) == nil else {
                throw SchemaError(.duplicateEntity, "Two entities are named '\(entity.name)'", entity: entity.name)
            }
        }
        self.version = version
        self.entities = Schema.linkingHierarchy(
            byName.values.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        )
        self.modelTypes = [:]
        self.problem = nil
        try validate()
        try validateInversesPairUp()
    }

    /// The entity with this name.
    public func entity(named name: String) -> Entity? {
        entities.first { $0.name == name }
    }

    /// Throws the problem found in the models, if any.
    ///
    /// - Throws: The ``SchemaError`` found when the schema was built.
    func checkProblems() throws {
        if let problem { throw problem }
    }

    /// The model type behind an entity, for a schema built from model types.
    func modelType(forEntity name: String) -> (any PersistentModel.Type)? {
        modelTypes[name]
    }
}

extension Schema: Hashable {
    public static func == (lhs: Schema, rhs: Schema) -> Bool {
        lhs.version == rhs.version && lhs.entities == rhs.entities
            && lhs.problem?.description == rhs.problem?.description
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(version)
        hasher.combine(entities)
    }
}

extension Schema: Codable {
    private enum CodingKeys: String, CodingKey {
        case version
        case entities
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            entities: try container.decode([Entity].self, forKey: .entities),
            version: try container.decode(Version.self, forKey: .version)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(entities, forKey: .entities)
    }
}

// MARK: - Collecting model types

/// The given model types and every model type they reach through relationships, by entity name.
private func reachableModelTypes(
    from models: [any PersistentModel.Type]
) throws(SchemaError) -> [String: any PersistentModel.Type] {
    var types: [String: any PersistentModel.Type] = [:]
    var queue = models
    while let type = queue.popLast() {
        let (name, targets) = entityNameAndTargets(of: type)
        if let existing = types[name] {
            guard ObjectIdentifier(existing) == ObjectIdentifier(type) else {
                throw SchemaError(
                    .duplicateEntity,
                    "\(String(reflecting: existing)) and \(String(reflecting: type)) are both entity '\(name)'",
                    entity: name
                )
            }
            continue
        }
        types[name] = type
        queue.append(contentsOf: targets)
    }
    return types
}

private func entityNameAndTargets(of type: any PersistentModel.Type) -> (String, [any PersistentModel.Type]) {
    func open<Model: PersistentModel>(_ type: Model.Type) -> (String, [any PersistentModel.Type]) {
        let binding = Model._$binding
        var targets: [any PersistentModel.Type] = binding.properties.compactMap { property in
            if case .relationship(let access) = property.kind { access.targetType } else { nil }
        }
        // A subclass reaches its superclass: its entity is the subclass's superentity.
        if let supertype = binding.supertype { targets.append(supertype) }
        return (binding.entityName, targets)
    }
    return open(type)
}

private func declaredEntity(of type: any PersistentModel.Type) throws(SchemaError) -> DeclaredEntity {
    func open<Model: PersistentModel>(_ type: Model.Type) throws(SchemaError) -> DeclaredEntity {
        try Model._$binding.declaredEntity()
    }
    return try open(type)
}
