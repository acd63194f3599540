/// How a container of several configurations splits its schema between their stores: each
/// entity in exactly one store.
///
/// A configuration with a ``ModelConfiguration/schema`` holds the entities of that schema; the
/// one configuration without a schema (if any) holds every entity no other configuration names.
/// The rules it checks, each a ``LogbookError/Code/invalidConfiguration`` naming what clashes:
/// - no two configurations share a name, or a store directory (configurations in memory have
///   none);
/// - no entity is named by two configurations, and at most one configuration has no schema;
/// - every entity of the container's schema has a store, and every entity a configuration
///   names is one of the container's;
/// - no configuration is left with no entity;
/// - no relationship leads from an entity of one store to an entity of another: a store
///   replays its own log alone, so it could not resolve the other end.
struct StorePartition {
    /// One store of the container: its configuration and its part of the schema.
    struct Part {
        var configuration: ModelConfiguration
        var schema: Schema
        var entityNames: Set<String>
    }

    /// The parts, in the order of the configurations.
    let parts: [Part]

    /// Splits `schema` between `configurations`.
    ///
    /// - Throws: ``LogbookError/Code/invalidConfiguration`` as described on the type;
    ///   ``LogbookError/Code/unsupported`` for a configuration opened as of a history token,
    ///   whose token would belong to one store only.
    init(schema: Schema, configurations: [ModelConfiguration]) throws {
        try Self.checkNamesAndDirectories(configurations)
        let known = Set(schema.entities.map(\.name))
        var owner: [String: Int] = [:]
        var schemaless: Int?
        for (index, configuration) in configurations.enumerated() {
            if configuration.asOf != nil {
                throw LogbookError(
                    .unsupported,
                    "configuration \(Self.describe(configuration)) reads as of a history token, which names a transaction of one store: open a container of that configuration alone to read as of it"
                )
            }
            guard let named = configuration.schema else {
                if let other = schemaless {
                    throw LogbookError(
                        .invalidConfiguration,
                        "configurations \(Self.describe(configurations[other])) and \(Self.describe(configuration)) both have no schema, and each would hold every entity the others do not name: give all but one of them a schema"
                    )
                }
                schemaless = index
                continue
            }
            for entity in named.entities {
                guard known.contains(entity.name) else {
                    throw LogbookError(
                        .invalidConfiguration,
                        "configuration \(Self.describe(configuration)) names entity '\(entity.name)', which is not in the container's schema (\(known.sorted().joined(separator: ", ")))"
                    )
                }
                if let other = owner.updateValue(index, forKey: entity.name), other != index {
                    throw LogbookError(
                        .invalidConfiguration,
                        "entity '\(entity.name)' is named by configurations \(Self.describe(configurations[other])) and \(Self.describe(configuration)): each entity lives in exactly one store"
                    )
                }
            }
        }
        let unclaimed = schema.entities.map(\.name).filter { owner[$0] == nil }
        if let schemaless {
            for name in unclaimed { owner[name] = schemaless }
        } else if !unclaimed.isEmpty {
            throw LogbookError(
                .invalidConfiguration,
                "no configuration holds \(unclaimed.map { "'\($0)'" }.joined(separator: ", ")): name them in a configuration's schema, or add a configuration without a schema to hold them"
            )
        }
        var parts: [Part] = []
        for (index, configuration) in configurations.enumerated() {
            let names = Set(owner.filter { $0.value == index }.keys)
            guard !names.isEmpty else {
                throw LogbookError(
                    .invalidConfiguration,
                    "configuration \(Self.describe(configuration)) holds no entity: every entity it could hold is named by another configuration"
                )
            }
            parts.append(
                Part(configuration: configuration, schema: Schema(restricting: schema, to: names), entityNames: names)
            )
        }
        try Self.checkRelationships(schema, owner: owner, configurations: configurations)
        try Self.checkHierarchies(schema, owner: owner, configurations: configurations)
        self.parts = parts
    }

    /// A configuration as messages name it: `'name' (path)`, or `'name' (in memory)`.
    static func describe(_ configuration: ModelConfiguration) -> String {
        "'\(configuration.name)' (\(configuration.isStoredInMemoryOnly ? "in memory" : configuration.url.path))"
    }

    private static func checkNamesAndDirectories(_ configurations: [ModelConfiguration]) throws {
        var names: [String: ModelConfiguration] = [:]
        var directories: [String: ModelConfiguration] = [:]
        for configuration in configurations {
            if let other = names.updateValue(configuration, forKey: configuration.name) {
                throw LogbookError(
                    .invalidConfiguration,
                    "two configurations are named '\(configuration.name)' (\(describe(other)) and \(describe(configuration))): give each configuration of a container its own name"
                )
            }
            guard !configuration.isStoredInMemoryOnly else { continue }
            let key = StoreRegistry.key(for: configuration.url)
            if let other = directories.updateValue(configuration, forKey: key) {
                throw LogbookError(
                    .invalidConfiguration,
                    "configurations \(describe(other)) and \(describe(configuration)) use the same store directory: each configuration of a container needs a store of its own",
                    path: key
                )
            }
        }
    }

    /// A model class and its subclasses live in one store: a fetch of the class returns the
    /// objects of every subclass.
    private static func checkHierarchies(
        _ schema: Schema,
        owner: [String: Int],
        configurations: [ModelConfiguration]
    ) throws {
        for entity in schema.entities {
            guard let superentity = entity.superentityName, let from = owner[entity.name],
                let to = owner[superentity], to != from
            else { continue }
            throw LogbookError(
                .invalidConfiguration,
                "'\(entity.name)' (configuration \(describe(configurations[from]))) is a subclass of '\(superentity)' (configuration \(describe(configurations[to]))): a model class and its subclasses live in one store, so keep them in one configuration"
            )
        }
    }

    private static func checkRelationships(
        _ schema: Schema,
        owner: [String: Int],
        configurations: [ModelConfiguration]
    ) throws {
        for entity in schema.entities {
            guard let from = owner[entity.name] else { continue }
            for relationship in entity.relationships {
                guard let to = owner[relationship.destination], to != from else { continue }
                throw LogbookError(
                    .invalidConfiguration,
                    "relationship '\(relationship.name)' of '\(entity.name)' (configuration \(describe(configurations[from]))) leads to '\(relationship.destination)' (configuration \(describe(configurations[to]))): a relationship cannot cross stores, so keep both entities in one configuration"
                )
            }
        }
    }
}
