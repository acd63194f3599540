/// Not API: the bookkeeping `@Model` adds to every model object. Only the code the macro
/// generates uses it; it may change in any release.
///
/// ## How a model is put together
///
/// `@Model` on `final class Trip` turns each persisted property into a computed property over a
/// typed backing field, and adds these members (and an empty `init()` when the class declares
/// no initializer and every persisted property has a default):
///
/// ```swift
/// var name: String {                                  // the user's property, now computed
///     @storageRestrictions(initializes: _name, accesses: _$storage)
///     init(initialValue) { _$initialValue(...); _name = initialValue }  // the user's init assigns through this
///     get { access; fault check; return _name }
///     set { withMutation { _name = newValue }; _$ModelStorage._$didSet(self, 0, from: old, to: newValue) }
/// }
/// private var _name: String                           // the value, typed: reads cost a field load
/// private static func _$property_name() -> _$PropertyBinding<Trip>  // the property's schema and accessors
///
/// @exclusivity(unchecked)                                  // made on the first observed read:
/// public var _$observationRegistrar: _$ModelObservationRegistrar  // see that type
/// @exclusivity(unchecked)                                  // see "What the context layer calls"
/// public var _$storage: _$ModelStorage                     // this struct
/// public static let _$binding: _$ModelBinding<Trip>        // every property's binding, in order
/// public init(_$storage:values:) throws                    // materialises without the user's init
/// public static func _$array(_:) -> [Trip]                 // an array of the type, for faults
/// public var _$storedNumber: UInt64?                       // the stored identifier's number
/// ```
///
/// Values live in the object's own typed fields, not here: reading a property costs what reading
/// a stored property costs, plus the observation hook. This struct holds what the persistence
/// layer needs beside the values, inline in the object so that a model costs one allocation.
///
/// A property's *index* is its position among the persisted properties in declaration order.
/// The same index names the property in ``_$ModelBinding/properties``, in the bit sets below,
/// in the `values` passed to `init(_$storage:values:)`, and in the calls the generated
/// accessors make.
///
/// ## What the context layer calls
///
/// All of it is `internal` to the Logbook module.
///
/// The model's `_$storage` is declared `@exclusivity(unchecked)`: the context reads it on every
/// operation (is the model stored, inserted, which relationships are faults), and a dynamic
/// exclusivity check on each read cost more than the read. Nothing in Logbook accesses it while
/// another access to it is open: every access is a single read or a single `inout` step
/// (`inPlace`) that does not reach the same model's storage again.
///
/// - Creating storage for a model it materialises: `_$ModelStorage(number:link:faulted:)`.
/// - Identity: ``identifierNumber`` and ``identifierKind``; the entity name is the model type's
///   (``identifier(entityName:)``). No identifier until someone asks; then
///   ``PersistentModel/persistentModelID`` stores a temporary number here, which the context
///   replaces with a permanent one when it inserts the model.
/// - Link to the context: ``link``, one ``ContextLink`` per context, shared by its models, which
///   refers to the context weakly. The context conforms to ``ModelObserver`` and is told when a
///   model becomes dirty, when a relationship is set (with the models before and after, to keep
///   inverses in step), and when a faulted relationship is first read.
/// - Change tracking: ``changedProperties``, filled by the generated setters; the context reads
///   it at save time and calls ``clearChanges()``, and records its own writes with
///   ``markChanged(_:)`` when it wants them saved. The user's initializer assigns through the
///   `init` accessors, which record no change: a new object is saved whole. They note, with
///   the setters of a model no context observes, whether its relationships may hold models no
///   context was told about (``mayRelateUnobserved``), which inserting it then looks for.
/// - Faults: ``faultedProperties``. A context materialising a model leaves its relationships
///   empty and marks them faulted; the first read of one asks the observer to fill it in.
///
/// Both property sets keep their first 64 indexes in a word each, and any further ones in a
/// ``PropertyOverflow`` made only for models with more properties: with the number instead of a
/// whole identifier and the shared link instead of a weak reference, the structure takes 48
/// bytes (it took 80), which puts a `BucketListItem` of the sample schema in a 128-byte heap
/// block instead of a 160-byte one.
/// - Reading and writing values: ``_$ModelBinding`` (attributes as ``AttributeValue``,
///   relationships as arrays of models, raw or observed).
/// - Creating an object without the user's initializer:
///   `try Model(_$storage: storage, values: values)`, with one value per property in index
///   order (``AttributeValue/null`` for relationships, which start empty). `@Transient`
///   properties take their declared defaults.
public struct _$ModelStorage {
    /// The number of the model's identifier, when ``identifierKind`` says it has one. The entity
    /// name is the model type's: storing only the number keeps a model 16 bytes smaller.
    @usableFromInline private(set) var identifierNumber: UInt64 = 0

