/// How a model type's persisted properties line up with its entity in the projection.
///
/// A model's properties are indexed in declaration order; the schema's attributes and
/// relationships are sorted by name. The mapping translates between the two, and keeps what
/// saves and relationship changes need about the entity, so that they do not take the store's
/// lock for it. A class: it is handed around on every property change.
final class EntityMapping {
    enum Slot {
        case attribute(Int)
        case relationship(Int)
    }

    /// The entity's table in the projection.
    let table: Int
    /// For each property index, where it lives in the entity.
    let slots: [Slot]
    /// The property indexes of the relationships.
    let relationshipProperties: [Int]
    /// The entity as the schema describes it.
    let entity: Schema.Entity
    /// For each schema relationship: how it reaches its destination and inverse.
    let links: [Projection.Link]
    /// For each property index: the property index of its inverse on the target type.
    let inverseProperties: [Int?]
    /// Whether any relationship has a minimum or maximum model count.
    let hasCountLimits: Bool

    init<Model: PersistentModel>(_ type: Model.Type, projection: Projection) {
        let binding = Model._$binding
        guard let table = projection.table(named: binding.entityName) else {
            preconditionFailure("\(Model.self) is not part of the container's schema")
        }
        let entity = projection.tables[table].entity
        var slots: [Slot] = []
        var relationships: [Int] = []
        for (index, property) in binding.properties.enumerated() {
            switch property.kind {
            case .attribute:
                guard let attribute = entity.attributes.firstIndex(where: { $0.name == property.name }) else {
                    preconditionFailure("\(Model.self).\(property.name) is not in the container's schema")
                }
                slots.append(.attribute(attribute))
            case .relationship:
                guard let relationship = entity.relationships.firstIndex(where: { $0.name == property.name }) else {
                    preconditionFailure("\(Model.self).\(property.name) is not in the container's schema")
                }
                slots.append(.relationship(relationship))
                relationships.append(index)
            }
        }
        self.table = table
        self.slots = slots
        self.relationshipProperties = relationships
        self.entity = entity
        self.links = projection.links[table]
        self.hasCountLimits = entity.relationships.contains {
            $0.minimumModelCount != nil || $0.maximumModelCount != nil
        }
        self.inverseProperties = binding.properties.enumerated().map { index, property in
            guard case .relationship(let access) = property.kind, case .relationship(let relationship) = slots[index],
                let inverseName = entity.relationships[relationship].inverseName
            else { return nil }
            func open<Target: PersistentModel>(_ target: Target.Type) -> Int? {
                Target._$binding.index(of: inverseName)
            }
            return open(access.targetType)
        }
    }
}

// MARK: - Reaching a model's properties without knowing its type

extension PersistentModel {
    static var entityName: String { _$binding.entityName }

    /// The number of the model's permanent identifier, once it has one.
    var storedIdentifier: UInt64? {
        guard let identifier = _$storage.persistentIdentifier, !identifier.isTemporary else { return nil }
        return identifier.number
    }

    func readAttribute(_ property: Int) throws -> AttributeValue {
        guard case .attribute(let access) = Self._$binding.properties[property].kind else {
            preconditionFailure("property \(property) of \(Self.self) is not an attribute")
        }
        return try access.read(self)
    }

    func writeAttribute(_ property: Int, _ value: AttributeValue, observed: Bool) throws {
        guard case .attribute(let access) = Self._$binding.properties[property].kind else {
            preconditionFailure("property \(property) of \(Self.self) is not an attribute")
        }
        if observed { try access.observedWrite(self, value) } else { try access.write(self, value) }
    }

    /// The related models as the object holds them now, without loading a fault.
    func rawRelationship(_ property: Int) -> [any PersistentModel] {
        relationshipAccess(property).read(self)
    }

    func writeRelationship(_ property: Int, _ models: [any PersistentModel], observed: Bool) {
        let access = relationshipAccess(property)
        if observed { access.observedWrite(self, models) } else { access.write(self, models) }
    }

    func relationshipTargetType(_ property: Int) -> any PersistentModel.Type {
        relationshipAccess(property).targetType
    }

    func relationshipIsToMany(_ property: Int) -> Bool {
        relationshipAccess(property).isToMany
    }

    private func relationshipAccess(_ property: Int) -> RelationshipAccess<Self> {
        guard case .relationship(let access) = Self._$binding.properties[property].kind else {
            preconditionFailure("property \(property) of \(Self.self) is not a relationship")
        }
        return access
    }

    var propertyCount: Int { Self._$binding.properties.count }

    /// Whether the target of a to-one relationship is already in the store, or inserted earlier
    /// in the batch being built.
    func relationshipTargetIsStoredOrEmitted(_ property: Int, _ target: UInt64, _ emitted: Set<UInt64>) -> Bool {
        emitted.contains(target) || rawRelationship(property).first?.storedIdentifier == target
    }

    func propertyName(_ property: Int) -> String { Self._$binding.properties[property].name }
}
