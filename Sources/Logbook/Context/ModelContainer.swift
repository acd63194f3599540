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
/// Creating a container opens the store (taking its writer lock, unless it is read-only), checks it, and replays its
/// log into memory. `ModelContainer(for: Trip.self)` registers every model reachable from
/// `Trip` through relationships. A container is `Sendable`: share it between isolation domains
/// and give each its own ``ModelContext``.
///
/// ## Several containers of one store
///
/// An app may make more than one container for the same store directory in one process (a
/// container per feature, for background work, in tests). They share one open store: its
/// log, its writer lock and its objects in memory. The first opens it (and migrates it); the
/// others find it open. A context of any of them sees what the contexts of the others saved
/// at its next fetch, as two contexts of one container do. The store is closed, and its lock
/// released, when the last of its containers (and their contexts) goes, so that it can be
/// opened again at once.
///
/// ```swift
/// let trips = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: storeURL))
/// let sync = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: storeURL))
/// ```
///
/// The containers of one store must use the same schema and the same migration plan (or all
/// none): one log is replayed one way. The store keeps the settings of the container that
/// opened it (``ModelConfiguration/durability``, ``ModelConfiguration/segmentSize``,
/// ``ModelConfiguration/logger``); ``ModelConfiguration/allowsSave`` is each container's own.
/// Stores in memory are never shared: each such container has its own. Another process that
/// opens the store while a container of this one has it open is refused
/// (``LogbookError/Code/storeLocked``).
///
/// A container whose configuration does not allow saving (or reads as of a token) is the
/// exception: it is a read-only follower, which takes no lock, shares nothing and keeps its own
/// objects, and opens in any process while another writes (see
/// ``ModelConfiguration/allowsSave``).
///
/// ## Several stores in one container
///
/// A container given several configurations keeps each entity in exactly one of their stores,
/// as SwiftData does: a configuration with a ``ModelConfiguration/schema`` holds the entities
/// of that schema, and the one configuration without a schema holds every entity the others do
/// not name. An app can keep a read-only catalogue it ships beside the user's own store, or a
/// cache in memory apart from user data:
///
/// ```swift
/// let schema = Schema([Trip.self, Country.self, MapTile.self])
/// let user = ModelConfiguration("User", url: userStoreURL)            // Trip and what it reaches
/// let catalogue = ModelConfiguration(
///     "Catalogue", schema: Schema([Country.self]), url: bundledCatalogueURL, allowsSave: false)
/// let cache = ModelConfiguration("Cache", schema: Schema([MapTile.self]), isStoredInMemoryOnly: true)
/// let container = try ModelContainer(for: schema, configurations: [user, catalogue, cache])
///
/// let context = ModelContext(container)
/// context.insert(Trip(name: "Lisbon", destination: "Lisbon", startDate: start, endDate: end))
/// let countries = try context.fetch(FetchDescriptor<Country>())   // from the catalogue
/// try context.save()                                              // writes the user's store
/// ```
///
/// Each store is a store of its own, with its own log, lock, schema record and options
/// (``ModelConfiguration/allowsSave``, ``ModelConfiguration/isStoredInMemoryOnly``,
/// ``ModelConfiguration/durability``, …); opened alone later with its part of the models, it
/// holds exactly its entities. A migration plan applies to each store separately: its recorded
/// schema is compared with its part of each version (versions that do not change its entities
/// count as one), so that a change to the user's models does not touch the catalogue. A
/// plan with a custom stage is refused (``LogbookError/Code/unsupported``): its closures need a
/// context of every model at once, which no one store has.
///
/// A context of the container fetches, inserts, deletes and saves across the stores: each
/// fetch reads the store of its entity, and ``ModelContext/save()`` writes each store's
/// changes as that store's own batch, in the order of the configurations. **A save across
/// stores is atomic per store, not as a whole**: when a store's batch fails, that store is left
/// as it was and its changes stay pending, the stores written before it keep their saves, and
/// the stores after it are not written and keep their changes pending; the error names each.
/// A store whose configuration does not allow saving refuses a save that changes it before any
/// store is written (``LogbookError/Code/saveNotAllowed``, naming the configuration).
///
/// A relationship cannot lead from one store to another, and the configurations must fit
/// together; creating the container throws ``LogbookError/Code/invalidConfiguration``, naming
/// the entities and configurations, when an entity is named by two configurations, when two
/// configurations share a name or a store directory, when two have no schema, when an entity
/// has no store or a configuration no entity, or when a relationship crosses stores.
///
/// What else works across the stores:
/// - ``PersistentIdentifier``s never clash: each entity lives in one store, and an identifier
///   names its entity, so `Trip#1` and `Country#1` are told apart.
///   ``ModelContext/model(for:)`` asks the store of the identifier's entity.
/// - ``deleteAllData()``, ``erase()`` and ``checkpoint()`` act on every store (a checkpoint
///   on every store that allows saving); ``ModelActor`` and ``mainContext`` work as with one
///   store; ``ModelContext/willSave`` and ``ModelContext/didSave`` are posted once per store
///   written.
/// - History is per store: each store numbers its own transactions, so a token belongs to one.
///   ``ModelContext/fetchHistory(_:)`` and the feed of ``changes(after:)`` throw
///   ``LogbookError/Code/unsupported`` on a container of several stores; read them through
///   ``container(forConfigurationNamed:)``, whose transactions carry their store in
///   ``DefaultHistoryTransaction/storeIdentifier``. A configuration opened as of a token
///   (``ModelConfiguration/asOf``) is refused the same way.
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
/// ### Deleting data
/// - ``deleteAllData()``
/// - ``erase()``
///
/// ### Inspecting
/// - ``schema``
/// - ``configurations``
/// - ``container(forConfigurationNamed:)``
/// - ``recoveryReport``
///
/// ### Checkpoints
/// - ``checkpoint()``
public final class ModelContainer: Sendable {
    /// The schema of the container's models.
    public let schema: Schema
    /// The configurations the container was created with.
    public let configurations: [ModelConfiguration]
    /// The store of the container, or of its first configuration when it has several (see
    /// ``parts``).
    let store: Store
    /// The containers of each store, in the order of the configurations, when the container
    /// has several configurations; empty when it has one store.
    let parts: [ModelContainer]
    /// The index in ``parts`` of the store of each entity; empty when the container has one
    /// store.
    let partIndex: [String: Int]
    /// Whether this container's contexts may save: its configuration's, since a store opened
    /// by several containers is shared whatever each allows.
    let allowsSave: Bool
    /// The container's use of the shared store in ``StoreRegistry``, released once neither the
    /// container nor its main context's twin (see ``mainContext``) holds it; `nil` for a store
    /// in memory or a migration stage's.
    private let registration: StoreRegistration?
    private let mainContextBox = MainContextBox()
    /// The container whose main context this twin serves, for the twin's own ``mainContext``.
    private weak let twinned: ModelContainer?

