import Foundation

/// The values of `.externalStorage` attributes kept in files beside the log (see the
/// `OnDiskFormat` article, External values).
extension Store {
    /// The store's value files and the size from which a value goes there; `nil` for a store
    /// that keeps every value inline: in memory, read-only, in a migration stage, or kept in a
    /// database server.
    var externalStorage: (files: ExternalFiles, threshold: Int)? {
        guard case .log(let log) = sink, log.configuration.external == nil else { return nil }
        let files = ExternalFiles(storeDirectory: log.directory, syscalls: log.configuration.syscalls)
        return (files, log.configuration.externalStorageThreshold)
    }

    /// Whether an entity of the schema has an attribute marked `.externalStorage`.
    var hasExternalStorageAttributes: Bool {
        schema.entities.contains { entity in entity.attributes.contains { $0.options.contains(.externalStorage) } }
    }

    /// Whether a value of an `.externalStorage` attribute is kept in a file: from the
    /// threshold up, and also a smaller value that has the shape of an ``ExternalPlaceholder``,
    /// so that no inline value can ever be taken for a reference to another value's file.
    static func goesToAFile(_ bytes: Data, threshold: Int) -> Bool {
        bytes.count >= threshold || ExternalPlaceholder.reference(in: bytes) != nil
    }

    /// Writes the batch's values that go to files, durably, and returns their references for the
    /// encoder; `nil` when there are none.
    ///
    /// Called before the batch is appended: a crash after it leaves files no batch refers to,
    /// which are harmless, and a failure leaves the store's log and objects as they were.
    ///
    /// - Throws: ``LogbookError/Code/io`` naming the file when a write fails.
    func writeExternalValues(of batch: PreparedBatch, in projection: Projection) throws(LogbookError) -> ExternalValues?
    {
        guard let storage = externalStorage, hasExternalStorageAttributes else { return nil }
        let (files, threshold) = (storage.files, storage.threshold)
        var externals = ExternalValues()
        let inserts = batch.inserts
        for head in inserts.heads {
            let attributes = projection.tables[head.table].entity.attributes
            for position in head.attributes {
                guard attributes[inserts.attributeIndexes[position]].options.contains(.externalStorage) else {
                    continue
                }
                let value = inserts.withValues { $0[position] }
                guard case .data(let bytes) = value, Self.goesToAFile(bytes, threshold: threshold) else { continue }
                externals.add(insertPosition: position, try files.write(bytes))
            }
        }
        for event in batch.events {
            guard let written = event.writtenFields, let table = projection.table(named: written.entity) else {
                continue
            }
            let fields = written.fields
            let attributes = projection.tables[table].entity
            for field in fields {
                guard case .data(let bytes) = field.value, Self.goesToAFile(bytes, threshold: threshold),
                    attributes.attribute(named: field.name)?.options.contains(.externalStorage) == true
                else { continue }
                externals.add(field.name, bytes, try files.write(bytes))
            }
        }
        return externals.isEmpty ? nil : externals
    }
}

extension Store {
    /// Replaces, in a batch that was encoded, each value written to a file with its
    /// ``ExternalPlaceholder``, so that applying the batch leaves the projection holding the
    /// reference and not the bytes.
    static func keepReferences(_ externals: ExternalValues, in inserts: DirectInserts, _ events: inout [Event]) {
        if !externals.byInsertPosition.isEmpty {
            inserts.withValuesToTake { values in
                for (position, reference) in externals.byInsertPosition where values.indices.contains(position) {
                    values[position] = ExternalPlaceholder.value(reference)
                }
            }
        }
        for index in events.indices {
            events[index] = events[index].mappingWrittenFields { field in
                guard let reference = externals.reference(field.name, field.value) else { return field }
                return Event.Field(field.name, ExternalPlaceholder.value(reference))
            }
        }
    }
}

extension Event {
    /// The event with `transform` applied to each attribute value it writes (see
    /// ``writtenFields``); other events as they are.
    func mappingWrittenFields(_ transform: (Field) -> Field) -> Event {
        switch self {
        case .insert(var insert):
            insert.attributes = insert.attributes.map(transform)
            return .insert(insert)
        case .update(var update):
            update.attributes = update.attributes.map(transform)
            return .update(update)
        case .delete(let entity, let id, let preserved):
            return .delete(entity: entity, id: id, preserved: preserved.map(transform))
        case .schema, .link, .unlink, .migration:
            return self
        }
    }
}

extension ExternalFiles {
    /// The event with the bytes of each value kept in a file read in (see
    /// ``Event/Field/external``).
    ///
    /// - Throws: ``LogbookError/Code/corruption`` naming the file, the entity, the attribute and
    ///   the object when a file is missing or does not hold the bytes the reference names.
    package func resolve(_ envelope: EventEnvelope) throws(LogbookError) -> EventEnvelope {
        var event = envelope.event
        switch event {
        case .insert(var insert):
            guard insert.attributes.contains(where: { $0.external != nil }) else { return envelope }
            try resolve(&insert.attributes, entity: insert.entity, id: insert.id)
            event = .insert(insert)
        case .update(var update):
            guard update.attributes.contains(where: { $0.external != nil }) else { return envelope }
            try resolve(&update.attributes, entity: update.entity, id: update.id)
            event = .update(update)
        case .delete(let entity, let id, var preserved):
            guard preserved.contains(where: { $0.external != nil }) else { return envelope }
            try resolve(&preserved, entity: entity, id: id)
            event = .delete(entity: entity, id: id, preserved: preserved)
        case .schema, .link, .unlink, .migration:
            return envelope
        }
        return EventEnvelope(schemaNumber: envelope.schemaNumber, event: event)
    }

    private func resolve(_ fields: inout [Event.Field], entity: String, id: UInt64) throws(LogbookError) {
        for index in fields.indices {
            guard let reference = fields[index].external else { continue }
            fields[index].value = .data(try read(reference, entity: entity, attribute: fields[index].name, id: id))
            fields[index].external = nil
        }
    }
}
