import Foundation

/// The object through which an app inserts, fetches, changes, deletes and saves models.
///
/// ```swift
/// let context = ModelContext(container)
/// let trip = Trip(name: "Lisbon in spring", destination: "Lisbon", startDate: start, endDate: end)
/// context.insert(trip)
/// try context.save()
///
/// let upcoming = try context.fetch(FetchDescriptor<Trip>(
///     predicate: #Predicate { $0.destination == "Lisbon" },
///     sortBy: [SortDescriptor(\.startDate)]))
/// ```
///
/// A context keeps one object per persisted model: fetching the same model twice gives the same
/// object. It tracks what changed since the last save; ``save()`` turns the changes into one
/// batch of events, appended to the store's log atomically and, by default, durably. Two
/// contexts of one container see each other's saved changes at their next fetch.
///
/// A context of a container of several configurations works across their stores: each fetch
/// reads the store of its model type, each model is saved to the store of its entity, and a
/// save writes one batch per store (see <doc:ModelContainer#Several-stores-in-one-container>).
///
/// A context is not `Sendable`: use it, and its models, in one isolation domain (the main actor
/// for ``ModelContainer/mainContext``, a task or an actor of yours otherwise, such as a
/// ``ModelActor``, which has a context of its own).
///
/// ## Autosave
///
/// SwiftData saves a context with ``autosaveEnabled`` on UI events. Linux has no such events:
/// here the main context, when ``autosaveEnabled`` (the default for it), saves after its first
/// unsaved change, through a task enqueued on the main actor, so at the end of the main actor's
/// current turn. Other contexts never autosave: they may live outside the main actor. A failed
/// autosave is reported through the configuration's logger and the changes stay pending.
///
/// ## Lifetime of models
///
/// A context holds every model it registered (fetched or saved) until it is released. Related
/// models refer to each other both ways, so when the context is released it empties, of each
/// pair of relationships, the side that could hold models in a cycle (a trip's list of items,
/// not each item's trip), and a save empties every relationship of the models it deleted: the
/// models are then freed once the app lets go of them. Use a stored model only while its context
/// lives, as with SwiftData; one kept longer keeps its attributes and the to-one relationships
/// that were not emptied (an item its trip), but not the others. Models inserted and not saved
/// yet keep all of theirs. A context that registered more than a thousand models has
/// another thread free those that nothing else holds, so that releasing it returns at once:
/// a model class's own `deinit` may run there.
///
/// ## Memory
///
/// A store keeps every object in memory in compact arrays (its *projection*): on SampleTrips
/// (`Trip`, `BucketListItem`, `LivingAccommodation`; short strings and dates), about 145 bytes
/// per object. A model a context makes costs about 155 bytes more. Its observation registrar
/// costs about 125 bytes more, made on the first read of one of its properties inside
/// `withObservationTracking` (or `Observations`): models that are only created and saved, or
/// read outside of any tracking scope, as a server or a batch job reads them, have none.
/// Measured on 700,000 objects with
/// `logbook _measure-trips SCRATCH --store STORE --memory`; strings longer than 15 bytes add
/// their own storage in both places.
///
/// ## Topics
///
/// ### Creating a context
/// - ``init(_:)``
/// - ``container``
///
/// ### Changing models
/// - ``insert(_:)``
/// - ``delete(_:)``
/// - ``delete(model:where:includeSubclasses:)``
/// - ``hasChanges``
/// - ``insertedModelsArray``
/// - ``deletedModelsArray``
/// - ``changedModelsArray``
///
/// ### Saving and discarding
/// - ``save()``
/// - ``author``
/// - ``willSave``
/// - ``didSave``
/// - ``NotificationKey``
/// - ``rollback()``
/// - ``transaction(block:)``
/// - ``autosaveEnabled``
///
/// ### Fetching
/// - ``fetch(_:)``
/// - ``fetchCount(_:)``
/// - ``fetchIdentifiers(_:)``
/// - ``fetch(_:batchSize:)``
/// - ``enumerate(_:batchSize:allowEscapingMutations:block:)``
/// - ``model(for:)``
/// - ``registeredModel(for:)``
///
/// ### Reading history
/// - ``fetchHistory(_:)``
/// - ``deleteHistory(_:)``
public final class ModelContext {
    /// The container whose store the context reads and writes.
    public let container: ModelContainer

