/// What changed from one schema to another, entity by entity and property by property, and
/// whether replay can apply each change by itself, as a lightweight stage does.
///
/// A container opened without a migration plan uses it to decide whether a store written with
/// other models can be migrated automatically, and to say what stands in the way when it cannot:
///
/// ```
/// Trip.startDate: type Date → String
/// Trip.rating: added, not optional and without a default value
/// ```
///
/// Properties are matched by name, or by the `originalName` of the newer one; attributes and
/// relationships are listed in the order of their entities and names.
struct SchemaDifference: Sendable, CustomStringConvertible {
    /// One change to an entity or one of its properties.
    struct Change: Hashable, Sendable, CustomStringConvertible {
        /// The entity, by its name in the newer schema (or the older one, when it was removed).
        let entity: String
        /// The attribute or relationship, by its name in the newer schema; `nil` for a change to
        /// the entity itself.
        let property: String?
        /// What changed, in words: `type Date → String`.
        let what: String
        /// Whether replay applies the change by itself: `false` when old events cannot be read
        /// at the new schema without code that the app must write.
        let isLightweight: Bool

        /// `Entity.property: what`, or `Entity: what`.
        var description: String {
            if let property { "\(entity).\(property): \(what)" } else { "\(entity): \(what)" }
        }
    }

    /// Every change, in the order of entity names, then of property names.
    let changes: [Change]

    /// The changes between two schemas.
    ///
    /// - Parameters:
    ///   - old: The schema a store was written with.
    ///   - new: The models' schema.
    init(from old: Schema, to new: Schema) {
        var changes: [Change] = []
        let newNames = Set(new.entities.map(\.name))
        var entities: [(name: String, old: Schema.Entity?, new: Schema.Entity?)] = new.entities.map {
            ($0.name, old.entity(named: $0.name), $0)
        }
        entities += old.entities.filter { !newNames.contains($0.name) }.map { ($0.name, $0, nil) }
        entities.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        for entity in entities {
            switch (entity.old, entity.new) {
            case (nil, .some):
                changes.append(Change(entity: entity.name, property: nil, what: "entity added", isLightweight: true))
            case (.some, nil):
                changes.append(
                    Change(entity: entity.name, property: nil, what: "entity removed", isLightweight: true)
                )
            case (.some(let before), .some(let after)):
                // An entity's objects stay in its own table whatever it inherits from, so a new
                // superentity changes what a fetch of the superentity returns: the app decides.
                if before.superentityName != after.superentityName {
                    let spell = { (name: String?) in name ?? "none" }
                    changes.append(
                        Change(
                            entity: entity.name,
                            property: nil,
                            what: "superentity \(spell(before.superentityName)) → \(spell(after.superentityName))",
                            isLightweight: false
                        )
                    )
                }
                changes += Self.attributeChanges(before, after)
                changes += Self.relationshipChanges(before, after)
                changes += Self.constraintChanges(before, after)
            case (nil, nil):
                continue
            }
        }
        self.changes = changes
    }

    /// Whether the schemas are the same but for changes replay applies by itself.
    var isLightweight: Bool { changes.allSatisfy(\.isLightweight) }

    /// The changes replay cannot apply by itself.
    var refused: [Change] { changes.filter { !$0.isLightweight } }

    /// One change a line.
    var description: String {
        changes.map(\.description).joined(separator: "\n")
    }

    // MARK: - Attributes

    private static func attributeChanges(_ before: Schema.Entity, _ after: Schema.Entity) -> [Change] {
        var changes: [Change] = []
        var matched: Set<String> = []
        for attribute in after.attributes {
            let change = { (what: String, isLightweight: Bool) in
                changes.append(
                    Change(entity: after.name, property: attribute.name, what: what, isLightweight: isLightweight)
                )
            }
            guard let earlier = match(attribute.name, attribute.originalName, in: before.attributes, \.name) else {
                if attribute.isOptional {
                    change("added, optional", true)
                } else if attribute.hasDefaultValue {
                    change("added, with a default value", true)
                } else {
                    change("added, not optional and without a default value", false)
                }
                continue
            }
            matched.insert(earlier.name)
            if earlier.name != attribute.name { change("renamed from \(earlier.name)", true) }
            if earlier.type.nonOptional != attribute.type.nonOptional {
                change("type \(spelling(earlier.type)) → \(spelling(attribute.type))", false)
            } else if earlier.isOptional && !attribute.isOptional {
                change("optional → not optional", false)
            } else if !earlier.isOptional && attribute.isOptional {
                change("not optional → optional", true)
            }
            let earlierOptions = Set(earlier.options.map(\.canonicalName))
            let options = Set(attribute.options.map(\.canonicalName))
            for added in options.subtracting(earlierOptions).sorted() {
                change("option \(added) added", !added.hasPrefix("transformable"))
            }
            for removed in earlierOptions.subtracting(options).sorted() {
                change("option \(removed) removed", !removed.hasPrefix("transformable"))
            }
            if earlier.hashModifier != attribute.hashModifier { change("hash modifier changed", true) }
        }
        for earlier in before.attributes where !matched.contains(earlier.name) {
            changes.append(Change(entity: after.name, property: earlier.name, what: "removed", isLightweight: true))
        }
        return changes
    }

    // MARK: - Relationships

