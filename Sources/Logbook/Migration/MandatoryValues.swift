/// The objects that lack a value for a non-optional attribute without a default: what a
/// migration must refuse to leave behind.
///
/// A migration finds them in two steps, so that the whole scan happens while its stages still
/// run: ``scan(_:)`` over the log replayed at the final schema, then ``rechecked(in:after:)``
/// once the stages' batches are applied, which looks again only at those objects and at the
/// ones the batches inserted or updated.
struct MandatoryValues {
    /// For each table, for each of its mandatory attributes: the objects without a value.
    private var gaps: [Int: [Int: [UInt64]]] = [:]

    /// The attribute indexes of each table's mandatory attributes, if any.
    private static func mandatory(_ table: EntityTable) -> [Int] {
        table.entity.attributes.indices.filter {
            !table.entity.attributes[$0].isOptional && !table.entity.attributes[$0].hasDefaultValue
        }
    }

    /// Looks at every object of the projection, one pass per table.
    ///
    /// - Parameter skipping: For each table, mandatory attributes that no object can lack
    ///   (see ``alwaysPresent(in:plan:recorded:)``).
    static func scan(_ projection: Projection, skipping: [Int: Set<Int>] = [:]) -> MandatoryValues {
        var result = MandatoryValues()
        for (tableIndex, table) in projection.tables.enumerated() {
            let skipped = skipping[tableIndex] ?? []
            let attributes = mandatory(table).filter { !skipped.contains($0) }
            guard !attributes.isEmpty else { continue }
            for (id, slot) in table.identifiersInOrder() {
                result.note(table, slot, id, attributes, table: tableIndex)
            }
        }
        return result
    }

    /// The mandatory attributes of the plan's current schema that every object in the log
    /// has a value for, by table index of `projection`: those that every schema the store can
    /// have been written with declares, under their current name or a former one, as
    /// non-optional. An object saved at any of those versions had a value; an older store
    /// reached a recorded version only through a migration that made sure of it.
    ///
    /// - Parameters:
    ///   - plan: The migration plan.
    ///   - recorded: The fingerprints of every schema the log records; when one of them is
    ///     not in the plan, nothing is known and nothing is skipped.
    static func alwaysPresent(
        in projection: Projection,
        plan: MigrationPlanChain,
        recorded: some Collection<String>
    )
        -> [Int: Set<Int>]
    {
        let indexes = recorded.map { plan.index(ofFingerprint: $0) }
        guard let first = indexes.compactMap({ $0 }).min(), !indexes.contains(nil) else { return [:] }
        let versions = plan.schemas[first...plan.currentIndex]
        let formerNames = plan.current.formerNames(through: plan.history)
        var result: [Int: Set<Int>] = [:]
        for (tableIndex, table) in projection.tables.enumerated() {
            let entity = table.entity
            for attribute in mandatory(table) {
                let description = entity.attributes[attribute]
                var names: Set<String> = [description.name]
                if let original = description.originalName { names.insert(original) }
                names.formUnion(formerNames[entity.name]?[description.name] ?? [])
                let declaredEverywhere = versions.allSatisfy { schema in
                    guard let earlier = schema.entity(named: entity.name) else { return false }
                    return earlier.attributes.contains { names.contains($0.name) && !$0.isOptional }
                }
                if declaredEverywhere { result[tableIndex, default: []].insert(attribute) }
            }
        }
        return result
    }

    /// Looks again at the objects of ``gaps`` and at those `pending` inserted or updated, now
    /// that `pending` is applied to `projection`; scans everything when an event names an
    /// entity the projection does not know by that name.
    func rechecked(in projection: Projection, after pending: [EventEnvelope]) -> MandatoryValues {
        var candidates: [Int: Set<UInt64>] = gaps.mapValues { Set($0.values.joined()) }
        for envelope in pending {
            let touched: (entity: String, id: UInt64)
            switch envelope.event {
            case .insert(let insert): touched = (insert.entity, insert.id)
            case .update(let update): touched = (update.entity, update.id)
            default: continue
            }
            guard let table = projection.table(named: touched.entity) else { return Self.scan(projection) }
            candidates[table, default: []].insert(projection.resolve(touched.id))
        }
        var result = MandatoryValues()
        for (tableIndex, ids) in candidates {
            let table = projection.tables[tableIndex]
            let attributes = Self.mandatory(table)
            guard !attributes.isEmpty else { continue }
            for id in ids {
                guard let slot = projection.slot(tableIndex, id) else { continue }
                result.note(table, slot, id, attributes, table: tableIndex)
            }
        }
        return result
    }

    private mutating func note(_ rows: EntityTable, _ slot: Int, _ id: UInt64, _ attributes: [Int], table: Int) {
        for attribute in attributes where rows.value(slot, attribute) == .null {
            gaps[table, default: [:]][attribute, default: []].append(id)
        }
    }

    /// The first gap in schema order, as entity, attribute and how many objects lack a value.
    func first(in projection: Projection) -> (entity: String, attribute: String, count: Int)? {
        for table in gaps.keys.sorted() {
            guard let attributes = gaps[table], let attribute = attributes.keys.sorted().first else { continue }
            let entity = projection.tables[table].entity
            return (entity.name, entity.attributes[attribute].name, attributes[attribute]?.count ?? 0)
        }
        return nil
    }
}
