import Foundation

extension ModelContext {
    // MARK: - Fetching

    /// The models that match a descriptor, in its order.
    ///
    /// Models already registered in the context are returned as they are, unsaved changes
    /// included; others are created from the store. With
    /// ``FetchDescriptor/includePendingChanges`` (the default), unsaved inserts count and models
    /// marked for deletion do not.
    ///
    /// - Complexity: O(1) for an equality on a unique attribute, answered from the unique
    ///   index. For an equality on another attribute, O(*k* log *k*) in the *k* matches, from an
    ///   equality index of the attribute that the first such fetch builds in O(*n*) and every
    ///   later change keeps up to date; only the matches are made into objects, and without
    ///   unsaved changes they are sorted on their stored values when every sort descriptor
    ///   compares a date or an integer. With a ``FetchDescriptor/fetchLimit``, no unsaved changes
    ///   and no predicate or such an equality, O(*n* log *k*) comparisons of stored values for
    ///   *k* = offset + limit, when every sort descriptor compares a number, a string, a date or
    ///   a UUID, optional or not: only the models returned are made. A range of the leading
    ///   attribute of an `#Index` (`==`, `<`, `<=`, `>`, `>=`, or two joined by `&&`) is found in
    ///   O(log *n* + *k* log *k*) for its *k* matches, and a fetch with a limit sorted first by
    ///   that attribute compares only the first *k* = offset + limit objects in its order (and
    ///   those that tie with the last of them), once the index, built by the first fetch that
    ///   uses it, is up to date. Otherwise O(*n* log *n*) in the number of models of the type,
    ///   each made into an object.
    /// - Throws: An error evaluating the predicate, or ``SchemaError`` when a stored value no
    ///   longer converts to its property's type.
    @inlinable
    public func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
        // Compiled into the caller, for its model type: the descriptor's generic parts are read
        // there, where their types are known, and only the predicate's expression reaches the
        // library, where handling `Predicate<T>` or `[SortDescriptor<T>]` would ask the runtime
        // for their type metadata on every call (half the cost of a lookup by unique name).
        if !_storeParts.isEmpty { return try _storePart(for: T.self).fetch(descriptor) }
        if let expression = descriptor._expression {
            let match =
                if let (keyPath, value) = _keyPathEqualsConstant(expression, T.self) {
                    try _uniqueMatch(keyPath, value, T.self)
                } else {
                    try _uniqueMatch(expression, T.self)
                }
            if match.answered {
                // At most one model matches: the sort order does not matter.
                guard let model = match.model, (descriptor.fetchOffset ?? 0) <= 0, (descriptor.fetchLimit ?? 1) > 0
                else { return [] }
                return [downcast(model, to: T.self)]
            }
        }
        return try _fetch(descriptor)
    }

    /// The answer to `#Predicate { $0.attribute == constant }` on a unique attribute, when the
    /// context has no unsaved changes: the one model holding the constant, if any.
    ///
    /// - Returns: `answered` false when the expression is not such an equality or the context
    ///   has unsaved changes, which a fetch must take into account.
    @usableFromInline
    func _uniqueMatch<Expression: StandardPredicateExpression<Bool>, T: PersistentModel>(
        _ expression: Expression,
        _: T.Type
    ) throws -> (answered: Bool, model: AnyObject?) {
        try store.catchUp()
        guard isReadyForUniqueMatch else { return (false, nil) }
        return try withMapping(for: T.self) { mapping in
            guard let (attribute, value) = equality(expression, mapping: mapping, in: T.self) else {
                return (false, nil)
            }
            return try uniqueMatch(attribute, value, mapping: mapping, T.self)
        }
    }

    /// The generic `_uniqueMatch` for `$0.property == constant`, already read from
    /// the expression by `_keyPathEqualsConstant`.
    @usableFromInline
    func _uniqueMatch<T: PersistentModel>(
        _ keyPath: AnyKeyPath,
        _ value: AttributeValue,
        _: T.Type
    ) throws -> (answered: Bool, model: AnyObject?) {
        try store.catchUp()
        guard isReadyForUniqueMatch else { return (false, nil) }
        // The mapping lent, not retained: a retain and a release were a tenth of this function.
        return try withMapping(for: T.self) { mapping in
            guard let property = mapping.propertyIndex(of: keyPath, in: T.self),
                case .attribute(let attribute) = mapping.slots[property]
            else { return (false, nil) }
            return try uniqueMatch(attribute, value, mapping: mapping, T.self)
        }
    }

    /// Whether a unique index can answer, once the registered models are up to date: not while
    /// the context has unsaved changes.
    private var isReadyForUniqueMatch: Bool {
        refreshIfStoreChanged()
        return !hasPendingChanges
    }

    /// The model holding `value` in a unique attribute, if the attribute is unique.
    private func uniqueMatch<T: PersistentModel>(
        _ attribute: Int,
        _ value: AttributeValue,
        mapping: EntityMapping,
        _: T.Type
    ) throws -> (answered: Bool, model: AnyObject?) {
        var values: [AttributeValue] = []
        swap(&values, &scratchValues)
        defer { scratchValues = values }
        // The holder, and its stored values when the context has no model of it yet, under one
        // lock: a lookup of a model not fetched before took the lock twice.
        let found = store.read { state -> (id: UInt64, isRegistered: Bool)?? in
            guard let holder = state.projection.uniqueHolderSlot(mapping.table, attribute: attribute, value) else {
                return nil
            }
            guard let holder else { return .some(nil) }
            // The row's load starts now, so that it overlaps with the registry's, each a cache
            // miss in a large store, rather than following it.
            state.projection.prefetchValues(mapping.table, slot: holder.slot)
            if registry[holder.id] != nil { return (holder.id, true) }
            // Where the stored value has the very bytes looked for, the value looked for, in the
            // caller's memory, stands for it: copying the stored string retained it, a write to
            // memory that the lookup had not read, and a cache miss no other read overlapped.
            let skipped = holder.hasSameBytes ? attribute : -1
            let property = Self.copyStoredValues(
                &values,
                slot: holder.slot,
                in: state.projection,
                mapping: mapping,
                skipping: skipped
            )
            if let property { values[property] = value }
            return (holder.id, false)
        }
        guard let found else { return (false, nil) }
        guard let (id, isRegistered) = found else { return (true, nil) }
        if isRegistered { return (true, try materialize(T.self, id, mapping: mapping)) }
        return (true, try make(T.self, id, values: &values, mapping: mapping))
    }

    /// The key path and the constant of `#Predicate { $0.property == constant }` when the
    /// constant is a `String`, an `Int` or a `UUID`, the usual keys of a lookup; `nil` for any
    /// other expression, which the generic `_uniqueMatch` reads.
    ///
    /// Compiled into the caller for its model type, where the expression's type is a constant:
    /// comparing it is one load, where reading an expression of a type unknown to the library
    /// goes through its generic metadata.
    @inlinable
    func _keyPathEqualsConstant<T: PersistentModel>(
        _ expression: any StandardPredicateExpression<Bool>,
        _: T.Type
    ) -> (AnyKeyPath, AttributeValue)? {
        let type = ObjectIdentifier(Swift.type(of: expression))
        if type == ObjectIdentifier(_KeyPathEquals<T, String>.self) {
            return Self._keyPathAndValue(expression, _KeyPathEquals<T, String>.self)
        }
        if type == ObjectIdentifier(_KeyPathEquals<T, Int>.self) {
            return Self._keyPathAndValue(expression, _KeyPathEquals<T, Int>.self)
        }
        if type == ObjectIdentifier(_KeyPathEquals<T, UUID>.self) {
            return Self._keyPathAndValue(expression, _KeyPathEquals<T, UUID>.self)
        }
        return nil
    }

    @inlinable
    static func _keyPathAndValue<T: PersistentModel, Value: AttributeValueConvertible>(
        _ expression: any StandardPredicateExpression<Bool>,
        _: _KeyPathEquals<T, Value>.Type
    ) -> (AnyKeyPath, AttributeValue)? {
        guard let equal = expression as? _KeyPathEquals<T, Value> else { return nil }
        return (equal.lhs.keyPath, equal.rhs.value.attributeValue)
    }

    /// Every other fetch: see ``fetch(_:)``.
    @usableFromInline
    func _fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
        try store.catchUp()
        if hasSubentities(T.self) { return try fetchAcrossHierarchy(descriptor) }
        if descriptor.fetchLimit != nil, let first = try firstOnStoredValues(descriptor) { return first }
        var (models, judgedOnStoredValues, sorted) = try candidates(descriptor)
        if let predicate = descriptor.predicate, !judgedOnStoredValues {
            models = try models.filter { try predicate.evaluate($0) }
        }
        if !descriptor.sortBy.isEmpty && !sorted {
            models.sort(using: descriptor.sortBy)
        }
        let offset = min(max(descriptor.fetchOffset ?? 0, 0), models.count)
        let end = descriptor.fetchLimit.map { min(models.count, offset + max($0, 0)) } ?? models.count
        return offset == 0 && end == models.count ? models : Array(models[offset..<end])
    }

    /// The number of models that match a descriptor (its limit and offset included).
    ///
    /// ```swift
    /// let lisbon = try context.fetchCount(FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "Lisbon" }))
    /// ```
    ///
    /// Counted on the stored values, without making a model, when the descriptor has no
    /// predicate or an equality (`$0.attribute == value`), sorts on scalar attributes if at all,
    /// and the context has no unsaved changes; otherwise the matching models are fetched.
    ///
    /// - Throws: See ``fetch(_:)``.
    public func fetchCount<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> Int {
        if !_storeParts.isEmpty { return try storePart(for: T.self).fetchCount(descriptor) }
        try store.catchUp()
        if hasSubentities(T.self) { return try fetch(descriptor).count }
        if descriptor.predicate == nil, descriptor.fetchOffset == nil, descriptor.fetchLimit == nil,
            !descriptor.includePendingChanges || (inserted.isEmpty && deleted.isEmpty)
        {
            let table = mapping(for: T.self).table
            return store.read { $0.projection.tables[table].count }
        }
        if let identifiers = identifiersOnStoredValues(descriptor) { return identifiers.count }
        return try fetch(descriptor).count
    }

    /// The identifiers of the models that match a descriptor, in its order.
    ///
    /// ```swift
    /// let ids = try context.fetchIdentifiers(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)]))
    /// ```
    ///
    /// Found on the stored values, without making a model, under the same conditions as
    /// ``fetchCount(_:)``; otherwise the matching models are fetched.
    ///
    /// - Complexity: Without models, O(*n* log *n*) comparisons of stored values for *n*
    ///   matching objects when the descriptor sorts, O(*n*) otherwise.
    /// - Throws: See ``fetch(_:)``.
    public func fetchIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [PersistentIdentifier]
    {
        if !_storeParts.isEmpty { return try storePart(for: T.self).fetchIdentifiers(descriptor) }
        try store.catchUp()
        if !hasSubentities(T.self), let identifiers = identifiersOnStoredValues(descriptor) {
            let entity = mapping(for: T.self).entityName
            return identifiers.map { PersistentIdentifier(entityName: entity, number: $0) }
        }
        return try fetch(descriptor).map(\.persistentModelID)
    }

    /// The model with an identifier: the registered object, or one created from the store.
    ///
    /// On a read-only container, the context first reads the saves the writer made since its
    /// last read, as a fetch does, so that a model another process inserted is found and a
    /// registered one has its latest saved values. When the log cannot be read, the context
    /// answers from what it has read so far, and the next fetch throws the error.
    ///
    /// - Returns: `nil` when the store has no such model and the context has not inserted it.
    public func model(for identifier: PersistentIdentifier) -> (any PersistentModel)? {
        if !_storeParts.isEmpty { return storePart(forEntity: identifier.entityName)?.model(for: identifier) }
        try? store.catchUp()
        refreshIfStoreChanged()
        if let registered = registered(identifier) { return registered }
        if let pending = inserted.models.first(where: { $0.persistentModelID == identifier }) { return pending }
        guard !identifier.isTemporary, let type = store.schema.modelType(forEntity: identifier.entityName) else {
            return nil
        }
        return madeOrLogged { try materialize(type, identifier.number) } ?? nil
    }

    /// The model with an identifier if the context has it registered already, without
    /// looking at the store.
    public func registeredModel<T: PersistentModel>(for identifier: PersistentIdentifier) -> T? {
        if !_storeParts.isEmpty { return storePart(forEntity: identifier.entityName)?.registeredModel(for: identifier) }
        if let registered = registered(identifier) as? T { return registered }
        return inserted.models.first { $0.persistentModelID == identifier } as? T
    }

    // MARK: - Internals

    /// The objects the predicate is to be evaluated on, and whether they were already matched on
    /// their stored values (an equality, or a range an `#Index` answers, without pending
    /// changes), so that evaluating the predicate on the objects' unsaved values would be wrong.
    ///
    /// The third value tells whether the objects are already in the descriptor's order: without
    /// pending changes, an equality's matches are put in order on their stored values when
    /// every sort descriptor compares dates or integers.
    private func candidates<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> ([T], Bool, Bool) {
        refreshIfStoreChanged()
        let mapping = mapping(for: T.self)
        var models: [T] = []
        if let predicate = descriptor.predicate, var matches = indexedMatches(predicate, mapping: mapping) {
            var sorted = false
            if !hasPendingChanges, !descriptor.sortBy.isEmpty,
                let ordered = orderedOnStoredValues(matches, descriptor.sortBy, mapping: mapping)
            {
                matches = ordered
                sorted = true
            }
            // Gathered as objects and made an array of `T` once, by `T`'s own code: each append
            // to an array of a type parameter looked the array's type up again.
            var made: [AnyObject] = []
            made.reserveCapacity(matches.count)
            for id in matches {
                if let model = try materialize(T.self, id, mapping: mapping) { made.append(model) }
            }
            models = T._$array(made)
            // Without unsaved changes, the stored values are the objects' values: the match stands.
            guard descriptor.includePendingChanges, hasPendingChanges else { return (models, true, sorted) }
            // Unsaved changes may make other registered objects match; the predicate decides.
            if !dirty.isEmpty {
                let found = Set(models.map(ObjectIdentifier.init))
                let count = models.count
                for case let model as T in dirty.values where !found.contains(ObjectIdentifier(model)) {
                    models.append(model)
                }
                // Stored objects in the order of their identifiers, as a fetch of every object
                // gives them, so that sorting leaves equal objects in the same order either way.
                if models.count > count { models.sort { ($0.storedIdentifier ?? 0) < ($1.storedIdentifier ?? 0) } }
            }
        } else {
            // A copy of the table (its arrays are shared, not copied) read outside the lock.
            let table = store.read { $0.projection.tables[mapping.table] }
            let objects = table.identifiersInOrder()
            var made: [AnyObject] = []
            made.reserveCapacity(objects.count)
            var values: [AttributeValue] = []
            try table.values.withUnsafeBufferPointer { rows in
                let width = table.width
                for (id, slot) in objects {
                    let model = try materialize(
                        T.self,
                        id,
                        slot: slot,
                        of: rows,
                        width: width,
                        mapping: mapping,
                        values: &values
                    )
                    made.append(model)
                }
            }
            // As above: one array of `T`, made by `T`'s own code.
            models = T._$array(made)
        }
        guard descriptor.includePendingChanges else { return (models, false, false) }
        if !deleted.isEmpty {
            models.removeAll { deleted[ObjectIdentifier($0)] != nil }
        }
        for case let model as T in inserted.models { models.append(model) }
        return (models, false, false)
    }

    /// The registered object of a stored model, created from its row when needed.
    func materialize<T: PersistentModel>(_ type: T.Type, _ id: UInt64, mapping: EntityMapping) throws -> T? {
        if let registered = registered(id, as: T.self) { return registered }
        var values: [AttributeValue] = []
        swap(&values, &scratchValues)
        defer { scratchValues = values }
        let found = store.read { Self.copyStoredValues(&values, of: id, in: $0.projection, mapping: mapping) }
        guard found else { return nil }
        return try make(T.self, id, values: &values, mapping: mapping)
    }

    /// Puts the stored attribute values of a live object into `values`, by property index, as
    /// ``fillPropertyValues(_:_:of:width:mapping:)`` does. Call it under the store's lock.
    ///
    /// - Returns: `false` when the table holds no live object `id`.
    @inline(__always)
    private static func copyStoredValues(
        _ values: inout [AttributeValue],
        of id: UInt64,
        in projection: borrowing Projection,
        mapping: EntityMapping
    ) -> Bool {
        guard let slot = projection.slot(mapping.table, id) else { return false }
        copyStoredValues(&values, slot: slot, in: projection, mapping: mapping)
        return true
    }

    /// ``copyStoredValues(_:of:in:mapping:)`` for an object whose slot the caller knows.
    ///
    /// - Parameter skipped: An attribute whose value the caller sets, or -1.
    /// - Returns: The property index of `skipped`, which is left as it was.
    @inline(__always)
    @discardableResult
    private static func copyStoredValues(
        _ values: inout [AttributeValue],
        slot: Int,
        in projection: borrowing Projection,
        mapping: EntityMapping,
        skipping skipped: Int = -1
    ) -> Int? {
        projection.withTable(mapping.table) { table in
            let width = table.pointee.width
            return table.pointee.values.withUnsafeBufferPointer(decodingSlots: CollectionOfOne(slot), width: width) {
                fillPropertyValues(&values, slot, of: $0, width: width, mapping: mapping, skipping: skipped)
            }
        }
    }

    func materialize(_ type: any PersistentModel.Type, _ id: UInt64) throws -> (any PersistentModel)? {
        func open<T: PersistentModel>(_ type: T.Type) throws -> (any PersistentModel)? {
            try materialize(T.self, id, mapping: mapping(for: T.self))
        }
        return try open(type)
    }

    /// The objects `id` refers to through a relationship of its table, registered or made from
    /// their rows, appended to `models`.
    ///
    /// The targets and copies of their stored values are read under the store's lock; the
    /// models are made outside it, since a model's initializer may fetch. The values are copied
    /// rather than read later from the table's own array: holding that array would make a save
    /// on another thread meanwhile copy the whole of it. The buffers of targets, rows and values
    /// are the context's, reused from one call to the next.
    ///
    /// The rows buffer keeps its length from one call to the next and holds only `null`
    /// between calls: this call overwrites the rows it needs, and the models take their values
    /// out (or drop them, for models already registered). Emptying it after each call made the
    /// runtime destroy every value again, through the generic array code.
    func materializeRelated<Target: PersistentModel>(
        _: Target.Type,
        of id: UInt64,
        table: Int,
        relationship: Int,
        into models: inout [AnyObject]
    ) {
        let targetMapping = mapping(for: Target.self)
        if !targetMapping.subentityNames.isEmpty {
            materializeRelatedInHierarchy(of: id, table: table, relationship: relationship, into: &models)
            return
        }
        // Each target with its slot in the target's table; its row in `rows` is its position.
        var found: [(id: UInt64, slot: Int)] = []
        var rows: [AttributeValue] = []
        swap(&found, &scratchTargets)
        swap(&rows, &scratchRows)
        defer {
            found.removeAll(keepingCapacity: true)
            scratchTargets = found
            scratchRows = rows
        }
        let width = store.read { state -> Int in
            guard let slot = state.projection.slot(table, id) else { return 0 }
            return state.projection.withTable(targetMapping.table) { targets in
                let width = targets.pointee.width
                state.projection.withTable(table) { source in
                    EntityTable.forEachTarget(in: source, slot, relationship) { target in
                        guard let targetSlot = state.projection.slot(targetMapping.table, target) else { return }
                        found.append((target, targetSlot))
                    }
                }
                let needed = found.count * width
                if rows.count < needed { rows.append(contentsOf: repeatElement(.null, count: needed - rows.count)) }
                // Read before the targets are decoded, which moves the share.
                let sparse = targets.pointee.values.isReadSparsely
                rows.withUnsafeMutableBufferPointer { rows in
                    let slots = found.lazy.map(\.slot)
                    targets.pointee.values.withUnsafeBufferPointer(decodingSlots: slots, width: width) { values in
                        var next = 0
                        for target in found {
                            let start = target.slot * width
                            for position in start..<(start + width) {
                                rows[next] = values[position]
                                next += 1
                            }
                        }
                    }
                }
                // The first screen of a large store reads the lists of a few objects and looks
                // their targets up, each at random in the checkpoint: the chunks those reads
                // mapped are let go of, as the targets' cells are once decoded.
                if sparse {
                    state.projection.withTable(table) { EntityTable.dropChunks(in: $0, of: slot, relationship) }
                    targets.pointee.loadedIdentifiers?.identifiers.dropChunks(around: found.lazy.map(\.slot))
                }
                return width
            }
        }
        guard !found.isEmpty else { return }
        var values: [AttributeValue] = []
        swap(&values, &scratchValues)
        defer { scratchValues = values }
        models.reserveCapacity(found.count)
        rows.withUnsafeMutableBufferPointer { rows in
            for (row, target) in found.enumerated() {
                let made = madeOrLogged {
                    try materialize(
                        Target.self,
                        target.id,
                        slot: row,
                        takingFrom: rows,
                        width: width,
                        mapping: targetMapping,
                        values: &values
                    )
                }
                if let made { models.append(made) }
            }
        }
    }

    /// The registered object of a stored model, or one made from its slot of `table`, a copy of
    /// the model's table.
    ///
    /// - Parameter values: A buffer for the stored values, reused from one object to the next
    ///   by a caller that makes many: the initializer lets go of it, so refilling it costs no
    ///   allocation (an array per object was a tenth of making a model).
    func materialize<T: PersistentModel>(
        _ type: T.Type,
        _ id: UInt64,
        slot: Int,
        of rows: UnsafeBufferPointer<AttributeValue>,
        width: Int,
        mapping: EntityMapping,
        values: inout [AttributeValue]
    ) throws -> T {
        if let registered = registered(id, as: T.self) { return registered }
        Self.fillPropertyValues(&values, slot, of: rows, width: width, mapping: mapping)
        return try make(T.self, id, values: &values, mapping: mapping)
    }

    /// ``materialize(_:_:slot:of:width:mapping:values:)`` from rows of the caller's own, whose
    /// values it moves out instead of copying. The row holds only `null` afterwards, whether
    /// the model was made or already registered.
    func materialize<T: PersistentModel>(
        _ type: T.Type,
        _ id: UInt64,
        slot: Int,
        takingFrom rows: UnsafeMutableBufferPointer<AttributeValue>,
        width: Int,
        mapping: EntityMapping,
        values: inout [AttributeValue]
    ) throws -> T {
        let row = slot * width
        if let registered = registered(id, as: T.self) {
            UnsafeMutableBufferPointer(rebasing: rows[row..<(row + width)]).update(repeating: .null)
            return registered
        }
        Self.prepare(&values, mapping: mapping)
        values.withUnsafeMutableBufferPointer { values in
            for (property, place) in mapping.slots.enumerated() {
                switch place {
                case .attribute(let attribute):
                    values[property] = rows.moveElement(from: row + attribute)
                    rows.initializeElement(at: row + attribute, to: .null)
                case .relationship: values[property] = .null
                }
            }
        }
        return try make(T.self, id, values: &values, mapping: mapping)
    }

    /// The stored attribute values of the object in `slot`, by property index (`null` for
    /// relationships).
    @inline(__always)
    private static func propertyValues(
        _ slot: Int,
        of table: UnsafePointer<EntityTable>,
        mapping: EntityMapping
    ) -> [AttributeValue] {
        var values: [AttributeValue] = []
        let width = table.pointee.width
        _ = table.pointee.values.withUnsafeBufferPointer(decodingSlots: CollectionOfOne(slot), width: width) {
            fillPropertyValues(&values, slot, of: $0, width: width, mapping: mapping)
        }
        return values
    }

    /// Puts the stored attribute values of the object in `slot` into `values`, by property index
    /// (`null` for relationships), reusing its storage.
    ///
    /// - Parameters:
    ///   - rows: A table's attribute values, `width` per object (``EntityTable/values``).
    ///   - skipped: An attribute whose value the caller sets, or -1.
    /// - Returns: The property index of `skipped`, whose value is left as it was.
    @inline(__always)
    @discardableResult
    private static func fillPropertyValues(
        _ values: inout [AttributeValue],
        _ slot: Int,
        of rows: UnsafeBufferPointer<AttributeValue>,
        width: Int,
        mapping: EntityMapping,
        skipping skipped: Int = -1
    ) -> Int? {
        prepare(&values, mapping: mapping)
        let row = slot * width
        // Through the buffer: with the skip, each assignment to the array checked again that
        // the array was not shared.
        return values.withUnsafeMutableBufferPointer { values in
            var skippedProperty: Int?
            for (property, place) in mapping.slots.enumerated() {
                switch place {
                case .attribute(let attribute):
                    if attribute == skipped {
                        skippedProperty = property
                    } else {
                        values[property] = rows[row + attribute]
                    }
                case .relationship: values[property] = .null
                }
            }
            return skippedProperty
        }
    }

    /// Makes `values` long enough for the properties of `mapping`'s entity.
    ///
    /// A buffer last used for an entity with more properties keeps its length: a model's
    /// initializer reads only the indexes of its own properties, and a relationship's is set to
    /// `null` by the caller, whatever the other entity left there. Loading a trip's bucket list
    /// and then its accommodation used to empty and refill the buffer each time, about 480
    /// instructions per relationship loaded.
    @inline(__always)
    private static func prepare(_ values: inout [AttributeValue], mapping: EntityMapping) {
        if values.count < mapping.slots.count {
            values.append(contentsOf: repeatElement(.null, count: mapping.slots.count - values.count))
        }
    }

    /// Makes and registers the model of a stored object from its attribute values.
    private func make<T: PersistentModel>(
        _ type: T.Type,
        _ id: UInt64,
        values: inout [AttributeValue],
        mapping: EntityMapping
    ) throws -> T {
        if fillsMissingValues { fillMissingValues(&values, mapping: mapping) }
        if !mapping.externalProperties.isEmpty { try resolveExternalValues(&values, id, mapping: mapping) }
        // Set without a set of faults to copy and release, for most models.
        let storage =
            if let bits = mapping.faultedBits {
                _$ModelStorage(number: id, link: link, faultedBits: bits)
            } else {
                _$ModelStorage(number: id, link: link, faulted: mapping.faultedRelationships)
            }
        let model = try T(_$storage: consume storage, values: &values)
        registry[id] = model
        return model
    }

    /// The registered object of a stored model as a `T`, when it is exactly one: model classes are
    /// final, so a comparison of metatypes replaces a dynamic cast on the path of every fetch.
    private func registered<T: PersistentModel>(_ id: UInt64, as _: T.Type) -> T? {
        guard let model = registry[id], Swift.type(of: model) == T.self else { return nil }
        return downcast(model, to: T.self)
    }

    /// Gives attributes that have no stored value yet a placeholder (zero, empty) so that a
    /// migration stage's `didMigrate` can fetch the models and set them.
    private func fillMissingValues(_ values: inout [AttributeValue], mapping: EntityMapping) {
        let entity = mapping.entity
        for (property, slot) in mapping.slots.enumerated() {
            guard case .attribute(let attribute) = slot, values[property] == .null else { continue }
            let description = entity.attributes[attribute]
            if !description.isOptional, let placeholder = description.type.placeholderValue {
                values[property] = placeholder
            }
        }
    }

    /// Brings registered models without unsaved changes up to date after another context saved.
    func refreshIfStoreChanged() {
        store.catchUpExternalLogBeforeReading()
        let generation = store.generation
        guard generation != seenGeneration else { return }
        seenGeneration = generation
        for model in registry.values
        where dirty[ObjectIdentifier(model)] == nil && deleted[ObjectIdentifier(model)] == nil {
            reload(model, clearChanges: false)
        }
    }

    /// Gives a model its saved attribute values back and unloads its relationships.
    func reload(_ model: any PersistentModel, clearChanges: Bool = true) {
        guard let id = model.storedIdentifier else { return }
        let mapping = mapping(of: model)
        let stored = store.read { state in
            state.projection.slot(mapping.table, id).map { slot in
                state.projection.withTable(mapping.table) { Self.propertyValues(slot, of: $0, mapping: mapping) }
            }
        }
        guard var stored else { return }
        if !mapping.externalProperties.isEmpty {
            keepHeldExternalValues(&stored, of: model, mapping: mapping)
            // Unreadable files leave the model's values as they are: the next fetch reports them.
            guard (try? resolveExternalValues(&stored, id, mapping: mapping)) != nil else { return }
        }
        for (property, slot) in mapping.slots.enumerated() {
            guard case .attribute = slot else { continue }
            if (try? model.readAttribute(property)) != stored[property] {
                try? model.writeAttribute(property, stored[property], observed: true)
            }
        }
        for property in mapping.relationshipProperties {
            mapping.setRelated(model, property, [], observed: true)
        }
        model._$storage.faultedProperties = PropertySet(mapping.relationshipProperties)
        if clearChanges { model._$storage.clearChanges() }
    }
}