    /// The model's position among the models its context inserted since its last save, or -1.
    /// Declared here, it shares a word with ``identityBits``.
    var insertionIndex: Int32 = -1

    /// ``identifierKind`` in the low two bits, ``mayRelateUnobserved`` in the top one and
    /// ``isDeletedBySave`` in the one below it: one byte for all, and no stored property more. With a property of its own for the flag, the
    /// context's code that makes a model, which is not specialised for the model's type, copied
    /// the whole structure into the model's initializer and destroyed the original, where it had
    /// moved it (150 instructions a model).
    @usableFromInline var identityBits: UInt8 = 0

    /// Whether the model has an identifier yet, and which kind.
    @inlinable
    var identifierKind: IdentifierKind {
        IdentifierKind(rawValue: identityBits & 0x3) ?? .none
    }

    /// Whether the model's relationships may hold models that no context was told about: set
    /// while no context observed the model (by its initializer, or by a setter before the model
    /// was inserted), and when the model leaves a context unsaved. Inserting the model then
    /// looks through its relationships, to insert what they reach and set their inverses; a
    /// model without it is inserted without that.
    @inlinable
    var mayRelateUnobserved: Bool {
        get { identityBits & 0x80 != 0 }
        set { identityBits = newValue ? identityBits | 0x80 : identityBits & 0x7F }
    }

    /// Whether a save of the model's context deleted it, in bit 0x40 of ``identityBits``: read
    /// by ``PersistentModel/isDeleted``, and never cleared, since a deleted model is never
    /// stored again.
    var isDeletedBySave: Bool {
        get { identityBits & 0x40 != 0 }
        set { identityBits = newValue ? identityBits | 0x40 : identityBits & ~0x40 }
    }

    /// The link to the context managing the model, shared by all the context's models; `nil`
    /// for a model no context manages.
    var link: ContextLink?

    /// The properties set since the last save whose index is below 64, one bit each.
    private var changedBits: UInt64 = 0

    /// The relationships not loaded yet whose index is below 64, one bit each.
    @usableFromInline var faultedBits: UInt64 = 0

    /// Both sets' indexes from 64 on, for the rare model with more properties; `nil` while both
    /// are empty. Two `PropertySet`s took 32 bytes in every model.
    private var overflow: PropertyOverflow?

    /// Whether a model has an identifier, and which kind.
    @usableFromInline
    enum IdentifierKind: UInt8 {
        /// Nobody has asked for the identifier of a model no context has inserted.
        case none
        /// A temporary identifier, unique within the process.
        case temporary
        /// The model's identifier in its store.
        case permanent
    }

    /// Not API: the storage of a model that no context manages yet.
    public init() {}

    /// Creates the storage of a model that a context materialises.
    ///
    /// - Parameters:
    ///   - number: The number of the model's permanent identifier.
    ///   - link: The link to the context that manages the model.
    ///   - faulted: The relationships to load on first read.
    init(number: UInt64, link: ContextLink?, faulted: PropertySet = PropertySet()) {
        self.init(number: number, link: link, faultedBits: faulted.low)
        if !faulted.high.isEmpty { self.faultedProperties = faulted }
    }

