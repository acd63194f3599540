import Foundation

/// Turns the batches of a log into history transactions for the model types of a schema:
/// what ``ModelContext/fetchHistory(_:)``, ``ModelContainer/changes(after:)`` and the tool
/// share.
///
/// Events written at an older schema are read as replay reads them, through an ``Upcaster``
/// to the schema's names; changes to entities the schema has no model type for are left out.
struct HistoryReader: Sendable {
    let schema: Schema
    let storeIdentifier: String
    private let upcaster: Upcaster

    /// - Parameters:
    ///   - schema: The schema whose model types the changes are reported as.
    ///   - history: The schemas before it, oldest first, as the container's migration plan
    ///     lists them.
    ///   - storeIdentifier: The store's directory.
    init(schema: Schema, history: [Schema], storeIdentifier: String) {
        self.schema = schema
        self.storeIdentifier = storeIdentifier
        self.upcaster = Upcaster(to: schema, history: history)
    }

    /// The transaction of a batch without its changes, for a predicate to look at first.
    func header(of batch: Batch) throws(LogbookError) -> DefaultHistoryTransaction {
        let record = try batch.transaction()
        let token = DefaultHistoryToken(sequence: batch.lastSequence)
        return DefaultHistoryTransaction(
            token: token,
            transactionIdentifier: token,
            author: record?.author,
            timestamp: record?.timestamp ?? .distantPast,
            storeIdentifier: storeIdentifier,
            changes: []
        )
    }

    /// The transaction of a batch with its changes.
    ///
    /// - Throws: ``LogbookError/Code/corruption`` naming the segment, offset and sequence
    ///   number of an event or transaction record that does not decode.
    func transaction(of batch: Batch) throws(LogbookError) -> DefaultHistoryTransaction {
        let header = try header(of: batch)
        let changes = try ChangeList(batch, upcaster: upcaster)
        return DefaultHistoryTransaction(
            token: header.token,
            transactionIdentifier: header.transactionIdentifier,
            author: header.author,
            timestamp: header.timestamp,
            storeIdentifier: storeIdentifier,
            changes: changes.entries.compactMap { change($0, token: header.token) }
        )
    }

    private func change(_ entry: ChangeList.Entry, token: DefaultHistoryToken) -> HistoryChange? {
        guard let type = schema.modelType(forEntity: entry.entity) else { return nil }
        func open<Model: PersistentModel>(_: Model.Type) -> HistoryChange {
            let id = PersistentIdentifier(entityName: entry.entity, number: entry.id)
            switch entry.kind {
            case .insert:
                return .insert(
                    DefaultHistoryInsert<Model>(
                        changedPersistentIdentifier: id,
                        changeIdentifier: entry.sequence,
                        transactionIdentifier: token,
                        fields: entry.fields
                    )
                )
            case .update:
                return .update(
                    DefaultHistoryUpdate<Model>(
                        changedPersistentIdentifier: id,
                        changeIdentifier: entry.sequence,
                        transactionIdentifier: token,
                        fields: entry.fields,
                        names: entry.names,
                        links: entry.links
                    )
                )
            case .delete:
                return .delete(
                    DefaultHistoryDelete<Model>(
                        changedPersistentIdentifier: id,
                        changeIdentifier: entry.sequence,
                        transactionIdentifier: token,
                        tombstone: HistoryTombstone(fields: entry.fields)
                    )
                )
            }
        }
        return open(type)
    }
}

/// The changes of one batch, one entry per object: the events a save wrote for one object
/// (an update and links, say) are one change. The `logbook` tool prints them.
package struct ChangeList {
    /// The change of one object.
    package struct Entry {
        package enum Kind: String { case insert, update, delete }
        package var kind: Kind
        package var entity: String
        package var id: UInt64
        /// The sequence number of the object's first event in the batch.
        package var sequence: UInt64
        /// Attribute values: written by an insert or update, preserved by a delete.
        package var fields: [Event.Field] = []
        /// The names of the attributes and relationships an update wrote.
        package var names: Set<String> = []
        /// The relationships an update wrote, by name.
        package var links = RelationshipChanges()
    }

    package private(set) var entries: [Entry] = []
    private var positions: [UInt64: Int] = [:]

    /// The changes of a batch, read through `upcaster` when given (the events as written
    /// otherwise).
    ///
    /// - Throws: ``LogbookError/Code/corruption`` naming the segment, offset and sequence
    ///   number of an event that does not decode.
    package init(_ batch: Batch, upcaster: Upcaster?) throws(LogbookError) {
        for index in 0..<batch.count {
            let sequence = batch.firstSequence + UInt64(index)
            let envelope = try batch.resolvedEvent(at: index, sequence: sequence)
            if let upcaster {
                guard let event = upcaster.upcast(envelope.event) else { continue }
                add(event, sequence: sequence)
            } else {
                add(envelope.event, sequence: sequence)
            }
        }
    }

    private mutating func add(_ event: Event, sequence: UInt64) {
        switch event {
        case .schema, .migration:
            return
        case .insert(let insert):
            positions[insert.id] = entries.count
            entries.append(
                Entry(
                    kind: .insert,
                    entity: insert.entity,
                    id: insert.id,
                    sequence: sequence,
                    fields: insert.attributes
                )
            )
        case .update(let update):
            let names = update.attributes.map(\.name) + update.toOne.map(\.name)
            var links = RelationshipChanges()
            for reference in update.toOne { links.toOne[reference.name] = .some(reference.target) }
            addUpdate(update.entity, update.id, sequence, update.attributes, names, links)
        case .link(let link):
            var links = RelationshipChanges()
            links.added[link.relationship] = link.targets
            addUpdate(link.entity, link.id, sequence, [], [link.relationship], links)
        case .unlink(let link):
            var links = RelationshipChanges()
            links.removed[link.relationship] = link.targets
            addUpdate(link.entity, link.id, sequence, [], [link.relationship], links)
        case .delete(let entity, let id, let preserved):
            let entry = Entry(kind: .delete, entity: entity, id: id, sequence: sequence, fields: preserved)
            if let position = positions[id] {
                entries[position] = entry
            } else {
                positions[id] = entries.count
                entries.append(entry)
            }
        }
    }

    /// Merges an update, link or unlink into the object's entry. The references an insert sets
    /// after the objects it refers to exist are part of the insert, and a deleted object's
    /// changes of the same save are part of its delete.
    private mutating func addUpdate(
        _ entity: String,
        _ id: UInt64,
        _ sequence: UInt64,
        _ fields: [Event.Field],
        _ names: [String],
        _ links: RelationshipChanges
    ) {
        guard let position = positions[id] else {
            positions[id] = entries.count
            entries.append(
                Entry(
                    kind: .update,
                    entity: entity,
                    id: id,
                    sequence: sequence,
                    fields: fields,
                    names: Set(names),
                    links: links
                )
            )
            return
        }
        guard entries[position].kind == .update else { return }
        for field in fields {
            if let index = entries[position].fields.firstIndex(where: { $0.name == field.name }) {
                entries[position].fields[index] = field
            } else {
                entries[position].fields.append(field)
            }
        }
        entries[position].names.formUnion(names)
        entries[position].links.merge(links)
    }
}