    /// Opens the store of the given models.
    ///
    /// - Parameters:
    ///   - forTypes: The model types; every model reachable from them is registered too.
    ///   - migrationPlan: The versions the store may have been written with, and how to move
    ///     from one to the next. Without one, a store written with other models is migrated
    ///     automatically when every change is lightweight (see <doc:Migrations>).
    ///   - configurations: Where the store lives, or, with several configurations, where
    ///     each of the stores lives and which entities it holds (see "Several stores in one
    ///     container" above). Defaults to `default.store` in the current directory.
    /// - Throws: ``LogbookError`` when there is no store at the URL of a read-only
    ///   configuration (``LogbookError/Code/notAStore``), or its schema is not the models'
    ///   (``LogbookError/Code/schemaMismatch``: a read-only container cannot migrate); when the
    ///   store is locked by another process
    ///   (``LogbookError/Code/storeLocked``), damaged (``LogbookError/Code/corruption``, naming
    ///   segment and byte offset; a damaged last batch or a log that ends before the point the
    ///   store recorded as durable also names the sequence numbers at risk, unless the
    ///   configuration's ``ModelConfiguration/damagedTailPolicy`` is
    ///   ``DamagedTailPolicy/quarantine``), written with a schema the plan does not know, or
    ///   without a plan with models that differ by a change that needs one
    ///   (``LogbookError/Code/schemaMismatch``, listing the changes), or open in this process with another schema or
    ///   migration plan (``LogbookError/Code/schemaMismatch``, naming both); ``SchemaError``
    ///   when the models do not form a valid schema (an ambiguous inverse, say: the problem
    ///   ``Schema/init(_:version:)-([PersistentModel.],_)`` found and kept). With several
    ///   configurations, ``LogbookError/Code/invalidConfiguration`` when they do not fit
    ///   together and ``LogbookError/Code/unsupported`` for a plan with a custom stage or a
    ///   configuration opened as of a token; then no store is opened. A store that fails to
    ///   open throws as above, and the stores opened before it are closed again.
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
    ///   - configurations: Where the store lives, or where each of several stores lives.
    /// - Throws: See ``init(for:migrationPlan:configurations:)-(PersistentModel....,_,_)``.
    public init(
        for schema: Schema,
        migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: [ModelConfiguration] = []
    ) throws {
        try schema.checkProblems()
        let plan = try migrationPlan.map { try MigrationPlanChain($0, current: schema) }
        let schema = plan?.current ?? schema
        self.schema = schema
        guard configurations.count > 1 else {
            let configuration = configurations.first ?? ModelConfiguration()
            let opened = try Self.openStore(schema, plan, configuration)
            self.configurations = [configuration]
            self.store = opened.store
            self.allowsSave = opened.allowsSave
            self.registration = opened.registration.map(StoreRegistration.init)
            self.parts = []
            self.partIndex = [:]
            self.twinned = nil
            return
        }
        let parts = try Self.openParts(schema, plan, configurations)
        self.configurations = configurations
        self.store = parts[0].store
        self.allowsSave = parts.allSatisfy(\.allowsSave)
        self.registration = nil
        var partIndex: [String: Int] = [:]
        for (index, part) in parts.enumerated() {
            for entity in part.schema.entities { partIndex[entity.name] = index }
        }
        self.parts = parts
        self.partIndex = partIndex
        self.twinned = nil
    }

