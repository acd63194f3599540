/// The models a context inserted since its last save, in insertion order.
///
/// Each model remembers its position here (``_$ModelStorage/insertionIndex``), so that asking
/// whether a model is inserted, which every relationship change does for the models it reaches,
/// is two reads and an identity comparison instead of a hash lookup. The comparison makes the
/// answer this context's: a position recorded by another context points at another object, or
/// past the end, here.
struct InsertedModels {
    /// The models by position; a model deleted before the save leaves a hole.
    private var slots: [(any PersistentModel)?] = []
    /// The number of models held.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// The models, in insertion order.
    var models: [any PersistentModel] {
        var models: [any PersistentModel] = []
        appendModels(to: &models)
        return models
    }

    /// Appends the models, in insertion order, to `models`.
    func appendModels(to models: inout [any PersistentModel]) {
        models.reserveCapacity(models.count + count)
        for case let model? in slots { models.append(model) }
    }

    /// Whether this context holds `model` as inserted.
    func contains(_ model: any PersistentModel) -> Bool {
        holds(model, at: model.inPlace { $0.insertionIndex })
    }

    /// Whether this context holds `model` as inserted, given the position the model recorded.
    func holds(_ model: any PersistentModel, at position: Int32) -> Bool {
        let index = Int(position)
        guard index >= 0, index < slots.count, let held = slots[index] else { return false }
        return held === model
    }

    /// Adds a model that ``contains(_:)`` does not hold, and returns the position that the
    /// caller records in the model's ``_$ModelStorage/insertionIndex``, in the same access to the
    /// model's storage as its other changes.
    mutating func appendLeavingPosition(_ model: any PersistentModel) -> Int32 {
        precondition(slots.count < Int(Int32.max), "at most \(Int32.max) inserts between two saves")
        let index = Int32(slots.count)
        slots.append(model)
        count += 1
        return index
    }

    /// Moves the models, in insertion order, to the end of `models`, without retaining or
    /// releasing any: a save takes them for the time it writes them, and the list holds none
    /// meanwhile. Each model keeps its position, for ``giveBack(_:)``.
    mutating func takeModels(into models: inout [any PersistentModel]) {
        models.reserveCapacity(models.count + count)
        for index in slots.indices {
            if let model = slots[index].take() { models.append(model) }
        }
        count = 0
    }

    /// Puts back, each at its position, the models a ``takeModels(into:)`` took, when the save
    /// that took them fails; nothing may have been added in between.
    mutating func giveBack(_ models: [any PersistentModel]) {
        for model in models {
            let index = Int(model.inPlace { $0.insertionIndex })
            precondition(index >= 0 && index < slots.count && slots[index] == nil, "a model given back to its place")
            slots[index] = model
        }
        count += models.count
    }

    /// Forgets `model`.
    ///
    /// - Returns: Whether it was held.
    mutating func remove(_ model: any PersistentModel) -> Bool {
        guard contains(model) else { return false }
        let index = Int(model.inPlace { $0.insertionIndex })
        model.inPlace { $0.insertionIndex = -1 }
        slots[index] = nil
        count -= 1
        return true
    }

    /// Forgets every model.
    ///
    /// The models keep the positions they had: ``contains(_:)`` compares the model found at a
    /// position with the one asked about, so a stale position answers `false` like any other.
    /// Resetting each model's position cost 150 instructions per model a save inserted.
    mutating func removeAll() {
        slots.removeAll(keepingCapacity: true)
        count = 0
    }
}
