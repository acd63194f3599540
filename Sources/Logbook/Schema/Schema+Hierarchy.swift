extension Schema {
    /// Checks the model hierarchies: every superentity is in the schema, no entity inherits
    /// from itself, and a subentity has every attribute and relationship of its superentity.
    ///
    /// Each entity of a hierarchy is stored in a table of its own, which is what a fetch of a
    /// superentity reads together; a relationship whose destination has subentities holds
    /// objects of any of their tables, and a unique constraint of an entity with subentities
    /// holds across all their tables.
    ///
    /// - Throws: ``SchemaError/Code/invalidInheritance``.
    func validateHierarchy() throws(SchemaError) {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
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
            for relationship in superentity.relationships where entity.relationship(named: relationship.name) == nil {
                throw SchemaError(
                    .invalidInheritance,
                    "The subentity of '\(superName)' lacks its relationship '\(relationship.name)'",
                    entity: entity.name,
                    property: relationship.name
                )
            }
        }
    }

    /// The entity at the root of the hierarchy `name` is in: `name` itself for an entity with
    /// no superentity (or one the schema does not have).
    func rootEntityName(of name: String) -> String {
        var root = name
        var seen: Set<String> = [name]
        while let superName = entity(named: root)?.superentityName, entity(named: superName) != nil,
            seen.insert(superName).inserted
        {
            root = superName
        }
        return root
    }

    /// Whether the entity `name` is a subentity of `ancestor`, at any depth.
    func inherits(_ name: String, from ancestor: String) -> Bool {
        var seen: Set<String> = [name]
        var current = name
        while let superName = entity(named: current)?.superentityName, seen.insert(superName).inserted {
            if superName == ancestor { return true }
            current = superName
        }
        return false
    }
}
