import Foundation

/// What the `logbook` tool does with checkpoints, with nothing but the store: write one at the
/// schema the log recorded last, and check one against a replay of the log.
package enum CheckpointTool {
    /// Writes a checkpoint of the store in `directory` at its last batch, at the newest schema
    /// the log recorded, with the schemas recorded before it as history. Takes the store's
    /// writer lock while it works.
    ///
    /// - Returns: The checkpoint's path, or `nil` for a store that recorded no schema.
    package static func write(store directory: String) throws -> String? {
        let records = try RecordedSchemas.scan(LogReader(directory: directory))
        guard let latest = records.last else { return nil }
        var configuration = ModelConfiguration(url: URL(fileURLWithPath: directory))
        configuration.checkpointInterval = nil
        let store = try Store(
            schema: latest.schema,
            history: records.dropLast().map(\.schema),
            configuration: configuration
        )
        defer { store.close() }
        return try store.writeCheckpoint()
    }

    /// Checks a checkpoint file of the store in `directory`: its own checks, that the log holds
    /// the batch it ends at, and that it holds what a replay of the log up to there gives.
    ///
    /// - Returns: `nil` when it matches; otherwise the first failed check or difference, in words.
    package static func verify(_ path: String, store directory: String) -> String? {
        do {
            let checkpoint = try CheckpointReader(path: path)
            let header = checkpoint.header
            let reader = LogReader(directory: directory)
            let identity = try CheckpointFiles.storeIdentity(of: directory)
            if let identity, identity != header.storeIdentity {
                return
                    "written for another store (first batch checksum 0x\(String(header.storeIdentity, radix: 16)), this store's is 0x\(String(identity, radix: 16)))"
            }
            let records = try RecordedSchemas.scan(reader, through: header.sequence)
            guard let index = records.lastIndex(where: { $0.schema.fingerprint.bytes == header.schemaFingerprint })
            else {
                return
                    "written at schema \(header.schemaVersion), which the log does not record by sequence \(header.sequence)"
            }
            let schema = records[index].schema
            let history = records[..<index].map(\.schema)
            try DurablePointCheck(header.point(source: path)).checkInPlace(
                segments: try reader.segments(),
                maximumBatchSize: 64 << 20,
                syscalls: PosixSyscalls()
            )
            let loaded = try checkpoint.load(schema: schema, history: history).projection
            var replayed = Projection(schema: schema, history: history)
            try EventStream.forEach(reader, through: header.sequence) { sequence, envelope in
                try replayed.apply(envelope.event)
                replayed.lastSequence = sequence
            }
            guard replayed.lastSequence == header.sequence else {
                return "the log ends at sequence \(replayed.lastSequence), before the checkpoint's \(header.sequence)"
            }
            return firstDifference(checkpoint: loaded, log: replayed)
        } catch {
            return "\(error)"
        }
    }

    /// The first difference between the objects of two projections of one schema, in words;
    /// `nil` when they hold the same objects, relationships, aliases and counters.
    package static func firstDifference(checkpoint: Projection, log: Projection) -> String? {
        for index in log.tables.indices {
            let name = log.tables[index].entity.name
            let mine = checkpoint.tables[index].rowsByIdentifier
            let theirs = log.tables[index].rowsByIdentifier
            for id in Set(mine.keys).union(theirs.keys).sorted() {
                guard let row = mine[id] else {
                    return "entity \(name), identifier \(id): in the log, not in the checkpoint"
                }
                guard let other = theirs[id] else {
                    return "entity \(name), identifier \(id): in the checkpoint, not in the log"
                }
                let entity = log.tables[index].entity
                for (position, attribute) in entity.attributes.enumerated()
                where row.values[position] != other.values[position] {
                    return
                        "entity \(name), identifier \(id), attribute \(attribute.name): the checkpoint holds \(row.values[position]), the log \(other.values[position])"
                }
                for (position, relationship) in entity.relationships.enumerated()
                where row.relationships[position] != other.relationships[position] {
                    return
                        "entity \(name), identifier \(id), relationship \(relationship.name): the checkpoint holds \(row.relationships[position]), the log \(other.relationships[position])"
                }
            }
            if checkpoint.tables[index].uniqueAttributes != log.tables[index].uniqueAttributes
                || checkpoint.tables[index].compositeUniques != log.tables[index].compositeUniques
            {
                return "entity \(name): other unique constraints in force"
            }
            if checkpoint.foldCounts[index] != log.foldCounts[index] {
                return
                    "entity \(name): \(checkpoint.foldCounts[index]) folded objects, the log \(log.foldCounts[index])"
            }
        }
        if checkpoint.aliases != log.aliases {
            let first = Set(checkpoint.aliases.keys).union(log.aliases.keys).sorted().first {
                checkpoint.aliases[$0] != log.aliases[$0]
            }
            return "the aliases of folded identifiers differ, first at identifier \(first ?? 0)"
        }
        if checkpoint.nextIdentifier != log.nextIdentifier {
            return "the next identifier is \(checkpoint.nextIdentifier), the log's \(log.nextIdentifier)"
        }
        return nil
    }
}