    /// The container of one store of a container of several configurations.
    private init(part schema: Schema, plan: MigrationPlanChain?, configuration: ModelConfiguration) throws {
        let opened = try Self.openStore(schema, plan, configuration)
        self.schema = schema
        self.configurations = [configuration]
        self.store = opened.store
        self.allowsSave = opened.allowsSave
        self.registration = opened.registration.map(StoreRegistration.init)
        self.parts = []
        self.partIndex = [:]
        self.twinned = nil
    }

    /// Splits the schema between the configurations, checks the split and the plan for each
    /// store, then opens the stores in the order of the configurations. A store that fails to
    /// open closes the ones opened before it, as their containers go.
    private static func openParts(
        _ schema: Schema,
        _ plan: MigrationPlanChain?,
        _ configurations: [ModelConfiguration]
    ) throws -> [ModelContainer] {
        let partition = try StorePartition(schema: schema, configurations: configurations)
        let known = Set(schema.entities.map(\.name))
        // Every plan restricted before any store opens: a plan this container cannot apply
        // opens nothing.
        let plans = try partition.parts.map { part in
            try plan?.restricted(to: part.entityNames, keepsUnknown: part.configuration.schema == nil, known: known)
        }
        var parts: [ModelContainer] = []
        for (part, plan) in zip(partition.parts, plans) {
            parts.append(
                try ModelContainer(part: plan?.current ?? part.schema, plan: plan, configuration: part.configuration)
            )
        }
        return parts
    }

    /// Opens the store of one configuration: shared with the other containers of this process
    /// that use it, unless it is in memory or read-only.
    private static func openStore(
        _ schema: Schema,
        _ plan: MigrationPlanChain?,
        _ configuration: ModelConfiguration
    ) throws -> (store: Store, allowsSave: Bool, registration: String?) {
        let allowsSave = configuration.allowsSave && configuration.asOf == nil
        if configuration.isStoredInMemoryOnly, let token = configuration.asOf {
            throw LogbookError(
                .invalidArgument,
                "an in-memory store keeps no history, so it cannot be opened as of the token \(token): open the container with ModelConfiguration(url:)"
            )
        }
        if configuration.externalLog != nil, let token = configuration.asOf {
            throw LogbookError(
                .invalidArgument,
                "a store kept on a server cannot be opened as of the token \(token) yet: copy it to a directory and open that as of the token"
            )
        }
        // A read-only container of a store kept on a server reads the server's rows into its
        // own copy, as a writer does; it only refuses saves.
        if !configuration.isStoredInMemoryOnly && !allowsSave && configuration.externalLog == nil {
            // A read-only store is its container's own: it shares nothing with a writer's.
            return (try Self.openReadOnly(schema, plan, configuration), false, nil)
        }
        guard !configuration.isStoredInMemoryOnly else {
            return (try Self.open(schema, plan, configuration), allowsSave, nil)
        }
        let key = StoreRegistry.key(for: configuration.url)
        let terms = StoreRegistry.Terms(
            version: schema.version,
            fingerprint: schema.fingerprint.hexString,
            history: plan?.history.map(\.fingerprint.hexString) ?? [],
            plan: plan?.planName
        )
        // The last step that can fail: once the store is counted as this container's, only
        // the container's release ends that use.
        let store = try StoreRegistry.shared.store(at: key, terms: terms) {
            try Self.open(schema, plan, configuration)
        }
        return (store, allowsSave, key)
    }

    /// Opens, checks and replays or migrates the store of a configuration.
    private static func open(
        _ schema: Schema,
        _ plan: MigrationPlanChain?,
        _ configuration: ModelConfiguration
    ) throws -> Store {
        let store = try openMigrating(schema, plan, configuration)
        store.startCheckpointAfterOpen()
        return store
    }

