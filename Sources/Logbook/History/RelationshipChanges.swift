/// What one save wrote to an object's relationships, as a history update carries it: the
/// target each to-one relationship was set to, and the objects added to and removed from each
/// to-many relationship, by identifier number.
package struct RelationshipChanges: Sendable, Hashable {
    /// The target each to-one relationship was set to; `.some(nil)` when it was set to `nil`.
    package var toOne: [String: UInt64?] = [:]
    /// The objects added to each to-many relationship, in the order of the events.
    package var added: [String: [UInt64]] = [:]
    /// The objects removed from each to-many relationship, in the order of the events.
    package var removed: [String: [UInt64]] = [:]

    package init() {}

    /// Adds what a later event of the same save wrote: a later to-one value replaces an
    /// earlier one, and an object added after it was removed (or removed after it was added)
    /// is where it was before the save, so it is in neither list.
    package mutating func merge(_ later: RelationshipChanges) {
        for (name, target) in later.toOne { toOne[name] = .some(target) }
        for (name, targets) in later.added {
            Self.apply(targets, cancelling: &removed[name], else: &added[name])
        }
        for (name, targets) in later.removed {
            Self.apply(targets, cancelling: &added[name], else: &removed[name])
        }
    }

    /// Appends each of `targets` to `list`, unless it is in `opposite`, where it is removed.
    private static func apply(_ targets: [UInt64], cancelling opposite: inout [UInt64]?, else list: inout [UInt64]?) {
        for target in targets {
            if let index = opposite?.firstIndex(of: target) {
                opposite?.remove(at: index)
            } else {
                if list == nil { list = [] }
                list?.append(target)
            }
        }
        if opposite?.isEmpty == true { opposite = nil }
    }
}
