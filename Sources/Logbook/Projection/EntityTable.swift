/// The rows of one entity, with its unique indexes and the name lookups that replay needs.
package struct EntityTable: Sendable {
    package let entity: Schema.Entity
    /// Every live object of the entity, by identifier.
    package internal(set) var rows: [UInt64: Row] = [:]
    /// For each unique attribute (by attribute index): value to identifier.
    package internal(set) var uniqueIndexes: [Int: [AttributeValue: UInt64]] = [:]
    /// Attribute index by current name and by every original name.
    let attributeIndex: [String: Int]
    /// Relationship index by current name and by every original name.
    let relationshipIndex: [String: Int]

    init(entity: Schema.Entity) {
        self.entity = entity
        var attributes: [String: Int] = [:]
        for (index, attribute) in entity.attributes.enumerated() {
            if let original = attribute.originalName { attributes[original] = index }
        }
        for (index, attribute) in entity.attributes.enumerated() { attributes[attribute.name] = index }
        attributeIndex = attributes
        var relationships: [String: Int] = [:]
        for (index, relationship) in entity.relationships.enumerated() {
            if let original = relationship.originalName { relationships[original] = index }
        }
        for (index, relationship) in entity.relationships.enumerated() { relationships[relationship.name] = index }
        relationshipIndex = relationships
        for (index, attribute) in entity.attributes.enumerated() where attribute.isUnique {
            uniqueIndexes[index] = [:]
        }
    }

    /// A row with every attribute `null` and every relationship empty.
    var emptyRow: Row {
        Row(
            values: Array(repeating: .null, count: entity.attributes.count),
            relationships: Array(repeating: [], count: entity.relationships.count)
        )
    }

    /// The identifier holding `value` in the unique attribute at `attribute`.
    package func lookup(unique attribute: Int, _ value: AttributeValue) -> UInt64? {
        uniqueIndexes[attribute]?[value]
    }

    mutating func index(_ id: UInt64, _ row: Row) {
        for attribute in uniqueIndexes.keys where row.values[attribute] != .null {
            uniqueIndexes[attribute]?[row.values[attribute]] = id
        }
    }

    mutating func unindex(_ id: UInt64, _ row: Row) {
        for attribute in uniqueIndexes.keys where uniqueIndexes[attribute]?[row.values[attribute]] == id {
            uniqueIndexes[attribute]?[row.values[attribute]] = nil
        }
    }
}