    // The context's own state is `@exclusivity(unchecked)`: it is read and changed on every
    // model operation, a dynamic exclusivity check cost more than most of those accesses, and no
    // access to one of these properties is ever open while another to the same property starts
    // (each is a single read, or one mutation that calls out only to models). The test suite
    // ran with the checks on before they were turned off here.

    /// Whether the context saves by itself after changes; see "Autosave" above.
    @exclusivity(unchecked) public var autosaveEnabled = false

    /// Who makes the context's saves: recorded with each save, and read back as the
    /// ``DefaultHistoryTransaction/author`` of its history transaction.
    ///
    /// ```swift
    /// let context = ModelContext(container)
    /// context.author = "importer"
    /// ```
    ///
    /// `nil` (the default) records no author.
    public var author: String? {
        didSet { for part in _storeParts { part.author = author } }
    }

    /// One object per persisted model, by identifier number: the store hands numbers out from
    /// one counter for every entity, so a number names one object. Read it through
    /// ``registered(_:)`` when the entity is not known from the model type already.
    @exclusivity(unchecked) var registry = ModelRegistry()
    /// Models inserted since the last save, in insertion order.
    @exclusivity(unchecked) var inserted = InsertedModels()
    /// Models marked for deletion since the last save.
    @exclusivity(unchecked) var deleted: [ObjectIdentifier: any PersistentModel] = [:]
    /// Persisted models with unsaved changes.
    @exclusivity(unchecked) var dirty: [ObjectIdentifier: any PersistentModel] = [:]
    /// The stored values of the last object made alone (``materialize(_:_:mapping:)``), kept so
    /// that the next one reuses the storage. Taken out while in use, so that a model's
    /// initializer that fetches again (a `@Transient` default) gets storage of its own.
    @exclusivity(unchecked) var scratchValues: [AttributeValue] = []
    /// The targets, with their slots, of the last relationship loaded
    /// (``materializeRelated(_:of:table:relationship:into:)``), kept and taken out like
    /// ``scratchValues``.
    @exclusivity(unchecked) var scratchTargets: [(id: UInt64, slot: Int)] = []
    /// The stored values of those targets, copied out of the store under its lock; kept and
    /// taken out like ``scratchValues``, and `null` throughout between loads.
    @exclusivity(unchecked) var scratchRows: [AttributeValue] = []
    /// The models made for the last relationship loaded, before they become an array of the
    /// target type; kept and taken out like ``scratchValues``.
    @exclusivity(unchecked) var scratchModels: [AnyObject] = []
    /// The models a save inserts, kept empty with its capacity between saves and taken out by
    /// the save: listing a large save's inserts into a new array faulted its pages in anew. The
    /// list of a save of more than ``Store/spareInsertsLimit`` inserts is not kept.
    @exclusivity(unchecked) var scratchInserts: [any PersistentModel] = []
    /// The store generation the registered objects reflect.
    var seenGeneration: UInt64
    /// The mapping of each model type used so far, by the type's identity: a schema has a
    /// handful of entities, and comparing a few words costs less than hashing on every call.
    ///
    /// Each mapping is held unretained here and kept alive by ``mappingOwners`` for as long as
    /// the context: the paths that run for every model a save inserts or a relationship change
    /// reaches read it through ``withMapping(of:_:)`` without retaining and releasing it, which
    /// returning it from ``mapping(of:)`` did every time.
    @exclusivity(unchecked) private var mappings: [(type: ObjectIdentifier, mapping: Unmanaged<EntityMapping>)] = []
    /// The mappings of ``mappings``, owned.
    private var mappingOwners: [EntityMapping] = []
    @exclusivity(unchecked) private var autosaveScheduled = false
    /// Whether this is the container's main context, the only one that autosaves.
    @exclusivity(unchecked) var isMainContext = false
    /// The link every model of the context holds to reach it.
    let link = ContextLink()
    /// The models a save merged into another object of this context, made by the first such
    /// save (see ``MergedModels``).
    @exclusivity(unchecked) var merged: MergedModels?
    /// The store's ``Store/fillsMissingValues``, read once: asking the store for each model made
    /// retained and released it.
    let fillsMissingValues: Bool
    /// The contexts of each store of a container of several configurations, in the order of
    /// its configurations: this context hands every operation on a model to the context of the
    /// model's store (see <doc:ModelContainer#Several-stores-in-one-container>). Empty for a
    /// container of one store.
    ///
    /// Read by ``fetch(_:)``, which is compiled into its callers.
    @usableFromInline let _storeParts: [ModelContext]
    /// The context that made this one for one of its stores, which models report as theirs;
    /// `nil` for a context an app made.
    weak var owner: ModelContext?
    /// Whether this is the context of one store of a container of several configurations.
    private(set) var isStorePart = false

