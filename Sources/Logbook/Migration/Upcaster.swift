/// Rewrites an event written at an earlier schema into the names of a later one, the way replay
/// reads it: attributes and relationships found by their current or former names, names the
/// schema no longer has dropped, entities it no longer has dropped.
///
/// The `logbook` tool uses it to show old events as the newest schema sees them.
package struct Upcaster: Sendable {
    private let projection: Projection

    /// - Parameters:
    ///   - schema: The schema to upcast to.
    ///   - history: The schemas before it, oldest first.
    package init(to schema: Schema, history: [Schema]) {
        projection = Projection(schema: schema, history: history)
    }

    /// The event in the target schema's names; `nil` when it concerns an entity the schema no
    /// longer has.
    package func upcast(_ event: Event) -> Event? {
        switch event {
        case .schema, .migration:
            return event
        case .insert(var insert):
            guard let table = projection.table(named: insert.entity) else { return nil }
            insert.attributes = rename(insert.attributes, table)
            insert.toOne = rename(insert.toOne, table)
            return .insert(insert)
        case .update(var update):
            guard let table = projection.table(named: update.entity) else { return nil }
            update.attributes = rename(update.attributes, table)
            update.toOne = rename(update.toOne, table)
            return .update(update)
        case .delete(let entity, let id, let preserved):
            guard let table = projection.table(named: entity) else { return nil }
            return .delete(entity: entity, id: id, preserved: rename(preserved, table))
        case .link(var link):
            guard let name = relationshipName(link.entity, link.relationship) else { return nil }
            link.relationship = name
            return .link(link)
        case .unlink(var link):
            guard let name = relationshipName(link.entity, link.relationship) else { return nil }
            link.relationship = name
            return .unlink(link)
        }
    }

    private func rename(_ fields: [Event.Field], _ table: Int) -> [Event.Field] {
        let entity = projection.tables[table]
        return fields.compactMap { field in
            entity.attributeIndex[field.name].map {
                Event.Field(entity.entity.attributes[$0].name, field.value, external: field.external)
            }
        }
    }

    private func rename(_ references: [Event.Reference], _ table: Int) -> [Event.Reference] {
        let entity = projection.tables[table]
        return references.compactMap { reference in
            entity.relationshipIndex[reference.name].map {
                Event.Reference(entity.entity.relationships[$0].name, reference.target)
            }
        }
    }

    private func relationshipName(_ entity: String, _ name: String) -> String? {
        guard let table = projection.table(named: entity),
            let index = projection.tables[table].relationshipIndex[name]
        else { return nil }
        return projection.tables[table].entity.relationships[index].name
    }
}

/// The schemas a store has recorded, found without decoding every event.
package enum RecordedSchemas {
    /// Every schema record in the log, in order.
    ///
    /// Only the batches that may hold one are decompressed (``LogReader/schemaRecordBatches(through:)``):
    /// in a store written at format version 2, the few that a container's first save or a
    /// migration wrote.
    ///
    /// - Throws: ``LogbookError`` for damaged batches, and for a schema record that does not
    ///   decode, naming its segment, the batch's byte offset and the event's sequence number.
    package static func scan(
        _ reader: LogReader,
        through sequence: UInt64 = .max
    ) throws(LogbookError) -> [Event.SchemaRecord] {
        var cursor = reader.schemaRecordBatches(through: sequence)
        var records: [Event.SchemaRecord] = []
        while let batch = try cursor.next() {
            for index in 0..<batch.count where batch.firstSequence + UInt64(index) <= sequence {
                let bytes = batch.event(at: index)
                guard bytes.first == EventCodec.Kind.schema.rawValue else { continue }
                let envelope: EventEnvelope
                do {
                    envelope = try EventCodec.decode(bytes)
                } catch {
                    var located = error
                    located.path = batch.segment
                    located.offset = batch.offset
                    located.sequence = batch.firstSequence + UInt64(index)
                    throw located
                }
                if case .schema(let record) = envelope.event { records.append(record) }
            }
            if batch.lastSequence >= sequence { break }
        }
        return records
    }
}
