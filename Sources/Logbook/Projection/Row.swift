/// One object in a projection: its attribute values and the identifiers it refers to.
package struct Row: Hashable, Sendable {
    /// Attribute values, in the order of the entity's attributes in the schema.
    package var values: [AttributeValue]
    /// Related identifiers, in the order of the entity's relationships in the schema; zero or
    /// one identifier for a to-one relationship.
    package var relationships: [[UInt64]]

    package init(values: [AttributeValue], relationships: [[UInt64]]) {
        self.values = values
        self.relationships = relationships
    }
}