    /// Creates a context for a container.
    public init(_ container: ModelContainer) {
        self.container = container
        self.seenGeneration = container.store.generation
        self.fillsMissingValues = container.store.fillsMissingValues
        self._storeParts = container.parts.map { ModelContext($0) }
        link.observer = self
        for part in _storeParts {
            part.owner = self
            part.isStorePart = true
        }
    }

    var store: Store { container.store }

    /// Lets go of the stored models' relationships.
    ///
    /// Related models hold each other strongly, both ways (a trip its items, each item its
    /// trip), so a graph of models would outlive its context as a cycle. Models are only valid
    /// while their context lives, as in SwiftData: emptying, of each pair of relationships, the
    /// side that could close a cycle (a trip's items, not an item's trip) here frees every
    /// stored model that nothing outside holds, and leaves the ones the app still holds with
    /// their attributes. Models inserted and not saved keep their relationships: they are the
    /// app's only copy of them.
    deinit {
        // Before anything else: the link does not retain or weakly refer to the context (see
        // ``ContextLink``), and the models that outlive it must find no context there.
        link.observer = nil
        merged?.link.observer = nil
        // Freeing the models took a tenth of the time of inserting SampleTrips-10k: another
        // thread frees those of a large context. The relationships that could hold models in
        // a cycle are emptied here first, so the models are only released there, never read or
        // changed. They go over a group at a time, so that the freeing starts while the later
        // groups' relationships are still emptied here: a model's relationships are changed
        // only here, and the other thread only releases what this one handed over.
        guard registry.count >= Self.modelsFreedElsewhere else {
            registry.forEachModel { releaseRelationships(of: $0, onlyCycles: true) }
            return
        }
        registry.drain(pagesPerGroup: Self.pagesFreedTogether) {
            releaseRelationships(of: $0, onlyCycles: true)
        } handOver: { group in
            let leftovers = Leftovers()
            leftovers.keep(group)
            leftovers.dropInBackground(trimmingMemory: false, on: Leftovers.serialQueue)
        }
    }

    /// The number of registered models from which a context that goes away has another
    /// thread free them.
    static let modelsFreedElsewhere = 1_024

    /// The registry's pages handed to the freeing thread at a time: 16,384 identifiers.
    static let pagesFreedTogether = 256

    /// Empties a model's relationships, without recording a change.
    ///
    /// - Parameter onlyCycles: Whether to empty only those that could hold the model in a
    ///   cycle once every model of the context is let go of together
    ///   (``EntityMapping/relationshipsEmptiedOnRelease``): for an item and its trip, the trip's
    ///   list of items but not the item's trip. Emptying every relationship of every model took
    ///   two thirds of a large context's going away.
    func releaseRelationships(of model: any PersistentModel, onlyCycles: Bool = false) {
        withMapping(of: model) { mapping in
            let properties = onlyCycles ? mapping.relationshipsEmptiedOnRelease : mapping.relationshipProperties
            if properties.isEmpty { return }
            // A relationship never loaded holds nothing: most models a fetch made are skipped here.
            let faulted = model.inPlace { $0.faultedProperties }
            for property in properties where !faulted.contains(property) {
                mapping.clearRelated(model, property)
            }
        }
    }

    // MARK: - Changing models

    /// Starts tracking a new model; the next save writes it, with every model it refers to
    /// that is not in the store yet.
    ///
    /// Inserting a model that is already registered or inserted does nothing; inserting a model
    /// marked for deletion cancels the deletion.
    public func insert<T: PersistentModel>(_ model: T) {
        if !_storeParts.isEmpty { return storePart(for: T.self).insert(model) }
        if !deleted.isEmpty, deleted.removeValue(forKey: ObjectIdentifier(model)) != nil { return }
        // Two accesses to the model's storage, each through its `_modify` in this code, which
        // is not specialised for `T`.
        let (isStored, position) = model.inPlace { ($0.storedNumber != nil, $0.insertionIndex) }
        if isStored || inserted.holds(model, at: position) { return }
        let newPosition = inserted.appendLeavingPosition(model)
        // Relationships set while no context observed the model (by its initializer, or before
        // it was inserted), or while another context did, were not seen here: keep their
        // inverses in step now, and insert the models they reach. Most models have none, and
        // skip looking.
        let mayRelateUnobserved = model.inPlace { storage -> Bool in
            let mayRelateUnobserved = storage.mayRelateUnobserved || storage.link != nil
            storage.insertionIndex = newPosition
            storage.link = link
            storage.mayRelateUnobserved = false
            return mayRelateUnobserved
        }
        scheduleAutosave()
        // The type's mapping is made here, not in the save, which reads it with the store locked.
        // The model's own class, which may be a subclass of `T`.
        if knownMapping(ObjectIdentifier(type(of: model))) == nil { _ = mapping(of: model) }
        guard mayRelateUnobserved else { return }
        withMapping(of: model) { mapping in
            for property in mapping.relationshipProperties {
                let related = mapping.related(model, property)
                if !related.isEmpty { self.model(model, didSetRelationship: property, from: [], to: related) }
            }
        }
    }

