/// The objects that lack a value for a non-optional attribute without a default: what a
/// migration must refuse to leave behind.
///
/// A migration finds them in two steps, so that the whole scan happens while its stages still
/// run: ``scan(_:)`` over the log replayed at the final schema, then ``rechecked(in:after:)``
/// once the stages' batches are applied, which looks again only at those objects and at the
/// ones the batches inserted or updated.
struct MandatoryValues {
    /// For each table, for each of its mandatory attributes: the objects without a value.
    private(set) var gaps: [Int: [Int: [UInt64]]] = [:]

    /// The attribute indexes of each table's mandatory attributes, if any.
    private static func mandatory(_ table: EntityTable) -> [Int] {
        table.entity.attributes.indices.filter {
            !table.entity.attributes[$0].isOptional && !table.entity.attributes[$0].hasDefaultValue
        }
    }

    /// Looks at every object of the projection, one pass per table.
    static func scan(_ projection: Projection) -> MandatoryValues {
        var result = MandatoryValues()
        for (tableIndex, table) in projection.tables.enumerated() {
            let attributes = mandatory(table)
            guard !attributes.isEmpty else { continue }
            for (id, row) in table.rows {
                result.note(row, id, attributes, table: tableIndex)
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
                guard let row = table.rows[id] else { continue }
                result.note(row, id, attributes, table: tableIndex)
            }
        }
        return result
    }

    private mutating func note(_ row: Row, _ id: UInt64, _ attributes: [Int], table: Int) {
        for attribute in attributes where row.values[attribute] == .null {
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
