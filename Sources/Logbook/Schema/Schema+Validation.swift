// Pairing up inverses and checking a schema's rules. `Schema` documents the rules; this file
// applies them, in a fixed order (entities and properties by name) so that the same schema
// always fails with the same error.

/// A relationship, named by its entity and its property.
private struct RelationshipReference: Hashable, CustomStringConvertible {
    let entity: String
    let name: String

    var description: String { "\(entity).\(name)" }
}

/// Pairs up the relationships of declared entities and returns the entities with each
/// relationship's inverse filled in.
func resolveInverses(_ declared: [DeclaredEntity]) throws(SchemaError) -> [Schema.Entity] {
    let entities = declared.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    // A subentity's inherited relationships are its superentity's: they are paired once, where
    // they are declared, and each subentity takes the pairing of the entity that declares them.
    let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    func declaringEntity(of name: String, in entity: DeclaredEntity) -> String {
        var declaring = entity.name
        var seen: Set<String> = [entity.name]
        var current = entity
        while let superName = current.superentityName, seen.insert(superName).inserted,
            let superentity = byName[superName],
            superentity.relationships.contains(where: { $0.relationship.name == name })
        {
            declaring = superName
            current = superentity
        }
        return declaring
    }
    var relationships: [RelationshipReference: DeclaredRelationship] = [:]
    var order: [RelationshipReference] = []
    var attributeNames: Set<RelationshipReference> = []
    for entity in entities {
        for attribute in entity.attributes {
            attributeNames.insert(RelationshipReference(entity: entity.name, name: attribute.name))
        }
        let sorted = entity.relationships.sorted {
            $0.relationship.name.utf8.lexicographicallyPrecedes($1.relationship.name.utf8)
        }
        for declaredRelationship in sorted
        where declaringEntity(of: declaredRelationship.relationship.name, in: entity) == entity.name {
            let reference = RelationshipReference(entity: entity.name, name: declaredRelationship.relationship.name)
            relationships[reference] = declaredRelationship
            order.append(reference)
        }
    }

    var inverses: [RelationshipReference: RelationshipReference] = [:]

    // Explicit inverses first: one side is enough, both sides must agree.
    for reference in order {
        guard let relationship = relationships[reference], let inverseName = relationship.explicitInverse else {
            continue
        }
        let destination = relationship.relationship.destination
        let target = RelationshipReference(entity: destination, name: inverseName)
        guard let other = relationships[target] else {
            let what = attributeNames.contains(target) ? "an attribute" : "not a property"
            throw SchemaError(
                .invalidInverse,
                "The inverse \(target) is \(what), not a relationship",
                entity: reference.entity,
                property: reference.name
            )
        }
        guard other.relationship.destination == reference.entity else {
            throw SchemaError(
                .invalidInverse,
                "The inverse \(target) refers to \(other.relationship.destination), not back to \(reference.entity)",
                entity: reference.entity,
                property: reference.name
            )
        }
        if let otherInverse = other.explicitInverse, otherInverse != reference.name {
            throw SchemaError(
                .invalidInverse,
                "\(reference) names \(target) as its inverse, but \(target) names "
                    + "\(RelationshipReference(entity: reference.entity, name: otherInverse))",
                entity: reference.entity,
                property: reference.name
            )
        }
        if let claimed = inverses[target], claimed != reference {
            throw SchemaError(
                .invalidInverse,
                "\(claimed) and \(reference) both name \(target) as their inverse",
                entity: reference.entity,
                property: reference.name
            )
        }
        inverses[reference] = target
        inverses[target] = reference
    }

    // Implicit inverses: exactly one candidate on each side. Candidates are computed against
    // the explicit pairs only, so the result does not depend on the order of the loop.
    let explicitlyPaired = Set(inverses.keys)
    func candidates(of reference: RelationshipReference) -> [RelationshipReference] {
        guard let relationship = relationships[reference] else { return [] }
        let destination = relationship.relationship.destination
        return order.filter { candidate in
            guard candidate.entity == destination, candidate != reference,
                !explicitlyPaired.contains(candidate),
                let other = relationships[candidate]
            else { return false }
            return other.explicitInverse == nil && other.relationship.destination == reference.entity
        }
    }

    for reference in order where !explicitlyPaired.contains(reference) {
        let found = candidates(of: reference)
        guard !found.isEmpty else { continue }
        guard found.count == 1 else {
            throw ambiguity(reference, found)
        }
        let candidate = found[0]
        let back = candidates(of: candidate)
        guard back == [reference] else {
            throw ambiguity(candidate, back)
        }
        inverses[reference] = candidate
    }

    return entities.map { entity in
        let resolved = entity.relationships.map { declaredRelationship in
            var relationship = declaredRelationship.relationship
            let declaring = declaringEntity(of: relationship.name, in: entity)
            let reference = RelationshipReference(entity: declaring, name: relationship.name)
            relationship.inverseName = inverses[reference]?.name
            return relationship
        }
        return Schema.Entity(
            name: entity.name,
            attributes: entity.attributes,
            relationships: resolved,
            uniquenessConstraints: entity.uniquenessConstraints,
            indexes: entity.indexes,
            superentityName: entity.superentityName
        )
    }
}

private func ambiguity(_ reference: RelationshipReference, _ candidates: [RelationshipReference]) -> SchemaError {
    SchemaError(
        .ambiguousInverse,
        "\(reference) has \(candidates.count) candidate inverses: "
            + candidates.map(\.description).joined(separator: ", ")
            + "; name one with 'inverse:' on either side",
        entity: reference.entity,
        property: reference.name
    )
}

