/// The in-memory state of a store: every live object of every entity as a ``Row``, unique
/// indexes, and relationships kept in step on both sides.
///
/// Opening a store replays its events into a projection; each save applies its events to it.
/// The projection knows only the ``Schema``, never model types, so the `logbook` tool replays
/// stores with exactly this code.
///
/// Events are applied by name: an attribute or relationship is found by its current name or by
/// an `originalName`, names the schema no longer has are dropped, and attributes an event does
/// not mention stay `null`. Inserting an object whose unique attribute collides with a live
/// object merges it into that object (see ``apply(_:)``).
package struct Projection: Sendable {
    /// How a relationship reaches its destination and inverse.
    package struct Link: Hashable, Sendable {
        /// The destination entity's table index.
        package var destination: Int
        /// The inverse relationship's index in the destination entity, if any.
        package var inverse: Int?
        package var isToMany: Bool
        /// Whether events record this side of the pair (see ``Event``); the projection fills in
        /// the other side.
        package var isRecorded: Bool
        /// The tables of the destination's subentities, at every depth, each with the index of
        /// the inverse there: a relationship to a model class holds objects of its subclasses
        /// too. Empty for a destination outside a model hierarchy.
        package var subdestinations: [Destination] = []
    }

    /// A table a relationship's targets may be in, and the inverse relationship's index there.
    package struct Destination: Hashable, Sendable {
        package var table: Int
        package var inverse: Int?
    }

    package let schema: Schema
    package internal(set) var tables: [EntityTable]
    /// For each table, for each relationship: its link.
    package let links: [[Link]]
    private let tableIndex: [String: Int]
    /// The entity names as bytes, by table index.
    let entityNames: [NameBytes]
    /// For each table, the other tables of its model hierarchy (its root's and every
    /// subentity's); empty for an entity outside a hierarchy.
    let hierarchyTables: [[Int]]
    /// For each table, the unique constraints it shares with other tables of its hierarchy
    /// (see ``SharedUnique``); empty for most tables.
    let sharedUniques: [[SharedUnique]]
    /// The slot of every live object in its table, but for those of tables loaded from a
    /// checkpoint with ``EntityTable/loadedIdentifiers`` that are still where they were loaded.
    var slots = IdentifierSlots()
    /// Identifiers below this may be held by a table's ``EntityTable/loadedIdentifiers``: the
    /// counter of the checkpoint they were loaded from; 0 when no table has them.
    var loadedIdentifiersEnd: UInt64 = 0
    /// Identifiers merged away by an upsert, and the identifier they were merged into.
    package internal(set) var aliases: [UInt64: UInt64] = [:]
    /// For each table: how many objects upserts and unique constraints folded into others.
    package internal(set) var foldCounts: [Int]
    /// One more than the largest identifier ever seen.
    package internal(set) var nextIdentifier: UInt64 = 1
    /// The sequence number of the last event applied.
    package internal(set) var lastSequence: UInt64 = 0
    /// The most bytes one table's attribute values may take: a larger allocation fails as one
    /// that `realloc` refuses (see ``EntityTable/reserveRoom(forObjects:limit:)``). Unlimited
    /// but for tests, which make one store's allocations fail this way.
    package var valueBytesLimit = Int.max

    /// Creates an empty projection.
    ///
    /// - Parameters:
    ///   - schema: The schema events are applied at.
    ///   - history: The schemas the store went through before, oldest first, so that names
    ///     changed several versions ago are still found.
    package init(schema: Schema, history: [Schema] = []) {
        self.schema = schema
        let formerNames = schema.formerNames(through: history)
        let tables = schema.entities.map { EntityTable(entity: $0, formerNames: formerNames[$0.name] ?? [:]) }
        var byName: [String: Int] = [:]
        for (index, table) in tables.enumerated() { byName[table.entity.name] = index }
        self.tables = tables
        self.foldCounts = Array(repeating: 0, count: tables.count)
        self.tableIndex = byName
        self.entityNames = tables.map { NameBytes($0.entity.name) }
        let subentities = Self.subentityTables(of: schema, byName)
        self.hierarchyTables = Self.hierarchyTableLists(of: schema, byName, subentities)
        self.sharedUniques = Self.sharedUniqueLists(of: schema, byName, subentities)
        self.links = schema.entities.map { entity in
            entity.relationships.map { relationship in
                let destination = byName[relationship.destination] ?? -1
                func inverse(in table: Int) -> Int? {
                    relationship.inverseName.flatMap { name in
                        table >= 0 ? tables[table].entity.relationships.firstIndex { $0.name == name } : nil
                    }
                }
                return Link(
                    destination: destination,
                    inverse: inverse(in: destination),
                    isToMany: relationship.isToMany,
                    isRecorded: Self.isRecordedSide(entity, relationship, schema),
                    subdestinations: (destination >= 0 ? subentities[destination] : []).map {
                        Destination(table: $0, inverse: inverse(in: $0))
                    }
                )
            }
        }
    }

    /// The table among a relationship's destinations that holds the live object `target`,
    /// with the inverse's index there; `nil` when none does.
    @inline(__always)
    func destination(of link: Link, holding target: UInt64) -> Destination? {
        if link.destination >= 0, contains(link.destination, target) {
            return Destination(table: link.destination, inverse: link.inverse)
        }
        if link.subdestinations.isEmpty { return nil }
        return subdestination(of: link, holding: target)
    }

    /// ``destination(of:holding:)`` among the subentities' tables, out of line.
    @inline(never)
    private func subdestination(of link: Link, holding target: UInt64) -> Destination? {
        link.subdestinations.first { contains($0.table, target) }
    }

    /// The table index of an entity.
    package func table(named name: String) -> Int? {
        tableIndex[name]
    }

    /// Calls `body` with a pointer to a table, valid during the call, so that reading one
    /// object does not copy the table: the subscripts of `Array` and `UnsafeBufferPointer`
    /// return a copy, which retains and releases every one of its columns and indexes, whereas
    /// `pointee` addresses the table in place.
    @inline(__always)
    package func withTable<Result>(
        _ table: Int,
        _ body: (UnsafePointer<EntityTable>) throws -> Result
    ) rethrows -> Result {
        try tables.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, buffer.indices.contains(table) else {
                preconditionFailure("table \(table) is not one of the projection's \(buffer.count)")
            }
            return try body(base + table)
        }
    }

    /// The slot of a live object of a table.
    @inline(__always)
    package func slot(_ table: Int, _ id: UInt64) -> Int? {
        if let slot = slots.slot(of: id) {
            return withTable(table) { $0.pointee.holds(id, at: slot) } ? slot : nil
        }
        guard id < loadedIdentifiersEnd else { return nil }
        return withTable(table) { table in
            guard let slot = table.pointee.loadedIdentifiers?.slot(of: id), table.pointee.holds(id, at: slot)
            else { return nil }
            return slot
        }
    }

    /// The slot of a live object of any table, for an identifier that may be held twice (see
    /// ``place(_:_:in:)``).
    private func anySlot(of id: UInt64) -> Int? {
        if let slot = slots.slot(of: id) { return slot }
        guard id < loadedIdentifiersEnd else { return nil }
        for table in tables.indices {
            if let slot = slot(table, id) { return slot }
        }
        return nil
    }

    /// The unique index's answer for `value` in an attribute of a table: `nil` when the attribute
    /// has no unique index, `.some(nil)` when no object holds the value.
    package func uniqueHolder(_ table: Int, attribute: Int, _ value: AttributeValue) -> UInt64?? {
        uniqueHolderSlot(table, attribute: attribute, value).map { $0?.id }
    }

    /// ``uniqueHolder(_:attribute:_:)`` with the holder's slot in its table, for a caller that
    /// reads the holder's row next (finding the slot again from the identifier was one more
    /// lookup, and one more cache miss, per point lookup), and whether the stored value has the
    /// very bytes of `value`, which the caller can then use in its place.
    func uniqueHolderSlot(_ table: Int, attribute: Int, _ value: AttributeValue) -> UniqueIndex.Holder?? {
        withTable(table) { table in
            // Stored properties of `pointee`, not methods: a method call on it copies the table.
            guard let position = table.pointee.uniqueAttributes.firstIndex(of: attribute) else { return nil }
            return .some(EntityTable.holderSlot(in: table, position, value, hash: UniqueIndex.hash(value)))
        }
    }

    /// Starts loading the bucket where the single unique index of `table` keeps values of
    /// `hash` into the cache; does nothing for a table without exactly one unique attribute.
    @inline(__always)
    func prefetchUniqueBucket(_ table: Int, _ hash: UInt32) {
        withTable(table) { table in
            // Stored properties of `pointee`, not methods: a method call on it copies the table.
            guard table.pointee.uniqueAttributes.count == 1, table.pointee.pendingUnique == nil else { return }
            table.pointee.uniqueIndexes.withUnsafeBufferPointer { indexes in
                guard let first = indexes.baseAddress else { return }
                UniqueIndex.prefetchBucket(in: first, hash)
            }
        }
    }

    /// Starts loading the attribute values of the object in `slot` of a table into the cache,
    /// for a caller that reads them after something else: the two loads then overlap.
    @inline(__always)
    func prefetchValues(_ table: Int, slot: Int) {
        withTable(table) { table in
            // Stored properties of `pointee`, not methods: a method call on it copies the table.
            let width = table.pointee.width
            // The column in place: `withUnsafePointer(to:)` on it would copy it first.
            guard let offset = MemoryLayout<EntityTable>.offset(of: \.values) else { return }
            let column = (UnsafeRawPointer(table) + offset).assumingMemoryBound(to: ValueColumn.self)
            ValueColumn.prefetch(in: column, from: slot &* width, count: width)
        }
    }

    /// The targets of a relationship of a live object of a table; empty for no such object.
    package func targets(_ table: Int, _ id: UInt64, _ relationship: Int) -> [UInt64] {
        guard let slot = slot(table, id) else { return [] }
        return withTable(table) { $0.pointee.targets(slot, relationship) }
    }

    /// Whether a table holds a live object with this identifier.
    package func contains(_ table: Int, _ id: UInt64) -> Bool {
        slot(table, id) != nil
    }

    /// The row of an object, following an upsert's merge.
    package func row(_ table: Int, _ id: UInt64) -> Row? {
        slot(table, resolve(id)).map { tables[table].row(at: $0) }
    }

    /// Makes room in `table` for `objects` more objects, and makes its values its own: what
    /// applying an event to the table needs first (see ``EntityTable/reserveRoom(forObjects:limit:)``).
    ///
    /// - Throws: ``LogbookError/Code/outOfMemory`` when the memory cannot be had; nothing has
    ///   changed then.
    @inline(__always)
    mutating func reserveRoom(_ table: Int, forObjects objects: Int) throws(LogbookError) {
        // A replay reserves for each insert, and there is room nearly every time: that answer
        // is found inline, in place. With a call for each insert, opening, fetching and touching
        // SampleTrips-100k took 2,797 M instructions against 2,758 M before reservations.
        if objects == 1, hasRoomForOneObject(in: table) { return }
        try tables[table].reserveRoom(forObjects: objects, limit: valueBytesLimit)
    }

    /// ``reserveRoom(_:forObjects:)``, answering whether the room could be had instead of
    /// throwing: for the paths of a replay that decline what they cannot apply.
    @inline(__always)
    mutating func hasReservedRoom(_ table: Int, forObjects objects: Int) -> Bool {
        if objects == 1, hasRoomForOneObject(in: table) { return true }
        return reservesRoom(table, forObjects: objects)
    }

    /// The slow half of ``hasReservedRoom(_:forObjects:)``, out of line.
    @inline(never)
    private mutating func reservesRoom(_ table: Int, forObjects objects: Int) -> Bool {
        (try? tables[table].reserveRoom(forObjects: objects, limit: valueBytesLimit)) != nil
    }

    /// Whether `table` holds its values alone, with room for one more object's.
    @inline(__always)
    private mutating func hasRoomForOneObject(in table: Int) -> Bool {
        tables.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress, buffer.indices.contains(table),
                let offset = MemoryLayout<EntityTable>.offset(of: \.values)
            else { return false }
            // Stored properties of `pointee`, not methods: a method call on it copies the table.
            let width = base[table].width
            let column = (UnsafeMutableRawPointer(base + table) + offset).assumingMemoryBound(to: ValueColumn.self)
            return ValueColumn.hasOwnRoom(in: column, for: width)
        }
    }

    /// Makes room for every insert of a batch about to be saved, and makes every table the batch
    /// changes hold its values alone, so that applying the batch allocates no values: a save
    /// calls it before its batch is written, and a failure leaves the store as it was.
    ///
    /// - Throws: ``LogbookError/Code/outOfMemory``, naming the entity; tables reserved before
    ///   the failing one keep their larger capacity, and nothing else changes.
    mutating func reserveRoom(for inserts: DirectInserts, _ events: [Event]) throws(LogbookError) {
        var objects = Array(repeating: 0, count: tables.count)
        var touched = Array(repeating: false, count: tables.count)
        for head in inserts.heads {
            objects[head.table] += 1
            touched[head.table] = true
        }
        for event in events {
            switch event {
            case .insert(let insert):
                guard let table = table(named: insert.entity) else { continue }
                objects[table] += 1
                touched[table] = true
            case .update(let update):
                if let table = table(named: update.entity) { touched[table] = true }
            case .delete(let entity, _, _):
                if let table = table(named: entity) { touched[table] = true }
            case .schema, .migration, .link, .unlink:
                continue
            }
        }
        // An upsert or an update may fold an object into one of another table of its model
        // hierarchy, and an event that names a merged-away object reaches it in its table.
        for table in tables.indices where touched[table] {
            for other in hierarchyTables[table] { touched[other] = true }
        }
        for table in tables.indices where touched[table] {
            try reserveRoom(table, forObjects: objects[table])
        }
    }

    /// ``hasReservedRoom(_:forObjects:)`` for the other tables of `table`'s hierarchy, which an
    /// insert into `table` may fold into when they share a unique constraint: their values are
    /// then their own.
    @inline(__always)
    mutating func hasReservedHierarchyRoom(_ table: Int) -> Bool {
        if sharedUniques[table].isEmpty { return true }
        for other in hierarchyTables[table] where !hasReservedRoom(other, forObjects: 0) { return false }
        return true
    }

    /// Puts `id` in a slot that ``EntityTable/reserveSlot()`` gave. The object is not indexed.
    ///
    /// An identifier names one object in the whole store: a live object that has it already, in
    /// this table or another (which only a damaged or forged log asks for), is replaced, so that
    /// every live object stays reachable by its identifier.
    mutating func place(_ table: Int, _ id: UInt64, in slot: Int) {
        if let old = anySlot(of: id) {
            // The other table's values change without a reservation of their own: only a replay
            // meets an identifier twice, and a replay's projection holds its values alone.
            for other in tables.indices where withTable(other, { $0.pointee.holds(id, at: old) }) {
                tables[other].unindex(id, slot: old)
                tables[other].release(old)
            }
        }
        tables[table].place(id, in: slot)
        slots.set(id, slot: slot)
    }

    /// Frees the slot of a live object, which must already be unindexed.
    mutating func free(_ table: Int, _ id: UInt64, slot: Int) {
        slots.remove(id, ifIn: slot)
        tables[table].release(slot)
    }

    /// The identifier an object is known by now: itself, or the object it was merged into.
    package func resolve(_ id: UInt64) -> UInt64 {
        if aliases.isEmpty { return id }
        var current = id
        while let next = aliases[current], next != current { current = next }
        return current
    }

    /// The objects of a table whose attribute equals `value`; see ``EntityTable/matches(_:_:)``.
    package mutating func matches(table: Int, attribute: Int, value: AttributeValue) -> [UInt64] {
        tables[table].matches(attribute, value)
    }

    /// Hands out a new identifier.
    package mutating func allocateIdentifier() -> UInt64 {
        defer { nextIdentifier += 1 }
        return nextIdentifier
    }

    /// The number of live objects across all entities.
    package var objectCount: Int {
        tables.reduce(0) { $0 + $1.count }
    }

    /// Whether events record `relationship` (rather than its inverse): the to-one side of a
    /// one-to-many pair; otherwise the side whose entity and name sort first; always a
    /// relationship without an inverse.
    static func isRecordedSide(_ entity: Schema.Entity, _ relationship: Schema.Relationship, _ schema: Schema) -> Bool {
        guard let inverseName = relationship.inverseName,
            let inverse = schema.entity(named: relationship.destination)?.relationship(named: inverseName)
        else { return true }
        if relationship.isToMany != inverse.isToMany { return !relationship.isToMany }
        // In a model hierarchy, the entities at its roots: a subentity's inherited relationship
        // is recorded where its superentity's is, and a pair is recorded on one side whichever
        // subentities its two objects are of.
        return (schema.rootEntityName(of: entity.name), relationship.name)
            <= (schema.rootEntityName(of: relationship.destination), inverse.name)
    }
}