    /// Creates the storage of a model that a context materialises, whose faulted relationships
    /// all have an index below 64: the common case, without a set to copy and release.
    ///
    /// - Parameter faultedBits: The relationships to load on first read, one bit each.
    init(number: UInt64, link: ContextLink?, faultedBits: UInt64) {
        self.identifierNumber = number
        self.identityBits = IdentifierKind.permanent.rawValue
        self.link = link
        self.faultedBits = faultedBits
    }

    // MARK: - Identity

    /// The number of the model's permanent identifier, once it has one.
    @inlinable
    var storedNumber: UInt64? {
        Self._$storedNumber(of: self)
    }

    /// Not API: the ``storedNumber`` of a model's storage, borrowed from the model, for its
    /// `_$storedNumber`, which `@Model` generates.
    @inlinable
    public static func _$storedNumber(of storage: borrowing _$ModelStorage) -> UInt64? {
        storage.identityBits & 0x3 == IdentifierKind.permanent.rawValue ? storage.identifierNumber : nil
    }

    /// The model's identifier, given its entity name; `nil` until it has one.
    func identifier(entityName: String) -> PersistentIdentifier? {
        switch identifierKind {
        case .none: nil
        case .temporary: PersistentIdentifier(entityName: entityName, number: identifierNumber, isTemporary: true)
        case .permanent: PersistentIdentifier(entityName: entityName, number: identifierNumber)
        }
    }

    /// Gives the model an identifier, or takes it away (`kind` `.none`).
    mutating func setIdentifier(_ number: UInt64, kind: IdentifierKind) {
        identifierNumber = kind == .none ? 0 : number
        identityBits = identityBits & 0xC0 | kind.rawValue
    }

    // MARK: - Context

    /// The context managing the model, told about its changes.
    ///
    /// Setting it gives the model a link of its own; a context shares one link among all its
    /// models instead (``link``). The link does not keep the observer: it must outlive the
    /// model's use of it, or be set to `nil` first (see ``ContextLink``).
    var observer: (any ModelObserver)? {
        get { link?.observer }
        set { link = newValue.map(ContextLink.init) }
    }

    // MARK: - Changes and faults

    /// The properties set since the last save, by index.
    var changedProperties: PropertySet {
        PropertySet(low: changedBits, high: overflow?.changedHigh ?? [])
    }

    /// Whether any property was set since the last save.
    var hasChanges: Bool {
        changedBits != 0 || overflow?.changedHigh.contains { $0 != 0 } == true
    }

    /// The relationships whose value has not been loaded yet, by index.
    var faultedProperties: PropertySet {
        get { PropertySet(low: faultedBits, high: overflow?.faultedHigh ?? []) }
        set {
            faultedBits = newValue.low
            if !newValue.high.isEmpty || overflow != nil { uniqueOverflow().faultedHigh = newValue.high }
        }
    }

    /// Forgets the recorded changes, after a save or a rollback.
    mutating func clearChanges() {
        changedBits = 0
        if overflow != nil { uniqueOverflow().changedHigh = [] }
    }

    /// Records a change without going through a property's setter.
    ///
    /// - Returns: Whether the model had no recorded change before.
    @discardableResult
    mutating func markChanged(_ index: Int) -> Bool {
        if index < 64 && overflow == nil {
            let wasEmpty = changedBits == 0
            changedBits |= 1 << UInt64(index)
            return wasEmpty
        }
        var changed = changedProperties
        let wasEmpty = changed.insert(index)
        changedBits = changed.low
        uniqueOverflow().changedHigh = changed.high
        return wasEmpty
    }

    /// Marks a relationship loaded.
    mutating func clearFault(_ index: Int) {
        if index < 64 {
            faultedBits &= ~(1 << UInt64(index))
        } else {
            var faulted = faultedProperties
            faulted.remove(index)
            faultedProperties = faulted
        }
    }