    /// Marks a model for deletion at the next save, when its delete rules are applied.
    ///
    /// Deleting a model inserted since the last save forgets it. Deleting a model that a save
    /// merged into another object of the context (an upsert) deletes that object.
    public func delete<T: PersistentModel>(_ model: T) {
        if !_storeParts.isEmpty { return storePart(for: T.self).delete(model) }
        if inserted.remove(model) {
            letGo(ofUnsaved: model)
            return
        }
        guard model.storedIdentifier != nil else { return }
        let model = standIn(for: model)
        deleted[ObjectIdentifier(model)] = model
        scheduleAutosave()
    }

    /// Marks every model of a type that matches a predicate for deletion, with the models of
    /// its subclasses unless told otherwise.
    ///
    /// The models are deleted at the next save, with their delete rules, as ``delete(_:)``
    /// deletes one.
    ///
    /// ```swift
    /// // Every trip, business and personal trips included.
    /// try context.delete(model: Trip.self)
    /// // Only the trips that are neither.
    /// try context.delete(model: Trip.self, includeSubclasses: false)
    /// // Business trips with a small per diem.
    /// try context.delete(model: BusinessTrip.self, where: #Predicate { $0.perdiem < 50 })
    /// ```
    ///
    /// - Parameters:
    ///   - model: The model type.
    ///   - predicate: Which models to delete; `nil` deletes every model of the type.
    ///   - includeSubclasses: Whether models of the type's subclasses (model inheritance) are
    ///     deleted too when they match; `true` by default, as in SwiftData.
    /// - Throws: An error evaluating the predicate.
    public func delete<T: PersistentModel>(
        model: T.Type,
        where predicate: Predicate<T>? = nil,
        includeSubclasses: Bool = true
    ) throws {
        for match in try fetch(FetchDescriptor<T>(predicate: predicate))
        where includeSubclasses || Swift.type(of: match) == T.self {
            delete(match)
        }
    }

    /// Whether the context has unsaved inserts, deletes or changes.
    public var hasChanges: Bool {
        if !_storeParts.isEmpty { return _storeParts.contains { $0.hasChanges } }
        return !inserted.isEmpty || !deleted.isEmpty || dirty.values.contains { $0.hasChanges }
    }

    /// Whether anything is inserted, marked for deletion or possibly changed: cheaper than
    /// ``hasChanges``, and never `false` when it is `true`.
    var hasPendingChanges: Bool {
        if !_storeParts.isEmpty { return _storeParts.contains { $0.hasPendingChanges } }
        return !inserted.isEmpty || !deleted.isEmpty || !dirty.isEmpty
    }

    /// The models inserted since the last save, in insertion order.
    public var insertedModelsArray: [any PersistentModel] {
        if !_storeParts.isEmpty { return _storeParts.flatMap(\.insertedModelsArray) }
        return inserted.models
    }

    /// The models marked for deletion since the last save.
    public var deletedModelsArray: [any PersistentModel] {
        if !_storeParts.isEmpty { return _storeParts.flatMap(\.deletedModelsArray) }
        return Array(deleted.values)
    }

    /// The persisted models with unsaved changes.
    public var changedModelsArray: [any PersistentModel] {
        if !_storeParts.isEmpty { return _storeParts.flatMap(\.changedModelsArray) }
        return dirty.values.filter { $0.hasChanges }
    }

    // MARK: - Discarding

    /// Discards every unsaved insert, delete and change.
    ///
    /// Changed models get their saved values back; inserted models are forgotten.
    public func rollback() {
        for part in _storeParts { part.rollback() }
        for model in inserted.models {
            model._$storage.link = nil
            model._$storage.mayRelateUnobserved = true
        }
        inserted.removeAll()
        deleted.removeAll()
        let changed = Array(dirty.values)
        dirty.removeAll()
        for model in changed {
            reload(model)
        }
    }

