extension Schema {
    /// Checks the model hierarchies: every superentity is in the schema, no entity inherits
    /// from itself, a subentity has every attribute of its superentity, and no entity of a
    /// hierarchy has relationships or unique constraints, nor is one the destination of a
    /// relationship.
    ///
    /// Each entity of a hierarchy is stored in a table of its own, which is what a fetch of a
    /// superentity reads together. A unique constraint would then hold in one table only, and a
    /// relationship would lead to one table only: rather than store either wrongly, the schema
    /// is refused with a message that names the entity and the property.
    ///
    /// - Throws: ``SchemaError/Code/invalidInheritance``.
    func validateHierarchy() throws(SchemaError) {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var inHierarchy: Set<String> = []
        for entity in entities {
            guard let superName = entity.superentityName else { continue }
            guard let superentity = byName[superName] else {
                throw SchemaError(
                    .invalidInheritance,
                    "The superentity '\(superName)' is not in the schema; list its model type in the container",
                    entity: entity.name
                )
            }
            var seen: Set<String> = [entity.name]
            var current = superentity
            while true {
                guard seen.insert(current.name).inserted else {
                    throw SchemaError(.invalidInheritance, "The entity inherits from itself", entity: entity.name)
                }
                guard let next = current.superentityName.flatMap({ byName[$0] }) else { break }
                current = next
            }
            for attribute in superentity.attributes where entity.attribute(named: attribute.name) == nil {
                throw SchemaError(
                    .invalidInheritance,
                    "The subentity of '\(superName)' lacks its attribute '\(attribute.name)'",
                    entity: entity.name,
                    property: attribute.name
                )
            }
            inHierarchy.insert(entity.name)
            inHierarchy.insert(superName)
        }
        for entity in entities where inHierarchy.contains(entity.name) {
            if let relationship = entity.relationships.first {
                throw SchemaError(
                    .invalidInheritance,
                    "Relationships of an entity in a model hierarchy are not supported yet",
                    entity: entity.name,
                    property: relationship.name
                )
            }
            if let unique = entity.uniqueProperties.first ?? entity.uniquenessConstraints.first?.first {
                throw SchemaError(
                    .invalidInheritance,
                    "Unique constraints in a model hierarchy are not supported yet",
                    entity: entity.name,
                    property: unique
                )
            }
        }
        for entity in entities {
            for relationship in entity.relationships where inHierarchy.contains(relationship.destination) {
                throw SchemaError(
                    .invalidInheritance,
                    "A relationship to '\(relationship.destination)', an entity in a model hierarchy, is not supported yet",
                    entity: entity.name,
                    property: relationship.name
                )
            }
        }
    }
}