    /// Not API: whether a relationship has yet to be loaded. Called by generated getters, into
    /// which it compiles: every read of every property asks, and the index is a constant there.
    @inlinable
    public func _$isFaulted(_ index: Int) -> Bool {
        if index < 64 { return faultedBits & (1 << UInt64(index)) != 0 }
        return isFaulted(beyondFirstWord: index)
    }

    /// ``_$isFaulted(_:)`` for an index of 64 or more.
    @usableFromInline
    func isFaulted(beyondFirstWord index: Int) -> Bool {
        faultedProperties.contains(index)
    }

    /// The overflow, made or copied first so that changing it changes no other storage's.
    private mutating func uniqueOverflow() -> PropertyOverflow {
        if let overflow, isKnownUniquelyReferenced(&self.overflow) { return overflow }
        let copy = PropertyOverflow(changedHigh: overflow?.changedHigh ?? [], faultedHigh: overflow?.faultedHigh ?? [])
        overflow = copy
        return copy
    }
}

/// The words of a model's changed and faulted property sets beyond the first, for models with
/// more than 64 persisted properties (``PropertySet/high``).
final class PropertyOverflow {
    var changedHigh: [UInt64]
    var faultedHigh: [UInt64]

    init(changedHigh: [UInt64], faultedHigh: [UInt64]) {
        self.changedHigh = changedHigh
        self.faultedHigh = faultedHigh
    }
}

/// What a model holds to reach the context managing it.
///
/// A context makes one link and gives it to every model it manages. One strong reference per
/// model takes 8 bytes, where a weak reference to the context as an `any ModelObserver` took
/// 16.
///
/// The link does not retain its observer, and does not refer to it weakly either: whoever sets
/// ``observer`` sets it back to `nil` before the observer goes away, as a context does first
/// thing in its `deinit`, so that a model that outlives its context sees no context. A weak
/// reference cost every change of a model a load through the context's side table, and gave
/// the context a side table, through which every retain and release of it then went.
final class ContextLink {
    unowned(unsafe) var observer: (any ModelObserver)?

    init(_ observer: (any ModelObserver)? = nil) {
        self.observer = observer
    }
}

/// What the generated accessors tell the context that manages a model.
///
/// `ModelContext` conforms. Calls arrive on the model's isolation domain, which is the
/// context's. None of them may set the property that triggered it through its public setter.
protocol ModelObserver: AnyObject {
    /// A model without unsaved changes has just been changed.
    func modelDidBecomeDirty(_ model: any PersistentModel)

    /// A relationship was set through its property.
    ///
    /// - Parameters:
    ///   - model: The model whose relationship changed.
    ///   - index: The relationship's property index.
    ///   - oldValue: The related models before, in order (zero or one for a to-one).
    ///   - newValue: The related models after.
    func model(
        _ model: any PersistentModel,
        didSetRelationship index: Int,
        from oldValue: [any PersistentModel],
        to newValue: [any PersistentModel]
    )

    /// A to-many relationship was set through its property: as
    /// ``model(_:didSetRelationship:from:to:)``, with the arrays as the property holds them, so
    /// that the common change, one model appended, is handled without converting them.
    func model<Target: PersistentModel>(
        _ model: any PersistentModel,
        didSetToMany index: Int,
        from oldValue: [Target],
        to newValue: [Target]
    )

    /// A to-many relationship was set through its property to its models before with one more
    /// at the end, `appended`, which it did not hold: the change `append` makes, told apart
    /// where the generated setter is specialised for the model types, so that the context
    /// handles it without going over the arrays.
    func model<Target: PersistentModel>(
        _ model: any PersistentModel,
        didAppend appended: any PersistentModel,
        toMany index: Int,
        from oldValue: [Target],
        to newValue: [Target]
    )

    /// A to-one relationship was set through its property: as
    /// ``model(_:didSetRelationship:from:to:)``, with the models before and after instead of
    /// arrays of them.
    func model(
        _ model: any PersistentModel,
        didSetToOne index: Int,
        from oldValue: (any PersistentModel)?,
        to newValue: (any PersistentModel)?
    )

