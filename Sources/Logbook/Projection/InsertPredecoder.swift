import Foundation
import Synchronization

/// Decodes the inserts of a batch into ``DirectInserts`` ahead of a replay, on the thread that
/// reads the batch, so that the replaying thread only applies them: making their strings and
/// finding their tables, attributes and relationships by name then costs the replay no time of
/// its own when a second core is free.
///
/// It decodes an insert exactly as ``Projection/applyInsertKeepingSurvivor(_:sequence:)`` reads
/// one, from the same names. An event it does not take (not an insert, an entity it does not
/// know by its current name, a cleared reference, damaged bytes) is left to the replay, which
/// decodes it in order as before.
struct InsertPredecoder: Sendable {
    /// The names of one table, as the projection finds them.
    private struct TableNames: Sendable {
        let entity: NameBytes
        /// Where a batch's search for attributes starts.
        let fields: FieldNames
        let relationships: RelationshipNames
        /// The schema's unique attribute when it has exactly one, whose values the predecoder
        /// hashes for the index (``DirectInserts/uniqueHashes``); -1 otherwise. See
        /// ``EntityTable/hashedUniqueAttribute``.
        let uniqueAttribute: Int
    }

    private let tables: [TableNames]

    /// Whether to go on decoding ahead: a migration turns it off for the rest of its replay
    /// once its stages need the second core.
    let isOn: Switch?

    /// A switch that another thread can turn off.
    final class Switch: Sendable {
        private let on = Atomic<Bool>(true)

        init() {}

        var isOn: Bool { on.load(ordering: .relaxed) }

        func turnOff() { on.store(false, ordering: .relaxed) }
    }

    /// Whether a replay decodes ahead.
    enum Policy {
        /// When the machine has a second core.
        case whenACoreIsFree
        /// Never: the replay of a migration stage, whose thread already runs beside another
        /// replay.
        case never
        /// As ``whenACoreIsFree``, until the switch is turned off.
        case until(Switch)
    }

    /// A predecoder for a replay of `projection` under `policy`; `nil` on a machine with one
    /// core: decoding ahead costs more instructions in all than decoding in order (about a
    /// third more on SampleTrips), which only a second core hides.
    static func forReplay(of projection: Projection, _ policy: Policy = .whenACoreIsFree) -> InsertPredecoder? {
        guard ProcessInfo.processInfo.activeProcessorCount > 1 else { return nil }
        switch policy {
        case .whenACoreIsFree: return InsertPredecoder(projection)
        case .never: return nil
        case .until(let isOn): return InsertPredecoder(projection, switch: isOn)
        }
    }

    init(_ projection: Projection, switch isOn: Switch? = nil) {
        self.isOn = isOn
        tables = projection.tables.indices.map { index in
            TableNames(
                entity: projection.entityNames[index],
                fields: projection.tables[index].fieldNames,
                relationships: projection.tables[index].relationshipNames,
                uniqueAttribute: projection.tables[index].hashedUniqueAttribute
            )
        }
    }

    /// How many events it decodes between two calls of the `until` of
    /// ``predecode(_:until:)``.
    static let eventsBetweenLooks = 64

    /// The inserts of `batch` it takes, and for each event of the batch the index of its
    /// insert in them, or -1 for an event left to the replay.
    ///
    /// - Parameter stop: Asked before the first event and every ``eventsBetweenLooks`` events
    ///   after it; once it returns `true`, the events not decoded yet are left to the replay
    ///   (a replay asks whether its thread waits for the batch).
    func predecode(_ batch: Batch, until stop: () -> Bool = { false }) -> PredecodedInserts {
        let inserts = DirectInserts()
        // Most events are inserts.
        inserts.reserveCapacity(forInserts: batch.count)
        var positions = [Int](repeating: -1, count: batch.count)
        // Each table's search for attributes, from where the projection's started.
        var fields = tables.map(\.fields)
        batch.payload.withUnsafeBytes { payload in
            for index in 0..<batch.count {
                if index % Self.eventsBetweenLooks == 0, stop() { break }
                let range = batch.eventRanges[index]
                let bytes = UnsafeRawBufferPointer(rebasing: payload[range])
                var table = -1
                var position = 0
                var taken = true
                var uniqueHash: UInt32?
                let read = EventCodec.readChange(
                    bytes,
                    head: { head in
                        guard !head.isUpdate, head.id != 0, let found = self.table(matching: head.entity) else {
                            return false
                        }
                        table = found
                        inserts.begin(table: found, id: head.id)
                        return true
                    },
                    attribute: { name, value in
                        defer { position += 1 }
                        guard taken else { return }
                        let attribute = fields[table].attribute(named: name, at: position)
                        guard let attribute else { return }
                        let decoded: AttributeValue
                        switch value {
                        case .scalar(let scalar): decoded = scalar
                        case .string(let text): decoded = .string(String(decoding: text, as: UTF8.self))
                        }
                        // The value the slot ends up with is the last one the event gives.
                        if attribute == tables[table].uniqueAttribute {
                            if case .null = decoded { uniqueHash = nil } else { uniqueHash = UniqueIndex.hash(decoded) }
                        }
                        inserts.attribute(attribute, decoded)
                    },
                    reference: { name, target in
                        guard taken else { return }
                        guard let target else {
                            taken = false
                            return
                        }
                        guard let relationship = tables[table].relationships.relationship(named: name) else { return }
                        inserts.reference(relationship, target)
                    }
                )
                guard table >= 0 else { continue }
                if read && taken {
                    inserts.end()
                    if let uniqueHash { inserts.setUniqueHash(uniqueHash) }
                    positions[index] = inserts.heads.count - 1
                } else {
                    inserts.cancel()
                }
            }
        }
        return PredecodedInserts(inserts: inserts, positions: positions)
    }

    private func table(matching bytes: UnsafeRawBufferPointer) -> Int? {
        for index in tables.indices where tables[index].entity.matches(bytes) { return index }
        return nil
    }
}

/// The inserts of a batch that ``InsertPredecoder`` decoded.
struct PredecodedInserts: Sendable {
    let inserts: DirectInserts
    /// For each event of the batch: the index of its insert in ``inserts``, or -1.
    let positions: [Int]
}
