/// The names an insert event spells, by table, each encoded once per store: encoding an insert
/// that ``DirectInserts`` recorded then copies bytes instead of encoding strings.
struct InsertNames: Sendable {
    /// Each table's entity name.
    let entities: [EncodedString]
    /// Each table's attribute names, by attribute index.
    let attributes: [[EncodedString]]
    /// Each table's relationship names, by relationship index.
    let relationships: [[EncodedString]]

    init(_ projection: Projection) {
        entities = projection.tables.map { EncodedString($0.entity.name) }
        attributes = projection.tables.map { $0.entity.attributes.map { EncodedString($0.name) } }
        relationships = projection.tables.map { $0.entity.relationships.map { EncodedString($0.name) } }
    }
}

extension EventCodec {
    /// Appends one insert event for each insert `inserts` recorded, in order, at the current
    /// schema: the bytes a save writes for them, the same an insert encoded on its own gives
    /// (entity, identifier, each attribute in the order recorded, each to-one reference).
    ///
    /// - Returns: where each insert's bytes are in `payload`.
    @discardableResult
    static func appendInserts(
        _ inserts: DirectInserts,
        names: InsertNames,
        schemaNumber: UInt32,
        to payload: inout BatchPayload
    ) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(inserts.heads.count)
        for head in inserts.heads {
            let attributeNames = names.attributes[head.table]
            let relationshipNames = names.relationships[head.table]
            let range = payload.appendEvent { writer in
                writeInsert(
                    schemaNumber: schemaNumber,
                    entity: names.entities[head.table],
                    id: head.id,
                    attributeCount: head.attributes.count,
                    attributes: { writer in
                        for position in head.attributes {
                            writeField(
                                attributeNames[inserts.attributeIndexes[position]],
                                inserts.values[position],
                                into: &writer
                            )
                        }
                    },
                    referenceCount: head.references.count,
                    references: { writer in
                        for position in head.references {
                            let reference = inserts.references[position]
                            writeReference(relationshipNames[reference.relationship], reference.target, into: &writer)
                        }
                    },
                    into: &writer
                )
            }
            ranges.append(range)
        }
        return ranges
    }
}