    /// A faulted relationship is being read: load it with the binding's raw write.
    ///
    /// The fault is already cleared when this is called, so reading the property again here
    /// does not recurse.
    func resolveFault(of model: any PersistentModel, relationship index: Int)
}

extension ModelObserver {
    /// By default, the form with arrays.
    func model(
        _ model: any PersistentModel,
        didSetToOne index: Int,
        from oldValue: (any PersistentModel)?,
        to newValue: (any PersistentModel)?
    ) {
        self.model(
            model,
            didSetRelationship: index,
            from: oldValue.map { [$0] } ?? [],
            to: newValue.map { [$0] } ?? []
        )
    }

    /// By default, as any other change of the relationship.
    func model<Target: PersistentModel>(
        _ model: any PersistentModel,
        didAppend appended: any PersistentModel,
        toMany index: Int,
        from oldValue: [Target],
        to newValue: [Target]
    ) {
        self.model(model, didSetToMany: index, from: oldValue, to: newValue)
    }

    /// By default, the existential form.
    func model<Target: PersistentModel>(
        _ model: any PersistentModel,
        didSetToMany index: Int,
        from oldValue: [Target],
        to newValue: [Target]
    ) {
        self.model(model, didSetRelationship: index, from: existentials(oldValue), to: existentials(newValue))
    }
}

// MARK: - Called by generated accessors

extension _$ModelStorage {
    /// Not API: loads a faulted relationship. Called by generated getters after
    /// ``_$isFaulted(_:)`` returned `true`.
    public static func _$resolveFault<Model: PersistentModel>(_ model: Model, _ index: Int) {
        model._$storage.clearFault(index)
        guard let observer = model.inPlace({ $0.observer }) else { return }
        observer.resolveFault(of: model, relationship: index)
    }

    /// Not API: records that an attribute was set. Called by generated setters.
    public static func _$didSet<Model: PersistentModel, Value>(
        _ model: Model,
        _ index: Int,
        from oldValue: Value,
        to newValue: Value
    ) {
        recordChange(model, index)
    }

    /// Not API: records that a to-one relationship was set. Called by generated setters.
    public static func _$didSet<Model: PersistentModel, Target: PersistentModel>(
        _ model: Model,
        _ index: Int,
        from oldValue: Target?,
        to newValue: Target?
    ) {
        guard let observer = recordChange(model, index, isRelationship: true) else { return }
        // Without arrays: `guard let`, not `Optional.map`, which looked up metadata here.
        var old: (any PersistentModel)?
        if let oldValue { old = oldValue }
        var new: (any PersistentModel)?
        if let newValue { new = newValue }
        observer.model(model, didSetToOne: index, from: old, to: new)
    }

    /// Not API: records that a to-many relationship was set. Called by generated setters.
    ///
    /// Inlinable, so that the generated setter tells an append from other changes with the
    /// arrays' element type known: in code not specialised for it, comparing the elements
    /// looked up the array's metadata for each one (about 6% of W1's instructions).
    @inlinable
    public static func _$didSet<Model: PersistentModel, Target: PersistentModel>(
        _ model: Model,
        _ index: Int,
        from oldValue: [Target],
        to newValue: [Target]
    ) {
        if let appended = appendedModel(from: oldValue, to: newValue) {
            recordAppend(model, index, appended, from: oldValue, to: newValue)
        } else {
            recordToManyChange(model, index, from: oldValue, to: newValue)
        }
    }

    /// Not API: records that an optional to-many relationship was set. Called by generated
    /// setters.
    @inlinable
    public static func _$didSet<Model: PersistentModel, Target: PersistentModel>(
        _ model: Model,
        _ index: Int,
        from oldValue: [Target]?,
        to newValue: [Target]?
    ) {
        // Each array passed as it is when there is one: `?? []` made a copy of it, retaining it.
        if let oldValue, let newValue {
            _$didSet(model, index, from: oldValue, to: newValue)
        } else {
            recordToManyChange(model, index, from: oldValue ?? [], to: newValue ?? [])
        }
    }

