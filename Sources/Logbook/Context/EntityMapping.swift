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

    /// The model type mapped.
    let modelType: any PersistentModel.Type
    /// The entity's table in the projection.
    let table: Int
    /// The table's attribute index of its one unique attribute, when it has exactly one; -1
    /// otherwise. A save hashes its value as it records an insert
    /// (``DirectInserts/setUniqueHash(_:)``), so that applying the batch asks for the unique
    /// index's buckets a few inserts ahead, as a replay does.
    let soleUniqueAttribute: Int
    /// For each property index, where it lives in the entity.
    let slots: [Slot]
    /// The property indexes of the relationships.
    let relationshipProperties: [Int]
    /// The relationships a context that goes away empties, so that models that refer to each
    /// other do not keep each other alive: all but those with an inverse whose destination
    /// ranks lower in ``Projection/releaseRanks``. What is left points from a table to a
    /// lower-ranked one only, so that no model is left in a cycle, and a model that an
    /// application still holds keeps those relationships (an item its trip).
    let relationshipsEmptiedOnRelease: [Int]
    /// The property indexes of the attributes, in declaration order.
    let attributeProperties: [Int]
    /// The same, as the set a model made from the store starts with: every relationship a fault.
    let faultedRelationships: PropertySet
    /// ``faultedRelationships`` as one word when every relationship's index is below 64;
    /// `nil` otherwise.
    let faultedBits: UInt64?
    /// The entity as the schema describes it.
    let entity: Schema.Entity
    /// For each schema relationship: how it reaches its destination and inverse.
    let links: [Projection.Link]
    /// For each property index: the property index of its inverse on the target type.
    let inverseProperties: [Int?]
    /// Whether any relationship has a minimum or maximum model count.
    let hasCountLimits: Bool
    /// Whether an attribute of the entity is marked `.preserveValueOnDeletion`.
    let hasPreservedAttributes: Bool
    /// The attributes marked `.externalStorage`, by property index, with their names: where a
    /// stored value may be an ``ExternalPlaceholder``. Empty for most entities, whose models
    /// are made without looking.
    let externalProperties: [(position: Int, name: String)]
    /// The entity name.
    let entityName: String
    /// The entities below this one in its model hierarchy, at any depth: empty for an entity
    /// no other inherits from. A fetch of the entity reads their tables too.
    let subentityNames: [String]
    /// Each property's name, by property index.
    let propertyNames: [String]
    /// The entity name and each property's name as events hold them, encoded once.
    let encodedEntityName: EncodedString
    let encodedPropertyNames: [EncodedString]
    /// Each property's accessors, by property index, type-erased once per model type: a save
    /// reads every value through them, and going through the generic binding instead cost a
    /// metadata lookup and a copy of the property's binding for every value.
    private let accessors: [Accessor]
    /// The attribute readers and to-one readers of ``accessors`` again, alone: a save reads
    /// every attribute and to-one relationship of every model it inserts, and taking the reader
    /// out of an ``Accessor`` copied, and then destroyed, every closure of its case.
    private let attributeReaders: [((any PersistentModel) throws -> AttributeValue)?]
    /// For each attribute whose value converts without a codec that can fail, its reader as
    /// the model's module compiled it (``AttributeAccess/plainRead``), called without the
    /// thunks that adapt it to a throwing closure; `nil` for other properties.
    private let plainAttributeReaders: [AttributeReader?]
    /// For each to-one relationship's property index, how to read and set its model without an
    /// array; `nil` for other properties.
    private let toOneAccessors: [OneModelAccessors?]
    /// For each relationship's property index, how to resolve its fault with typed models;
    /// `nil` for an attribute.
    private let faultLoaders: [((any PersistentModel, any RelatedModelLoader) -> Void)?]
    /// For each relationship's property index, how to empty it; `nil` for an attribute.
    private let relationshipClearers: [((any PersistentModel) -> Void)?]
    // The caches below are `@exclusivity(unchecked)`: read on every lookup, each access a single
    // read or write.

    /// Property indexes found for key paths, by the key path object: a key path written in a
    /// predicate is usually the same object every time, and comparing key paths is slow. The
    /// key path is kept, so that its identity cannot be taken by another object.
    @exclusivity(unchecked) private var keyPathIndexes: [ObjectIdentifier: (keyPath: AnyKeyPath, index: Int)] = [:]
    /// For each predicate expression type met: how to read its key path and constant, or `nil`
    /// when it is not an equality of a property and a constant.
    @exclusivity(unchecked) var equalityReaders: [ObjectIdentifier: EqualityReader?] = [:]
    /// The expression type met last, and its reader.
    @exclusivity(unchecked) var lastEqualityReader: (type: ObjectIdentifier, reader: EqualityReader?)?
    /// The key path met last, and its property index.
    @exclusivity(unchecked) private var lastKeyPath: (keyPath: AnyKeyPath, index: Int)?

    private enum Accessor {
        case attribute(read: (any PersistentModel) throws -> AttributeValue)
        case relationship(
            read: (any PersistentModel) -> [any PersistentModel],
            write: (any PersistentModel, [any PersistentModel], _ observed: Bool) -> Void,
            isToMany: Bool
        )
    }

    init<Model: PersistentModel>(_ type: Model.Type, projection: Projection) {
        let binding = Model._$binding
        self.modelType = type
        guard let table = projection.table(named: binding.entityName) else {
            preconditionFailure("\(Model.self) is not part of the container's schema")
        }
        let entity = projection.tables[table].entity
        let uniqueAttributes = projection.tables[table].uniqueAttributes
        self.soleUniqueAttribute = uniqueAttributes.count == 1 ? uniqueAttributes[0] : -1
        var slots: [Slot] = []
        var relationships: [Int] = []
        var attributes: [Int] = []
        for (index, property) in binding.properties.enumerated() {
            switch property.kind {
            case .attribute:
                guard let attribute = entity.attributes.firstIndex(where: { $0.name == property.name }) else {
                    preconditionFailure("\(Model.self).\(property.name) is not in the container's schema")
                }
                slots.append(.attribute(attribute))
                attributes.append(index)
            case .relationship:
                guard let relationship = entity.relationships.firstIndex(where: { $0.name == property.name }) else {
                    preconditionFailure("\(Model.self).\(property.name) is not in the container's schema")
                }
                slots.append(.relationship(relationship))
                relationships.append(index)
            }
        }
        self.table = table
        self.externalProperties = slots.enumerated().compactMap { property, slot in
            guard case .attribute(let attribute) = slot, entity.attributes[attribute].options.contains(.externalStorage)
            else { return nil }
            return (property, entity.attributes[attribute].name)
        }
        self.entityName = binding.entityName
        self.subentityNames = Array(projection.schema.entityNames(inheritingFrom: binding.entityName).dropFirst())
        self.propertyNames = binding.properties.map(\.name)
        self.encodedEntityName = EncodedString(binding.entityName)
        self.encodedPropertyNames = binding.properties.map { EncodedString($0.name) }
        let accessors: [Accessor] = binding.properties.map { property in
            switch property.kind {
            case .attribute(let access):
                return .attribute(read: access.read)
            case .relationship(let access):
                // The binding's closures take the model as an existential already.
                return .relationship(read: access.read, write: access.write, isToMany: access.isToMany)
            }
        }
        self.accessors = accessors
        self.faultLoaders = binding.properties.map { property in
            guard case .relationship(let access) = property.kind else { return nil }
            return access.load
        }
        self.relationshipClearers = binding.properties.map { property in
            guard case .relationship(let access) = property.kind else { return nil }
            return access.clear
        }
        self.plainAttributeReaders = binding.properties.map { property in
            guard case .attribute(let access) = property.kind else { return nil }
            return access.plainRead
        }
        self.attributeReaders = accessors.map { accessor in
            guard case .attribute(let read) = accessor else { return nil }
            return read
        }
        self.toOneAccessors = binding.properties.map { property in
            guard case .relationship(let access) = property.kind else { return nil }
            return access.toOne
        }
        self.slots = slots
        self.relationshipProperties = relationships
        let links = projection.links[table]
        let ranks = projection.releaseRanks
        self.relationshipsEmptiedOnRelease = relationships.filter { property in
            guard case .relationship(let relationship) = slots[property] else { return true }
            let link = links[relationship]
            return link.inverse == nil || link.destination < 0 || ranks[link.destination] >= ranks[table]
                || link.subdestinations.contains { ranks[$0.table] >= ranks[table] }
        }
        self.attributeProperties = attributes
        self.faultedRelationships = PropertySet(relationships)
        self.faultedBits = faultedRelationships.high.isEmpty ? faultedRelationships.low : nil
        self.entity = entity
        self.links = links
        self.hasCountLimits = entity.relationships.contains(where: \.hasCountLimit)
        self.hasPreservedAttributes = entity.attributes.contains { $0.options.contains(.preserveValueOnDeletion) }
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

// MARK: - Reaching the properties of a model of the mapped type

extension EntityMapping {
    /// The index of the persisted property that `keyPath` names, if it names one of `Model`,
    /// the mapped type.
    func propertyIndex<Model: PersistentModel>(of keyPath: AnyKeyPath, in _: Model.Type) -> Int? {
        if let last = lastKeyPath, last.keyPath === keyPath { return last.index }
        if let known = keyPathIndexes[ObjectIdentifier(keyPath)] {
            lastKeyPath = known
            return known.index
        }
        guard let index = Model._$binding.properties.firstIndex(where: { $0.keyPath == keyPath }) else { return nil }
        keyPathIndexes[ObjectIdentifier(keyPath)] = (keyPath, index)
        lastKeyPath = (keyPath, index)
        return index
    }

    /// The value of the attribute at a property index of `model`, which must be of the mapped type.
    func attribute(_ model: any PersistentModel, _ property: Int) throws -> AttributeValue {
        if let reader = plainAttributeReaders[property] { return reader.read(model) }
        guard let read = attributeReaders[property] else {
            preconditionFailure("property \(property) of \(entityName) is not an attribute")
        }
        return try read(model)
    }

    /// The related models as `model` holds them now, without loading a fault.
    func related(_ model: any PersistentModel, _ property: Int) -> [any PersistentModel] {
        switch accessors[property] {
        case .relationship(let read, _, _): return read(model)
        case .attribute: preconditionFailure("property \(property) of \(entityName) is not a relationship")
        }
    }

    /// Sets the related models of `model`, through the observation registrar when `observed`,
    /// without recording a change.
    func setRelated(_ model: any PersistentModel, _ property: Int, _ models: [any PersistentModel], observed: Bool) {
        switch accessors[property] {
        case .relationship(_, let write, _): write(model, models, observed)
        case .attribute: preconditionFailure("property \(property) of \(entityName) is not a relationship")
        }
    }

    /// Sets the related models of `model` to those `loader` makes, without observation or
    /// recording a change: a fault resolved.
    func loadRelated(_ model: any PersistentModel, _ property: Int, from loader: some RelatedModelLoader) {
        guard let load = faultLoaders[property] else {
            preconditionFailure("property \(property) of \(entityName) is not a relationship")
        }
        load(model, loader)
    }

    /// Empties a relationship of `model`, without observation or recording a change.
    func clearRelated(_ model: any PersistentModel, _ property: Int) {
        guard let clear = relationshipClearers[property] else {
            preconditionFailure("property \(property) of \(entityName) is not a relationship")
        }
        clear(model)
    }

    /// The model a to-one relationship at a property index of `model` holds, without an array.
    func relatedOne(_ model: any PersistentModel, _ property: Int) -> (any PersistentModel)? {
        guard let read = toOneAccessors[property]?.read else {
            preconditionFailure("property \(property) of \(entityName) is not a to-one relationship")
        }
        return read(model)
    }

    /// Sets the model of a to-one relationship, as ``setRelated(_:_:_:observed:)`` does,
    /// without an array.
    func setRelatedOne(_ model: any PersistentModel, _ property: Int, _ related: (any PersistentModel)?, observed: Bool)
    {
        guard let write = toOneAccessors[property]?.write else {
            preconditionFailure("property \(property) of \(entityName) is not a to-one relationship")
        }
        write(model, related, observed)
    }

    /// Whether the relationship at a property index is to-many.
    func isToMany(_ property: Int) -> Bool {
        guard case .relationship(_, _, let isToMany) = accessors[property] else { return false }
        return isToMany
    }
}

// MARK: - Reaching a model's properties without knowing its type

extension PersistentModel {
    static var entityName: String { _$binding.entityName }

    /// The number of the model's permanent identifier, once it has one.
    var storedIdentifier: UInt64? {
        _$storedNumber
    }

    /// Reads or changes the model's bookkeeping in place.
    ///
    /// Through the protocol, a read of `_$storage` calls its getter, which copies the whole
    /// structure (its identifier, its weak reference to the context, its property sets) and
    /// destroys the copy; an `inout` access goes through `_modify`, which lends the stored
    /// property itself. For reads on hot paths: which model saved, which relationship is a fault,
    /// which context observes.
    @inline(__always)
    func inPlace<Result>(_ body: (inout _$ModelStorage) -> Result) -> Result {
        body(&_$storage)
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
}
