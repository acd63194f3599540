import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Projection {
    /// The events of a compaction base for the history of a store up to and including
    /// `horizon` (see `OnDiskFormat`, Compaction base): the schema records and migration markers
    /// as written, then one insert per live object and one link per recorded to-many
    /// relationship with targets, at the newest schema recorded by then.
    ///
    /// Inserts are ordered so that every to-one target is inserted before the objects that
    /// refer to it, as replay needs; a reference in a cycle of to-one references is written as
    /// an update after the inserts.
    ///
    /// - Throws: ``LogbookError`` for damage in the log, or an event that does not decode.
    static func compactionBase(_ reader: LogReader, through horizon: UInt64) throws -> [CompactionBase.Event] {
        let records = try RecordedSchemas.scan(reader, through: horizon)
        var metadata: [CompactionBase.Event] = []
        guard let latest = records.last else {
            // No schema recorded: only raw events, which a base cannot stand for.
            throw LogbookError(
                .invalidArgument,
                "the history up to token \(horizon) recorded no schema, so its objects cannot be described; nothing was deleted",
                path: reader.directory,
                sequence: horizon
            )
        }
        var projection = Projection(schema: latest.schema, history: records.dropLast().map(\.schema))
        try EventStream.forEach(
            reader,
            through: horizon,
            predecoder: nil,
            // Values kept in files stay there: the base refers to the same files.
            keepingExternalReferences: true,
            shortcut: { sequence, bytes in
                if let kind = bytes.first,
                    kind == EventCodec.Kind.schema.rawValue || kind == EventCodec.Kind.migration.rawValue
                {
                    metadata.append(CompactionBase.Event(bytes: Array(bytes), refersToExternalValue: false))
                    return false
                }
                return projection.applyChange(bytes, sequence: sequence)
            },
            { sequence, envelope in
                try projection.apply(envelope.event)
                projection.lastSequence = sequence
            }
        )
        let externals = ExternalFiles(storeDirectory: reader.directory, syscalls: reader.syscalls)
        var writer = BaseWriter(projection: projection, schemaNumber: latest.number, externals: externals)
        writer.writeObjects()
        return metadata + writer.events
    }
}

/// Writes the objects of a projection as base events.
private struct BaseWriter {
    let projection: Projection
    let schemaNumber: UInt32
    let externals: ExternalFiles
    var events: [CompactionBase.Event] = []
    /// References left out of inserts because they close a cycle: written as updates.
    private var deferred: [(table: Int, id: UInt64, relationship: Int, target: UInt64)] = []

    init(projection: Projection, schemaNumber: UInt32, externals: ExternalFiles) {
        self.projection = projection
        self.schemaNumber = schemaNumber
        self.externals = externals
    }

    private struct Key: Hashable {
        var table: Int
        var id: UInt64
    }

    mutating func writeObjects() {
        var done: Set<Key> = []
        var visiting: Set<Key> = []
        for (table, entityTable) in projection.tables.enumerated() {
            for (id, _) in entityTable.identifiersInOrder() {
                let key = Key(table: table, id: id)
                guard !done.contains(key) else { continue }
                // Depth first over to-one targets, without recursion: chains may be long.
                var stack: [(key: Key, expanded: Bool)] = [(key, false)]
                while let entry = stack.popLast() {
                    let (current, expanded) = (entry.key, entry.expanded)
                    if done.contains(current) { continue }
                    if expanded {
                        visiting.remove(current)
                        done.insert(current)
                        writeInsert(current.table, current.id, done: done)
                        continue
                    }
                    visiting.insert(current)
                    stack.append((current, true))
                    for target in toOneTargets(current.table, current.id) {
                        let targetKey = Key(table: target.table, id: target.id)
                        if !done.contains(targetKey) && !visiting.contains(targetKey) {
                            stack.append((targetKey, false))
                        }
                    }
                }
            }
        }
        for reference in deferred {
            let entity = projection.tables[reference.table].entity
            let update = Event.Update(
                entity: entity.name,
                id: reference.id,
                attributes: [],
                toOne: [Event.Reference(entity.relationships[reference.relationship].name, reference.target)]
            )
            append(.update(update), external: false)
        }
        for (table, entityTable) in projection.tables.enumerated() {
            let entity = entityTable.entity
            for (id, slot) in entityTable.identifiersInOrder() {
                let row = entityTable.row(at: slot)
                for (index, relationship) in entity.relationships.enumerated()
                where relationship.isToMany && projection.links[table][index].isRecorded
                    && !row.relationships[index].isEmpty
                {
                    let link = Event.Link(
                        entity: entity.name,
                        id: id,
                        relationship: relationship.name,
                        targets: row.relationships[index]
                    )
                    append(.link(link), external: false)
                }
            }
        }
    }

    /// The live objects a recorded to-one relationship of an object refers to.
    private func toOneTargets(_ table: Int, _ id: UInt64) -> [(table: Int, id: UInt64)] {
        guard let row = projection.row(table, id) else { return [] }
        var targets: [(table: Int, id: UInt64)] = []
        for (index, link) in projection.links[table].enumerated()
        where !link.isToMany && link.isRecorded && link.destination >= 0 {
            if let target = row.relationships[index].first, projection.contains(link.destination, target) {
                targets.append((link.destination, target))
            }
        }
        return targets
    }

    private mutating func writeInsert(_ table: Int, _ id: UInt64, done: Set<Key>) {
        guard let row = projection.row(table, id) else { return }
        let entity = projection.tables[table].entity
        var external = false
        var fields: [Event.Field] = []
        for (attribute, value) in zip(entity.attributes, row.values) {
            var field = Event.Field(attribute.name, value)
            if attribute.options.contains(.externalStorage), let reference = ExternalPlaceholder.reference(in: value) {
                field = Event.Field(attribute.name, .null, external: reference)
                external = true
            } else if attribute.options.contains(.externalStorage), case .data(let bytes) = value {
                let reference = ExternalReference(of: bytes)
                if fileExists(externals.path(of: reference)) {
                    field.external = reference
                    external = true
                }
            }
            fields.append(field)
        }
        var references: [Event.Reference] = []
        for (index, link) in projection.links[table].enumerated()
        where !link.isToMany && link.isRecorded {
            guard let target = row.relationships[index].first, link.destination >= 0 else { continue }
            if done.contains(Key(table: link.destination, id: target)) {
                references.append(Event.Reference(entity.relationships[index].name, target))
            } else {
                deferred.append((table, id, index, target))
            }
        }
        append(
            .insert(Event.Insert(entity: entity.name, id: id, attributes: fields, toOne: references)),
            external: external
        )
    }

    private mutating func append(_ event: Event, external: Bool) {
        let bytes = EventCodec.encode(EventEnvelope(schemaNumber: schemaNumber, event: event))
        events.append(CompactionBase.Event(bytes: bytes, refersToExternalValue: external))
    }

    private func fileExists(_ path: String) -> Bool {
        guard let file = try? SystemFile.open(path, flags: O_RDONLY, syscalls: externals.syscalls) else { return false }
        file.close()
        return true
    }
}
