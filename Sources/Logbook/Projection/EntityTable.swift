/// The objects of one entity, by *slot*, with its unique indexes and the name lookups that
/// replay needs.
///
/// The attribute values of every object are in one ``ValueColumn``, an object's values side by
/// side (row by row), and each relationship is a column of targets indexed by slot; the projection's
/// ``IdentifierSlots`` finds an object's slot from its identifier (see
/// ``Projection/slot(_:_:)``). A to-one relationship keeps one identifier per slot (0 for none),
/// a to-many one an array. One array of values costs a value per attribute and object where a
/// row of its own would cost an allocation per object; keeping an object's values together
/// makes an object from one or two cache lines, and appends a new object's values in one place
/// instead of one column per attribute. The slots of deleted objects are reused. Values and
/// relationships are changed only through `EntityTable+Columns.swift`, which keeps them the same
/// length.
package struct EntityTable: Sendable {
    package let entity: Schema.Entity
    /// The identifier in each slot; 0 for a free slot.
    var identifiers = WordColumn()
    /// The identifiers as a checkpoint held them, for a table loaded with them ascending (see
    /// ``LoadedIdentifiers``): the projection finds their slots here instead of in its
    /// ``IdentifierSlots`` (see ``Projection/slot(_:_:)``).
    var loadedIdentifiers: LoadedIdentifiers?
    /// The attribute values, ``width`` per slot: the value of attribute `a` of the object in
    /// slot `s` is at `s * width + a`.
    var values = ValueColumn()
    /// The number of attributes, the values each slot takes.
    let width: Int
    /// For each relationship: its target in each slot when the relationship is to-one (0 for
    /// none); empty for a to-many relationship.
    var toOne: [WordColumn]
    /// For each relationship: its targets in each slot when the relationship is to-many; empty
    /// for a to-one relationship.
    var toMany: [LinkLists]
    /// Whether each relationship is to-many.
    let isToMany: [Bool]
    /// The number of live objects.
    package internal(set) var count = 0
    /// Slots freed by deletes, reused first.
    var freeSlots: [Int] = []
    /// The attribute indexes of the attributes whose unique constraint is in force: the
    /// schema's, unless a replay is going through events recorded at a schema whose
    /// constraints differ (see ``Projection/enforceConstraints(of:)``).
    package private(set) var uniqueAttributes: [Int]
    /// The schema's sole unique attribute, whose values' hashes a replay's predecoder and a
    /// save compute ahead; -1 when the schema has none or several. A hash computed ahead is
    /// used only while this attribute alone is unique.
    let hashedUniqueAttribute: Int
    /// For each unique attribute, in the order of ``uniqueAttributes``: its values' slots.
    ///
    /// An array rather than a dictionary keyed by attribute, so that updating one index in
    /// place never copies another.
    private(set) var uniqueIndexes: [UniqueIndex]
    /// The unique constraints over several attributes in force (`#Unique`), each as attribute
    /// indexes: the schema's, unless a replay is going through events recorded at a schema
    /// whose constraints differ, as for ``uniqueAttributes``.
    package private(set) var compositeUniques: [[Int]]
    /// For each of ``compositeUniques``: the identifier holding each tuple of values. A tuple
    /// with a `null` in it is not held to the constraint, and has no entry.
    private var compositeIndexes: [[[AttributeValue]: UInt64]]
    /// The unique and composite indexes of a table loaded from a checkpoint, built when first
    /// needed; `nil` once they are the table's own (see ``PendingUniqueIndexes``).
    private(set) var pendingUnique: PendingUniqueIndexes?
    /// The sorted indexes `#Index` declares, one for each leading attribute (see
    /// ``SortedIndex``).
    var sortedIndexes: [SortedIndex]
    /// Whether a sorted index has been built, and so follows the changes of objects (see
    /// `EntityTable+SortedIndexes.swift`).
    var followsChanges = false
    /// Attribute index by current name and by every original name.
    let attributeIndex: [String: Int]
    /// Relationship index by current name and by every original name.
    let relationshipIndex: [String: Int]
    /// The attributes that have an equality index, built the first time a fetch compares one
    /// with a constant, and kept up to date from then on.
    private var indexedAttributes: [Int] = []
    /// For each of ``indexedAttributes``: value to the identifiers holding it, in no order.
    private var equalityIndexes: [Int: [AttributeValue: [UInt64]]] = [:]
    /// The attribute each field position of an event named last time. The predecoder of a
    /// replay starts from a copy.
    private(set) var fieldNames: FieldNames
    /// Finds relationships by name. The predecoder of a replay keeps a copy.
    let relationshipNames: RelationshipNames

    /// - Parameters:
    ///   - entity: The entity at the current schema.
    ///   - formerNames: Names the entity's attributes and relationships had in earlier schemas,
    ///     by current name (see ``Schema/formerNames(through:)``).
    init(entity: Schema.Entity, formerNames: [String: [String]] = [:]) {
        self.entity = entity
        var attributes: [String: Int] = [:]
        for (index, attribute) in entity.attributes.enumerated() {
            for former in formerNames[attribute.name] ?? [] { attributes[former] = index }
            if let original = attribute.originalName { attributes[original] = index }
        }
        for (index, attribute) in entity.attributes.enumerated() { attributes[attribute.name] = index }
        attributeIndex = attributes
        var relationships: [String: Int] = [:]
        for (index, relationship) in entity.relationships.enumerated() {
            for former in formerNames[relationship.name] ?? [] { relationships[former] = index }
            if let original = relationship.originalName { relationships[original] = index }
        }
        for (index, relationship) in entity.relationships.enumerated() { relationships[relationship.name] = index }
        relationshipIndex = relationships
        fieldNames = FieldNames(attributes: entity.attributes.map(\.name), index: attributes)
        relationshipNames = RelationshipNames(relationships: entity.relationships.map(\.name), index: relationships)
        uniqueAttributes = entity.attributes.indices.filter { entity.attributes[$0].isUnique }
        uniqueIndexes = Array(repeating: UniqueIndex(), count: uniqueAttributes.count)
        hashedUniqueAttribute = uniqueAttributes.count == 1 ? uniqueAttributes[0] : -1
        compositeUniques = entity.uniquenessConstraints.compactMap { names in
            let indexes = names.compactMap { attributes[$0] }
            return indexes.count == names.count ? indexes : nil
        }
        compositeIndexes = Array(repeating: [:], count: compositeUniques.count)
        var leading: [Int] = []
        for index in entity.indexes {
            guard let first = index.first, let attribute = attributes[first], !leading.contains(attribute) else {
                continue
            }
            leading.append(attribute)
        }
        sortedIndexes = leading.map { SortedIndex(attribute: $0) }
        width = entity.attributes.count
        isToMany = entity.relationships.map(\.isToMany)
        toOne = Array(repeating: WordColumn(), count: entity.relationships.count)
        toMany = Array(repeating: LinkLists(), count: entity.relationships.count)
    }

    /// The index of the attribute an event names at its field `position`: see ``FieldNames``.
    @inline(__always)
    mutating func attribute(named name: String, at position: Int) -> Int? {
        fieldNames.attribute(named: name, at: position)
    }

    /// ``attribute(named:at:)`` for a name as the event's UTF-8 bytes.
    @inline(__always)
    mutating func attribute(named name: UnsafeRawBufferPointer, at position: Int) -> Int? {
        fieldNames.attribute(named: name, at: position)
    }

    /// The index of the relationship an event names, by its UTF-8 bytes.
    @inline(__always)
    func relationship(named name: UnsafeRawBufferPointer) -> Int? {
        relationshipNames.relationship(named: name)
    }

    /// The index of the relationship an event names.
    @inline(__always)
    func relationship(named name: String) -> Int? {
        relationshipNames.relationship(named: name)
    }

    /// The identifier holding `value` in the unique attribute at `attribute`.
    package func lookup(unique attribute: Int, _ value: AttributeValue) -> UInt64? {
        guard let position = uniqueAttributes.firstIndex(of: attribute) else { return nil }
        return withUnsafePointer(to: self) { Self.holder(in: $0, position, value, hash: UniqueIndex.hash(value)) }
    }

    /// The identifier of the object whose unique attribute at `position` of
    /// ``uniqueAttributes`` holds `value`, whose ``UniqueIndex/hash(_:)`` is `hash`. Static,
    /// over a pointer, reading only stored properties: a method called on `pointee` would copy
    /// the table first.
    @inline(__always)
    static func holder(
        in table: UnsafePointer<EntityTable>,
        _ position: Int,
        _ value: AttributeValue,
        hash: UInt32
    ) -> UInt64? {
        holderSlot(in: table, position, value, hash: hash)?.id
    }

    /// ``holder(in:_:_:hash:)`` with the holder's slot, and whether the index's copy of the
    /// holder's value has the very bytes of `value`.
    static func holderSlot(
        in table: UnsafePointer<EntityTable>,
        _ position: Int,
        _ value: AttributeValue,
        hash: UInt32
    ) -> UniqueIndex.Holder? {
        let attribute = table.pointee.uniqueAttributes[position]
        let width = table.pointee.width
        if let pending = table.pointee.pendingUnique {
            return pending.built().unique[position].find(hash, value) { slot in
                table.pointee.values.holds(value, at: slot &* width &+ attribute)
            }
        }
        return table.pointee.uniqueIndexes[position].find(hash, value) { slot in
            table.pointee.values.holds(value, at: slot &* width &+ attribute)
        }
    }

    /// The unique and composite indexes as they stand: the table's own, or those being built
    /// for it, once built.
    private var currentIndexes: PendingUniqueIndexes.Built {
        pendingUnique?.built() ?? builtIndexes
    }

    /// The table's own unique and composite indexes.
    var builtIndexes: PendingUniqueIndexes.Built {
        PendingUniqueIndexes.Built(unique: uniqueIndexes, composite: compositeIndexes)
    }

    /// Leaves the unique and composite indexes of every live object to be built when first
    /// needed: for a table loaded from a checkpoint, whose indexes are empty.
    mutating func deferUniqueIndexes() {
        pendingUnique = nil
        guard !uniqueAttributes.isEmpty || !compositeUniques.isEmpty else { return }
        pendingUnique = PendingUniqueIndexes(deferring: self)
    }

    /// Takes the deferred indexes, building them if need be, as the table's own: called before
    /// anything changes the indexes or the objects.
    @inline(__always)
    mutating func adoptUniqueIndexes() {
        guard let pending = pendingUnique else { return }
        let built = pending.built()
        uniqueIndexes = built.unique
        compositeIndexes = built.composite
        pendingUnique = nil
    }

    /// Each unique index as value to identifier: for tests and checks, which compare the
    /// indexes of two projections.
    package var uniqueIndexContents: [[AttributeValue: UInt64]] {
        let indexes = currentIndexes.unique
        return indexes.indices.map { position in
            var contents: [AttributeValue: UInt64] = [:]
            for slot in indexes[position].slots {
                contents[value(slot, uniqueAttributes[position])] = identifiers[slot]
            }
            return contents
        }
    }

    /// The identifiers whose attribute at `attribute` equals `value`, in ascending order, from
    /// the attribute's equality index, which is built first if the attribute has none yet.
    ///
    /// - Complexity: O(*n*) the first time for an attribute, then O(*k* log *k*) for *k* matches.
    package mutating func matches(_ attribute: Int, _ value: AttributeValue) -> [UInt64] {
        if !indexedAttributes.contains(attribute) {
            var index: [AttributeValue: [UInt64]] = [:]
            for (slot, id) in identifiers.enumerated() where id != 0 {
                index[self.value(slot, attribute), default: []].append(id)
            }
            equalityIndexes[attribute] = index
            indexedAttributes.append(attribute)
        }
        return equalityIndexes[attribute]?[value]?.sorted() ?? []
    }

    /// The values of a composite unique constraint in `slot`, or `nil` when one is `null`.
    private func compositeKey(_ position: Int, slot: Int) -> [AttributeValue]? {
        compositeKey(position, slot: slot) { self.value($0, $1) }
    }

    /// ``compositeKey(_:slot:)`` with the values `read` gives.
    private func compositeKey(
        _ position: Int,
        slot: Int,
        reading read: (Int, Int) -> AttributeValue
    ) -> [AttributeValue]? {
        var key: [AttributeValue] = []
        key.reserveCapacity(compositeUniques[position].count)
        for attribute in compositeUniques[position] {
            let value = read(slot, attribute)
            if value == .null { return nil }
            key.append(value)
        }
        return key
    }

    /// Whether a composite unique index over exactly `attributes` (in any order) is in force.
    func hasCompositeUnique(_ attributes: [Int]) -> Bool {
        let wanted = attributes.sorted()
        return compositeUniques.contains { $0.sorted() == wanted }
    }

    /// The object whose values of `attributes`, a composite unique constraint in force, are
    /// `key`, in the same order.
    func compositeHolder(_ attributes: [Int], _ key: [AttributeValue]) -> UInt64? {
        let wanted = attributes.sorted()
        guard let position = compositeUniques.firstIndex(where: { $0.sorted() == wanted }) else { return nil }
        // The index keys its tuples in the order of its own constraint.
        let ordered = compositeUniques[position].compactMap { attribute in
            attributes.firstIndex(of: attribute).map { key[$0] }
        }
        return currentIndexes.composite[position][ordered]
    }

    /// Each composite unique index as values to identifier: for tests and checks.
    package var compositeIndexContents: [[[AttributeValue]: UInt64]] {
        currentIndexes.composite
    }

    /// Whether a change to the value of `attribute` changes what an index of the table holds:
    /// a unique index, a composite one, an equality index, or a sorted index once built (which
    /// notes every object changed). An update that writes no such attribute leaves every index
    /// as it was, and need not take its object out of them and put it back.
    func changesAnIndex(_ attribute: Int) -> Bool {
        followsChanges || uniqueAttributes.contains(attribute) || indexedAttributes.contains(attribute)
            || compositeUniques.contains { $0.contains(attribute) }
    }

    /// Adds the object in `slot` to the unique and equality indexes. In a unique index, it
    /// takes the place of any other object with an equal value.
    mutating func index(_ id: UInt64, slot: Int) {
        adoptUniqueIndexes()
        indexUnique(id, slot: slot, peeking: false)
        indexEqualities(id, slot: slot)
    }

    /// ``index(_:slot:)`` for the build of the unique indexes of a table loaded from a
    /// checkpoint (see ``PendingUniqueIndexes``), which has no equality indexes yet: it reads
    /// the values with ``ValueColumn/peek(_:)``, so that the build decodes none of them into the
    /// column. The indexes keep the bytes they compare; the column's memory is left for the
    /// values that are read.
    mutating func indexAsLoaded(_ id: UInt64, slot: Int) {
        indexUnique(id, slot: slot, peeking: true)
    }

    /// Adds `id`, in `slot`, to the unique and composite indexes; `peeking` reads the values
    /// without decoding them into the column.
    @inline(__always)
    private mutating func indexUnique(_ id: UInt64, slot: Int, peeking: Bool) {
        func read(_ slot: Int, _ attribute: Int) -> AttributeValue {
            peeking ? values.peek(slot &* width &+ attribute) : value(slot, attribute)
        }
        for position in compositeUniques.indices {
            guard let key = compositeKey(position, slot: slot, reading: read) else { continue }
            compositeIndexes[position][key] = id
        }
        for position in uniqueAttributes.indices {
            let attribute = uniqueAttributes[position]
            let value = read(slot, attribute)
            guard value != .null else { continue }
            let hash = UniqueIndex.hash(value)
            switch uniqueIndexes[position].probe(hash, where: { read($0, attribute) == value }) {
            case .found(_, let bucket): uniqueIndexes[position].replace(at: bucket, slot: slot, id: id)
            case .vacant(let bucket): uniqueIndexes[position].insert(hash, slot: slot, id: id, value: value, at: bucket)
            }
        }
    }

    /// Adds the object `id`, whose values are in `slot`, to the indexes, unless another live
    /// object already holds one of its unique values: then changes nothing and returns that
    /// object's identifier.
    ///
    /// With one unique attribute, the usual case, the value is hashed and looked for once; an
    /// insert used to look it up and then add it. `hash`, when given, is that value's
    /// ``UniqueIndex/hash(_:)``, which a replay's predecoder computed.
    mutating func indexUnlessTaken(_ id: UInt64, slot: Int, hash knownHash: UInt32? = nil) -> UInt64? {
        adoptUniqueIndexes()
        if uniqueAttributes.isEmpty && compositeUniques.isEmpty {
            indexEqualities(id, slot: slot)
            return nil
        }
        guard uniqueAttributes.count == 1, compositeUniques.isEmpty else {
            if let holder = holderOfUniqueValue(in: slot, excluding: id) { return holder }
            index(id, slot: slot)
            return nil
        }
        let attribute = uniqueAttributes[0]
        let value = self.value(slot, attribute)
        if value != .null {
            let known = attribute == hashedUniqueAttribute ? knownHash : nil
            assert(known == nil || known == UniqueIndex.hash(value), "a predecoded hash of another value")
            let hash = known ?? UniqueIndex.hash(value)
            switch uniqueIndexes[0].probe(hash, where: { self.value($0, attribute) == value }) {
            case .found(let holder, let bucket):
                if identifiers[holder] != id { return identifiers[holder] }
                uniqueIndexes[0].replace(at: bucket, slot: slot, id: id)
            case .vacant(let bucket):
                uniqueIndexes[0].insert(hash, slot: slot, id: id, value: value, at: bucket)
            }
        }
        indexEqualities(id, slot: slot)
        return nil
    }

    /// The live object other than `id` that already holds one of the unique values in `slot`.
    mutating func holderOfUniqueValue(in slot: Int, excluding id: UInt64) -> UInt64? {
        adoptUniqueIndexes()
        // Through a pointer to the table in place: `withUnsafePointer(to: self)` copies it.
        return withUnsafeMutablePointer(to: &self) { table -> UInt64? in
            for position in table.pointee.uniqueAttributes.indices {
                let value = table.pointee.value(slot, table.pointee.uniqueAttributes[position])
                guard value != .null else { continue }
                let found = Self.holder(in: UnsafePointer(table), position, value, hash: UniqueIndex.hash(value))
                if let holder = found, holder != id {
                    return holder
                }
            }
            for position in table.pointee.compositeUniques.indices {
                guard let key = table.pointee.compositeKey(position, slot: slot),
                    let holder = table.pointee.compositeIndexes[position][key], holder != id
                else { continue }
                return holder
            }
            return nil
        }
    }

    private mutating func indexEqualities(_ id: UInt64, slot: Int) {
        if followsChanges { noteChange(id) }
        for attribute in indexedAttributes {
            let value = self.value(slot, attribute)
            equalityIndexes[attribute]?[value, default: []].append(id)
        }
    }

    /// Removes the object in `slot` from the unique and equality indexes. Call it before
    /// changing a value of the object: the unique indexes find its entries by their values.
    mutating func unindex(_ id: UInt64, slot: Int) {
        adoptUniqueIndexes()
        for position in uniqueAttributes.indices {
            let value = self.value(slot, uniqueAttributes[position])
            guard value != .null else { continue }
            uniqueIndexes[position].remove(UniqueIndex.hash(value), slot: slot)
        }
        for position in compositeUniques.indices {
            guard let key = compositeKey(position, slot: slot), compositeIndexes[position][key] == id else { continue }
            compositeIndexes[position][key] = nil
        }
        if followsChanges { noteChange(id) }
        for attribute in indexedAttributes {
            let value = self.value(slot, attribute)
            guard let position = equalityIndexes[attribute]?[value]?.firstIndex(of: id) else { continue }
            equalityIndexes[attribute]?[value]?.remove(at: position)
            if equalityIndexes[attribute]?[value]?.isEmpty == true { equalityIndexes[attribute]?[value] = nil }
        }
    }

    /// Puts in force the unique constraints on `attributes` and on each tuple of `composites`,
    /// and lifts the others.
    ///
    /// A lifted constraint's index is dropped. A constraint put in force starts with an empty
    /// index: the caller must index every live object again (``Projection/enforceConstraints(of:)``
    /// does, folding duplicates).
    ///
    /// - Returns: Whether a constraint was put in force.
    mutating func enforceUnique(on attributes: [Int], composites: [[Int]] = []) -> Bool {
        adoptUniqueIndexes()
        let addedComposite = enforceComposites(composites)
        let wanted = Set(attributes)
        guard wanted != Set(uniqueAttributes) else { return addedComposite }
        var kept: [Int] = []
        var keptIndexes: [UniqueIndex] = []
        for (position, attribute) in uniqueAttributes.enumerated() where wanted.contains(attribute) {
            kept.append(attribute)
            keptIndexes.append(uniqueIndexes[position])
        }
        let added = attributes.filter { !kept.contains($0) }
        uniqueAttributes = kept + added
        uniqueIndexes = keptIndexes + added.map { _ in UniqueIndex() }
        return !added.isEmpty || addedComposite
    }

    /// ``enforceUnique(on:composites:)`` for the composite constraints.
    ///
    /// - Returns: Whether a constraint was put in force.
    private mutating func enforceComposites(_ composites: [[Int]]) -> Bool {
        let wanted = composites.map { $0.sorted() }
        let current = compositeUniques.map { $0.sorted() }
        guard Set(wanted) != Set(current) else { return false }
        var kept: [[Int]] = []
        var keptIndexes: [[[AttributeValue]: UInt64]] = []
        for (position, constraint) in current.enumerated() where wanted.contains(constraint) {
            kept.append(compositeUniques[position])
            keptIndexes.append(compositeIndexes[position])
        }
        let added = zip(wanted, composites).filter { !current.contains($0.0) }.map(\.1)
        compositeUniques = kept + added
        compositeIndexes = keptIndexes + added.map { _ in [:] }
        return !added.isEmpty
    }

    /// Puts in force exactly the unique constraints on `attributes`, in that order, with empty
    /// indexes: for a table loaded from a checkpoint, whose objects are indexed next. The
    /// composite constraints are the schema's, since a checkpoint is only loaded at the schema
    /// it was written at. The indexes have room for `objects` entries.
    mutating func restoreUnique(_ attributes: [Int], expecting objects: Int = 0) {
        pendingUnique = nil
        uniqueAttributes = attributes
        uniqueIndexes = Array(repeating: UniqueIndex(expecting: objects), count: attributes.count)
        compositeIndexes = Array(repeating: [:], count: compositeUniques.count)
    }

    /// The live objects as identifier and slot, oldest identifier first.
    var liveObjectsByAge: [(id: UInt64, slot: Int)] {
        identifiers.enumerated().filter { $0.element != 0 }.map { (id: $0.element, slot: $0.offset) }
            .sorted { $0.id < $1.id }
    }
}