    private static func relationshipChanges(_ before: Schema.Entity, _ after: Schema.Entity) -> [Change] {
        var changes: [Change] = []
        var matched: Set<String> = []
        for relationship in after.relationships {
            let change = { (what: String, isLightweight: Bool) in
                changes.append(
                    Change(entity: after.name, property: relationship.name, what: what, isLightweight: isLightweight)
                )
            }
            guard
                let earlier = match(
                    relationship.name,
                    relationship.originalName,
                    in: before.relationships,
                    \.name
                )
            else {
                if relationship.isToMany {
                    change("added, to-many relationship to \(relationship.destination)", true)
                } else if relationship.isOptional {
                    change("added, optional relationship to \(relationship.destination)", true)
                } else {
                    change("added, to-one relationship to \(relationship.destination) that is not optional", false)
                }
                continue
            }
            matched.insert(earlier.name)
            if earlier.name != relationship.name { change("renamed from \(earlier.name)", true) }
            if earlier.destination != relationship.destination {
                change("destination \(earlier.destination) → \(relationship.destination)", false)
            }
            if earlier.isToMany != relationship.isToMany {
                change("\(cardinality(earlier)) → \(cardinality(relationship))", false)
            } else if !relationship.isToMany && earlier.isOptional != relationship.isOptional {
                change(
                    earlier.isOptional ? "optional → not optional" : "not optional → optional",
                    !earlier.isOptional
                )
            }
            if earlier.deleteRule != relationship.deleteRule {
                change("delete rule \(earlier.deleteRule) → \(relationship.deleteRule)", true)
            }
            if earlier.minimumModelCount != relationship.minimumModelCount
                || earlier.maximumModelCount != relationship.maximumModelCount
            {
                change("count limits \(limits(earlier)) → \(limits(relationship))", true)
            }
            if earlier.inverseName != relationship.inverseName {
                change("inverse \(earlier.inverseName ?? "none") → \(relationship.inverseName ?? "none")", true)
            }
            if earlier.isUnique != relationship.isUnique {
                change(relationship.isUnique ? "option unique added" : "option unique removed", true)
            }
            if earlier.hashModifier != relationship.hashModifier { change("hash modifier changed", true) }
        }
        for earlier in before.relationships where !matched.contains(earlier.name) {
            changes.append(Change(entity: after.name, property: earlier.name, what: "removed", isLightweight: true))
        }
        return changes
    }

    // MARK: - Constraints and indexes

    /// The `#Unique` constraints over several properties and the `#Index` declarations added
    /// and removed, by property names in the newer schema: all lightweight, since replay folds
    /// the objects a new constraint makes duplicates, and an index changes no stored value.
    private static func constraintChanges(_ before: Schema.Entity, _ after: Schema.Entity) -> [Change] {
        // The older schema's lists, with renamed properties under their newer names.
        var renamed: [String: String] = [:]
        for attribute in after.attributes {
            if let earlier = match(attribute.name, attribute.originalName, in: before.attributes, \.name) {
                renamed[earlier.name] = attribute.name
            }
        }
        let rename = { (names: [String]) in names.map { renamed[$0] ?? $0 } }
        var changes: [Change] = []
        func compare(_ earlier: [[String]], _ later: [[String]], _ what: String, ordered: Bool) {
            let normalize = { (names: [String]) in ordered ? names : names.sorted() }
            let old = Set(earlier.map { normalize(rename($0)) })
            let new = Set(later.map(normalize))
            for names in later.map(normalize) where !old.contains(names) {
                let list = names.joined(separator: ", ")
                changes.append(
                    Change(entity: after.name, property: nil, what: "\(what)(\(list)) added", isLightweight: true)
                )
            }
            for names in earlier.map({ normalize(rename($0)) }) where !new.contains(names) {
                let list = names.joined(separator: ", ")
                changes.append(
                    Change(entity: after.name, property: nil, what: "\(what)(\(list)) removed", isLightweight: true)
                )
            }
        }
        compare(before.uniquenessConstraints, after.uniquenessConstraints, "#Unique", ordered: false)
        compare(before.indexes, after.indexes, "#Index", ordered: true)
        return changes
    }

    // MARK: - Helpers

    /// The older property that a newer one continues: the one with its name, or else the one
    /// with its `originalName`.
    private static func match<Property>(
        _ name: String,
        _ originalName: String?,
        in earlier: [Property],
        _ nameOf: (Property) -> String
    ) -> Property? {
        if let same = earlier.first(where: { nameOf($0) == name }) { return same }
        guard let originalName else { return nil }
        return earlier.first { nameOf($0) == originalName }
    }

    /// A type as Swift spells it: `String?` rather than `Optional<String>`.
    private static func spelling(_ type: Schema.AttributeType) -> String {
        switch type {
        case .optional(let wrapped): "\(spelling(wrapped))?"
        case .array(let element): "[\(spelling(element))]"
        default: type.description
        }
    }

    private static func cardinality(_ relationship: Schema.Relationship) -> String {
        relationship.isToMany ? "to-many" : "to-one"
    }

    private static func limits(_ relationship: Schema.Relationship) -> String {
        let minimum = relationship.minimumModelCount.map(String.init) ?? "none"
        let maximum = relationship.maximumModelCount.map(String.init) ?? "none"
        return "\(minimum)...\(maximum)"
    }
}