    /// The model `newValue` holds at its end when it is `oldValue` with that one model, not
    /// already there, appended; otherwise `nil`. Compared by identity.
    @inlinable
    static func appendedModel<Target: PersistentModel>(from oldValue: [Target], to newValue: [Target]) -> Target? {
        let count = oldValue.count
        guard newValue.count == count + 1 else { return nil }
        let appended = newValue[count]
        for position in 0..<count {
            let kept = oldValue[position]
            if kept !== newValue[position] || kept === appended { return nil }
        }
        return appended
    }

    /// What the to-many `_$didSet` does for one model appended.
    @usableFromInline
    static func recordAppend<Model: PersistentModel, Target: PersistentModel>(
        _ model: Model,
        _ index: Int,
        _ appended: Target,
        from oldValue: [Target],
        to newValue: [Target]
    ) {
        guard let observer = recordChange(model, index, isRelationship: true) else { return }
        observer.model(model, didAppend: appended, toMany: index, from: oldValue, to: newValue)
    }

    /// What the to-many `_$didSet` does for any other change.
    @usableFromInline
    static func recordToManyChange<Model: PersistentModel, Target: PersistentModel>(
        _ model: Model,
        _ index: Int,
        from oldValue: [Target],
        to newValue: [Target]
    ) {
        guard let observer = recordChange(model, index, isRelationship: true) else { return }
        observer.model(model, didSetToMany: index, from: oldValue, to: newValue)
    }

    /// Not API: notes the value a generated `init` accessor gives a property: nothing for an
    /// attribute.
    @inlinable @inline(__always)
    public static func _$initialValue<Value>(_ value: Value, _ storage: inout _$ModelStorage) {}

    /// Not API: notes the model a to-one relationship starts with.
    @inlinable @inline(__always)
    public static func _$initialValue<Target: PersistentModel>(_ value: Target, _ storage: inout _$ModelStorage) {
        storage.mayRelateUnobserved = true
    }

    /// Not API: notes the model an optional to-one relationship starts with.
    @inlinable @inline(__always)
    public static func _$initialValue<Target: PersistentModel>(_ value: Target?, _ storage: inout _$ModelStorage) {
        if value != nil { storage.mayRelateUnobserved = true }
    }

    /// Not API: notes the models a to-many relationship starts with.
    @inlinable @inline(__always)
    public static func _$initialValue<Target: PersistentModel>(_ value: [Target], _ storage: inout _$ModelStorage) {
        if !value.isEmpty { storage.mayRelateUnobserved = true }
    }

    /// Not API: notes the models an optional to-many relationship starts with.
    @inlinable @inline(__always)
    public static func _$initialValue<Target: PersistentModel>(_ value: [Target]?, _ storage: inout _$ModelStorage) {
        if value?.isEmpty == false { storage.mayRelateUnobserved = true }
    }

    /// Records that the property at `index` was set, telling the context when the model has
    /// just become dirty, and returns the context; for a relationship set with no context
    /// there, notes that it may hold models no context was told about.
    ///
    /// One access to the model's storage: this code is not specialised for the model's type,
    /// and each access went through the storage's `_modify`.
    @inline(__always)
    @discardableResult
    private static func recordChange<Model: PersistentModel>(
        _ model: Model,
        _ index: Int,
        isRelationship: Bool = false
    ) -> (any ModelObserver)? {
        let (becameDirty, observer) = model.inPlace { storage -> (Bool, (any ModelObserver)?) in
            let becameDirty = storage.markChanged(index)
            let observer = storage.observer
            if isRelationship, observer == nil { storage.mayRelateUnobserved = true }
            return (becameDirty, observer)
        }
        if becameDirty, let observer { observer.modelDidBecomeDirty(model) }
        return observer
    }
}
