import Foundation

/// A change, as the log records it.
///
/// Each save appends one batch of events. Events name entities, attributes and relationships by
/// the names of the schema they were written at, and carry that schema's number in the store
/// (``EventEnvelope/schemaNumber``), so that replay can upcast old events and the `logbook` tool
/// can decode any store without the application's code.
///
/// Relationships with an inverse are recorded on one side only and the projection keeps the
/// other side in step: the to-one side when there is one (an item's `trip`, not the trip's
/// `bucketList`), otherwise the side whose name sorts first.
package enum Event: Hashable, Sendable {
    /// The schema in force, recorded the first time a container writes with it.
    case schema(SchemaRecord)
    /// A new object with its attribute values and to-one targets.
    case insert(Insert)
    /// Changed attributes and to-one targets of an existing object.
    case update(Update)
    /// An object deleted; delete rules were applied at save time and recorded as events of their own.
    ///
    /// `preserved` holds the values of the attributes marked `.preserveValueOnDeletion` as the
    /// object had them (from format version 4; empty in older stores), for history's tombstones.
    case delete(entity: String, id: UInt64, preserved: [Field] = [])
    /// Targets added to a to-many relationship.
    case link(Link)
    /// Targets removed from a to-many relationship.
    case unlink(Link)
    /// A migration stage completed; see the migration article.
    case migration(MigrationMarker)

    /// A recorded schema: its number in this store, version, fingerprint and full description.
    package struct SchemaRecord: Hashable, Sendable {
        /// 1 for the first schema recorded in the store, 2 for the next, and so on.
        package var number: UInt32
        package var version: Schema.Version
        package var fingerprint: String
        package var schema: Schema
    }

    package struct Insert: Hashable, Sendable {
        package var entity: String
        package var id: UInt64
        package var attributes: [Field]
        package var toOne: [Reference]
    }

    package struct Update: Hashable, Sendable {
        package var entity: String
        package var id: UInt64
        package var attributes: [Field]
        package var toOne: [Reference]
    }

    package struct Link: Hashable, Sendable {
        package var entity: String
        package var id: UInt64
        package var relationship: String
        package var targets: [UInt64]
    }

    /// An attribute's name and value.
    package struct Field: Hashable, Sendable {
        package var name: String
        package var value: AttributeValue
        /// The file that holds the value's bytes, when the event was decoded without reading
        /// it: then ``value`` is `null` until ``ExternalFiles/resolve(_:)`` reads them. `nil`
        /// for a value stored inline, and for one whose bytes were read.
        package var external: ExternalReference?

        package init(_ name: String, _ value: AttributeValue, external: ExternalReference? = nil) {
            self.name = name
            self.value = value
            self.external = external
        }
    }

    /// A to-one relationship's name and target, `nil` when it is cleared.
    package struct Reference: Hashable, Sendable {
        package var name: String
        package var target: UInt64?

        package init(_ name: String, _ target: UInt64?) {
            self.name = name
            self.target = target
        }
    }

    package struct MigrationMarker: Hashable, Sendable {
        package var fromVersion: Schema.Version
        package var toVersion: Schema.Version
        /// The fingerprints of the two schemas.
        package var fromFingerprint: String
        package var toFingerprint: String
        /// `true` for a custom stage, whose closures ran in this batch.
        package var isCustom: Bool
    }
}

/// An event with the number of the schema it was written at.
package struct EventEnvelope: Hashable, Sendable {
    package var schemaNumber: UInt32
    package var event: Event

    package init(schemaNumber: UInt32, event: Event) {
        self.schemaNumber = schemaNumber
        self.event = event
    }
}
