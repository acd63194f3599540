@testable import Logbook

/// Stands in for a context: records what models report and resolves faults with a closure.
final class RecordingObserver: ModelObserver {
    struct RelationshipChange: Equatable {
        let model: ObjectIdentifier
        let index: Int
        let old: [ObjectIdentifier]
        let new: [ObjectIdentifier]
    }

    private(set) var dirtied: [ObjectIdentifier] = []
    private(set) var relationshipChanges: [RelationshipChange] = []
    private(set) var resolvedFaults: [Int] = []
    var resolve: (any PersistentModel, Int) -> Void = { _, _ in }

    func modelDidBecomeDirty(_ model: any PersistentModel) {
        dirtied.append(ObjectIdentifier(model))
    }

    func model(
        _ model: any PersistentModel,
        didSetRelationship index: Int,
        from oldValue: [any PersistentModel],
        to newValue: [any PersistentModel]
    ) {
        relationshipChanges.append(
            RelationshipChange(
                model: ObjectIdentifier(model),
                index: index,
                old: oldValue.map { ObjectIdentifier($0) },
                new: newValue.map { ObjectIdentifier($0) }
            )
        )
    }

    func resolveFault(of model: any PersistentModel, relationship index: Int) {
        resolvedFaults.append(index)
        resolve(model, index)
    }
}

extension _$ModelBinding {
    /// The index of a property, or a test failure.
    func requiredIndex(of name: String) -> Int {
        guard let index = index(of: name) else { preconditionFailure("No persisted property '\(name)'") }
        return index
    }
}