extension Schema {
    /// Checks the rules on unique constraints, model counts, property names and destinations.
    func validate() throws(SchemaError) {
        let names = Set(entities.map(\.name))
        for entity in entities {
            var propertyNames: Set<String> = []
            for name in entity.attributes.map(\.name) + entity.relationships.map(\.name) {
                guard propertyNames.insert(name).inserted else {
                    throw SchemaError(.duplicateProperty, "Two properties are named '\(name)'", entity: entity.name)
                }
            }
            var originalNames: [String: String] = [:]
            for (name, originalName) in entity.originalNames {
                if originalName != name, propertyNames.contains(originalName) {
                    throw SchemaError(
                        .duplicateOriginalName,
                        "The original name '\(originalName)' is the name of another property",
                        entity: entity.name,
                        property: name
                    )
                }
                if let other = originalNames.updateValue(name, forKey: originalName) {
                    throw SchemaError(
                        .duplicateOriginalName,
                        "'\(other)' and '\(name)' both have the original name '\(originalName)'",
                        entity: entity.name,
                        property: name
                    )
                }
            }
            for attribute in entity.attributes where attribute.isUnique && !attribute.type.canBeUnique {
                throw SchemaError(
                    .invalidUniqueConstraint,
                    "A unique attribute must be numeric, String or UUID, not \(attribute.type)",
                    entity: entity.name,
                    property: attribute.name
                )
            }
            for relationship in entity.relationships {
                try validate(relationship, of: entity, entityNames: names)
            }
            try validateConstraintsAndIndexes(of: entity)
        }
        try validateHierarchy()
    }

    /// Checks that each constraint over several properties names attributes that are not
    /// arrays, and that each index names attributes.
    private func validateConstraintsAndIndexes(of entity: Entity) throws(SchemaError) {
        for constraint in entity.uniquenessConstraints {
            let spelled = "#Unique(" + constraint.joined(separator: ", ") + ")"
            for name in constraint {
                if let attribute = entity.attribute(named: name) {
                    if case .array = attribute.type.nonOptional {
                        throw SchemaError(
                            .invalidUniqueConstraint,
                            "'\(spelled)' names '\(name)', an array; a unique constraint takes single values",
                            entity: entity.name,
                            property: name
                        )
                    }
                } else if entity.relationship(named: name) != nil {
                    throw SchemaError(
                        .invalidUniqueConstraint,
                        "'\(spelled)' names the relationship '\(name)'; a unique constraint over several "
                            + "properties takes attributes only (a to-one relationship can be unique alone)",
                        entity: entity.name,
                        property: name
                    )
                } else {
                    throw SchemaError(
                        .invalidUniqueConstraint,
                        "'\(spelled)' names '\(name)', which is not a persisted property",
                        entity: entity.name,
                        property: name
                    )
                }
            }
        }
        for index in entity.indexes {
            for name in index where entity.attribute(named: name) == nil {
                throw SchemaError(
                    .invalidIndex,
                    "'#Index(\(index.joined(separator: ", ")))' names '\(name)', which is not a persisted attribute",
                    entity: entity.name,
                    property: name
                )
            }
        }
    }

    private func validate(_ relationship: Relationship, of entity: Entity, entityNames: Set<String>) throws(SchemaError)
    {
        func failure(_ code: SchemaError.Code, _ message: String) -> SchemaError {
            SchemaError(code, message, entity: entity.name, property: relationship.name)
        }
        guard entityNames.contains(relationship.destination) else {
            throw failure(.unknownDestination, "The destination '\(relationship.destination)' is not in the schema")
        }
        if relationship.isUnique && relationship.isToMany {
            throw failure(.invalidUniqueConstraint, "Only a to-one relationship can be unique")
        }
        let minimum = relationship.minimumModelCount
        let maximum = relationship.maximumModelCount
        if !relationship.isToMany && (minimum != nil || maximum != nil) {
            throw failure(.invalidModelCount, "Model counts apply to to-many relationships only")
        }
        if let minimum, minimum < 0 {
            throw failure(.invalidModelCount, "The minimum model count \(minimum) is negative")
        }
        if let maximum, maximum < 0 {
            throw failure(.invalidModelCount, "The maximum model count \(maximum) is negative")
        }
        if let minimum, let maximum, minimum > maximum {
            throw failure(
                .invalidModelCount,
                "The minimum model count \(minimum) exceeds the maximum \(maximum)"
            )
        }
    }

    /// Checks that every inverse recorded in a schema read from a store points back.
    func validateInversesPairUp() throws {
        for entity in entities {
            for relationship in entity.relationships {
                guard let inverseName = relationship.inverseName else { continue }
                let other = self.entity(named: relationship.destination)?.relationship(named: inverseName)
                // A subentity's inherited relationship has the inverse of its superentity's, which
                // points back to the superentity.
                guard let other, other.inverseName == relationship.name,
                    other.destination == entity.name || inherits(entity.name, from: other.destination)
                else {
                    throw SchemaError(
                        .invalidInverse,
                        "The inverse \(relationship.destination).\(inverseName) does not point back",
                        entity: entity.name,
                        property: relationship.name
                    )
                }
            }
        }
    }
}

extension Schema.Entity {
    /// Every property's name with its original name, for those that have one.
    fileprivate var originalNames: [(name: String, originalName: String)] {
        attributes.compactMap { attribute in attribute.originalName.map { (attribute.name, $0) } }
            + relationships.compactMap { relationship in relationship.originalName.map { (relationship.name, $0) } }
    }
}