    /// ``open(_:_:_:)`` but for the checkpoint an open may start.
    private static func openMigrating(
        _ schema: Schema,
        _ plan: MigrationPlanChain?,
        _ configuration: ModelConfiguration
    ) throws -> Store {
        do {
            return try openOnce(schema, plan, configuration)
        } catch let needed as MigrationLockNeeded {
            // A store kept in a database server that needs migrating: migrated by one container
            // at a time, across hosts. Opened again under the lock, it may find that another
            // container migrated it meanwhile.
            guard let external = configuration.externalLog else {
                throw LogbookError(.migrationFailed, "a store without a server asked for a migration lock")
            }
            var locked = configuration
            locked.holdsMigrationLock = true
            do {
                return try external.withMigrationLock { try openOnce(schema, plan, locked) }
            } catch let error as LogbookError where error.code == .storeLocked {
                throw LogbookError(
                    .storeLocked,
                    "the store needs migrating from version \(needed.from) to the models' version \(needed.to), but \(error.message)",
                    path: error.path,
                    cause: error
                )
            }
        }
    }

    /// Opens, checks and replays or migrates the store of a configuration, once.
    private static func openOnce(
        _ schema: Schema,
        _ plan: MigrationPlanChain?,
        _ configuration: ModelConfiguration
    ) throws -> Store {
        guard let plan else { return try openWithoutPlan(schema, configuration) }
        let store = try Store(schema: plan.current, history: plan.history, configuration: configuration, replay: false)
        do {
            try Migrator(plan: plan, store: store, lockNeeded: configuration.needsMigrationLock).migrate()
        } catch {
            // Released now, not when the threads that ran the stages let go of the store.
            store.close()
            throw error
        }
        return store
    }

    /// A container over a store made elsewhere: the stores of migration stages.
    init(store: Store) {
        self.schema = store.schema
        self.configurations = []
        self.store = store
        self.allowsSave = true
        self.registration = nil
        self.parts = []
        self.partIndex = [:]
        self.twinned = nil
    }

    /// A container of the same stores as `other`, sharing its use of them, for `other`'s main
    /// context to hold: the main context then keeps the stores open without keeping `other`
    /// alive, so a container and its main context go together once the app lets go of both.
    private init(twinOf other: ModelContainer) {
        self.schema = other.schema
        self.configurations = other.configurations
        self.store = other.store
        self.allowsSave = other.allowsSave
        self.registration = other.registration
        self.parts = other.parts
        self.partIndex = other.partIndex
        self.twinned = other
    }

    /// What opening the store recovered: the bytes a torn write (or, when the configuration
    /// allows it, damage) left at the end of the log, moved into the store's `quarantine`
    /// directory. Empty when the log was whole, and for a store in memory.
    ///
    /// For a container of several configurations, the report of the first store (in the order
    /// of the configurations) that recovered something; each store's own is that of
    /// ``container(forConfigurationNamed:)``.
    ///
    /// ```swift
    /// let container = try ModelContainer(for: Trip.self, configurations: configuration)
    /// if let tail = container.recoveryReport.quarantinedTail {
    ///     print("recovered after a crash: \(tail)")
    /// }
    /// ```
    public var recoveryReport: RecoveryReport {
        if !parts.isEmpty { return parts.lazy.map(\.recoveryReport).first { !$0.isEmpty } ?? RecoveryReport() }
        return store.log?.recovery.report ?? RecoveryReport()
    }

    /// The context bound to the main actor, created on first use, with autosave enabled.
    ///
    /// The container keeps its main context, and the context keeps the container's stores
    /// open. Its ``ModelContext/container`` is a container of the same stores and
    /// configurations that shares this one's use of them, not always this very object: so that
    /// a container whose main context was used is freed, and its stores closed, once the app
    /// holds neither.
    @MainActor
    public var mainContext: ModelContext {
        if let twinned { return twinned.mainContext }
        if let context = mainContextBox.context { return context }
        let context = ModelContext(ModelContainer(twinOf: self))
        context.autosaveEnabled = true
        context.isMainContext = true
        mainContextBox.context = context
        return context
    }
}

/// A container's use of a store of ``StoreRegistry``: the last container or main context to
/// let go of it releases it.
private final class StoreRegistration: Sendable {
    let key: String

    init(_ key: String) {
        self.key = key
    }

    deinit {
        StoreRegistry.shared.release(key)
    }
}

/// Holds the main context; only touched on the main actor.
private final class MainContextBox: @unchecked Sendable {
    @MainActor var context: ModelContext?

    nonisolated init() {}
}
