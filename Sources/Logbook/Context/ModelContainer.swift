import Foundation

/// The store of an app's models, and the factory of the contexts that work with it.
///
/// ```swift
/// let container = try ModelContainer(
///     for: Trip.self,
///     migrationPlan: SampleTripsMigrationPlan.self,
///     configurations: ModelConfiguration(url: storeURL))
/// let context = ModelContext(container)
/// ```
///
/// Creating a container opens the store (taking its writer lock), checks it, and replays its
/// log into memory. `ModelContainer(for: Trip.self)` registers every model reachable from
/// `Trip` through relationships. A container is `Sendable`: share it between isolation domains
/// and give each its own ``ModelContext``.
///
/// ## Topics
///
/// ### Creating a container
/// - ``init(for:migrationPlan:configurations:)-(PersistentModel....,_,_)``
/// - ``init(for:migrationPlan:configurations:)-(Schema,_,_)``
///
/// ### Contexts
/// - ``mainContext``
///
/// ### Inspecting
/// - ``schema``
/// - ``configurations``
public final class ModelContainer: Sendable {
    /// The schema of the container's models.
    public let schema: Schema
    /// The configurations the container was created with.
    public let configurations: [ModelConfiguration]
    let store: Store
    private let mainContextBox = MainContextBox()

    /// Opens the store of the given models.
    ///
    /// - Parameters:
    ///   - forTypes: The model types; every model reachable from them is registered too.
    ///   - migrationPlan: The versions the store may have been written with, and how to move
    ///     from one to the next.
    ///   - configurations: Where the store lives; the first configuration is used. Defaults
    ///     to `default.store` in the current directory.
    /// - Throws: ``LogbookError`` when the store is locked by another writer
    ///   (``LogbookError/Code/storeLocked``), damaged (``LogbookError/Code/corruption``, naming
    ///   segment and byte offset) or written with a schema the plan does not know
    ///   (``LogbookError/Code/schemaMismatch``); ``SchemaError`` when the models do not form a
    ///   valid schema.
    public convenience init(
        for forTypes: any PersistentModel.Type...,
        migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: ModelConfiguration...
    ) throws {
        try self.init(for: Schema(forTypes), migrationPlan: migrationPlan, configurations: configurations)
    }

    /// Opens the store of a schema.
    ///
    /// - Parameters:
    ///   - schema: The models' schema.
    ///   - migrationPlan: The versions the store may have been written with.
    ///   - configurations: Where the store lives; the first configuration is used.
    /// - Throws: See ``init(for:migrationPlan:configurations:)-(PersistentModel....,_,_)``.
    public init(
        for schema: Schema,
        migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: [ModelConfiguration] = []
    ) throws {
        let configuration = configurations.first ?? ModelConfiguration()
        self.configurations = [configuration]
        guard let migrationPlan else {
            self.schema = schema
            self.store = try Store(schema: schema, history: [], configuration: configuration)
            if let latest = store.replayed.latest, latest.fingerprint != store.fingerprint {
                throw LogbookError(
                    .schemaMismatch,
                    "the store was written with schema \(latest.version) (fingerprint \(latest.fingerprint.prefix(12))), which differs from the models' schema \(schema.version) (fingerprint \(store.fingerprint.prefix(12))); declare both as VersionedSchema types in a SchemaMigrationPlan",
                    path: store.location
                )
            }
            return
        }
        let plan = try MigrationPlanChain(migrationPlan, current: schema)
        self.schema = plan.current
        self.store = try Store(schema: plan.current, history: plan.history, configuration: configuration, replay: false)
        try Migrator(plan: plan, store: store).migrate()
    }

    /// A container over a store made elsewhere: the stores of migration stages.
    init(store: Store) {
        self.schema = store.schema
        self.configurations = []
        self.store = store
    }

    /// The context bound to the main actor, created on first use, with autosave enabled.
    @MainActor
    public var mainContext: ModelContext {
        if let context = mainContextBox.context { return context }
        let context = ModelContext(self)
        context.autosaveEnabled = true
        context.isMainContext = true
        mainContextBox.context = context
        return context
    }
}

/// Holds the main context; only touched on the main actor.
private final class MainContextBox: @unchecked Sendable {
    @MainActor var context: ModelContext?

    nonisolated init() {}
}