    /// Runs `block` and saves; when `block` or the save throws, rolls back and rethrows.
    ///
    /// - Throws: What `block` or ``save()`` throws.
    public func transaction(block: () throws -> Void) throws {
        do {
            try block()
            try save()
        } catch {
            rollback()
            throw error
        }
    }

    // MARK: - Internals

    func mapping<T: PersistentModel>(for type: T.Type) -> EntityMapping {
        let key = ObjectIdentifier(type)
        if let known = knownMapping(key) { return known.takeUnretainedValue() }
        let mapping = store.read { EntityMapping(type, projection: $0.projection) }
        mappingOwners.append(mapping)
        mappings.append((key, Unmanaged.passUnretained(mapping)))
        return mapping
    }

    /// The mapping made already for the model type `key` identifies, if any, unretained: the
    /// context owns it (``mappingOwners``).
    @inline(__always)
    private func knownMapping(_ key: ObjectIdentifier) -> Unmanaged<EntityMapping>? {
        for known in mappings where known.type == key { return known.mapping }
        return nil
    }

    /// Calls `body` with the mapping of `model`'s type, which it must not keep: the mapping is
    /// not retained for it (see ``mappings``).
    @inline(__always)
    func withMapping<Result>(
        of model: any PersistentModel,
        _ body: (EntityMapping) throws -> Result
    ) rethrows -> Result {
        try withMapping(ObjectIdentifier(type(of: model)), orMaking: { mapping(of: model) }, body)
    }

    /// Calls `body` with the mapping of `type`, which it must not keep, as
    /// ``withMapping(of:_:)`` does.
    @inline(__always)
    func withMapping<T: PersistentModel, Result>(
        for type: T.Type,
        _ body: (EntityMapping) throws -> Result
    ) rethrows -> Result {
        try withMapping(ObjectIdentifier(type), orMaking: { mapping(for: type) }, body)
    }

    /// The known mapping of the model type `key` identifies, unretained, or the one `make`
    /// makes the first time.
    @inline(__always)
    private func withMapping<Result>(
        _ key: ObjectIdentifier,
        orMaking make: () -> EntityMapping,
        _ body: (EntityMapping) throws -> Result
    ) rethrows -> Result {
        if let known = knownMapping(key) { return try known._withUnsafeGuaranteedRef(body) }
        return try body(make())
    }

    /// The registered object of a permanent identifier, if it is of the identifier's entity.
    func registered(_ identifier: PersistentIdentifier) -> (any PersistentModel)? {
        guard !identifier.isTemporary, let model = registry[identifier.number],
            mapping(of: model).entityName == identifier.entityName
        else { return nil }
        return model
    }

    func mapping(of model: any PersistentModel) -> EntityMapping {
        // The model's type is known to the context almost always: find it by the type object,
        // without opening the existential into a generic call.
        if let known = knownMapping(ObjectIdentifier(type(of: model))) { return known.takeUnretainedValue() }
        func open<T: PersistentModel>(_ model: T) -> EntityMapping { mapping(for: T.self) }
        return open(model)
    }

    /// Inserts a model reached through a relationship, unless the context already knows it.
    func insertIfNew(_ model: any PersistentModel) {
        // A stored model is left alone (reaching it does not cancel its deletion); `insert`
        // checks whether it is inserted already.
        if model.storedIdentifier != nil { return }
        func open<T: PersistentModel>(_ model: T) { insert(model) }
        open(model)
    }

    func scheduleAutosave() {
        // A store's context leaves autosaving to the context of the whole container.
        if isStorePart {
            owner?.scheduleAutosave()
            return
        }
        guard autosaveEnabled, isMainContext, !autosaveScheduled else { return }
        autosaveScheduled = true
        let unchecked = UncheckedContext(context: self)
        Task { @MainActor in
            let context = unchecked.context
            context.autosaveScheduled = false
            guard context.hasChanges else { return }
            do {
                try context.save()
            } catch {
                context.store.logger.error("autosave failed; the changes stay pending", metadata: ["error": "\(error)"])
            }
        }
    }
}

/// Carries the main context into the autosave task. Only the main context autosaves by
/// default, and it lives on the main actor, where the task runs.
private struct UncheckedContext: @unchecked Sendable {
    let context: ModelContext
}
