import Foundation

/// The values of a batch that a save keeps in files beside the log, for the encoder to write as
/// references (``EventCodec/ValueTag/external``): the recorded inserts' by their position among
/// the recorded values, the other events' by attribute name and bytes.
package struct ExternalValues: Sendable {
    private struct Key: Hashable {
        let attribute: String
        let bytes: Data
    }

    private var byField: [Key: ExternalReference] = [:]
    /// The references of the recorded inserts' values, by position in ``DirectInserts``.
    private(set) var byInsertPosition: [Int: ExternalReference] = [:]

    package init() {}

    /// Whether no value is kept in a file.
    package var isEmpty: Bool { byField.isEmpty && byInsertPosition.isEmpty }

    /// Records that the value of a recorded insert at `position` is in the file of `reference`.
    mutating func add(insertPosition position: Int, _ reference: ExternalReference) {
        byInsertPosition[position] = reference
    }

    /// Records that `bytes`, as the value of an attribute named `attribute` in an event other
    /// than a recorded insert, are in the file of `reference`.
    package mutating func add(_ attribute: String, _ bytes: Data, _ reference: ExternalReference) {
        byField[Key(attribute: attribute, bytes: bytes)] = reference
    }

    /// The reference of `value` as the value of the attribute named `attribute`, if it is kept
    /// in a file.
    func reference(_ attribute: String, _ value: AttributeValue) -> ExternalReference? {
        guard !byField.isEmpty, case .data(let bytes) = value else { return nil }
        return byField[Key(attribute: attribute, bytes: bytes)]
    }
}

extension Event {
    /// The attribute values an event writes, with its entity and object: an insert's or an
    /// update's attributes, a delete's preserved values; `nil` for other events.
    package var writtenFields: (entity: String, id: UInt64, fields: [Field])? {
        switch self {
        case .insert(let insert): (insert.entity, insert.id, insert.attributes)
        case .update(let update): (update.entity, update.id, update.attributes)
        case .delete(let entity, let id, let preserved): (entity, id, preserved)
        case .schema, .link, .unlink, .migration: nil
        }
    }
}
