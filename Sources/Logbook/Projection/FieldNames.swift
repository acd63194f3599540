/// Finds the attribute an event names at each field position, trying first the attribute
/// found at that position last time.
///
/// The events of one entity nearly always list their attributes in the same order (the model
/// type's declaration order), so after the first event a comparison of two short names
/// replaces a hash, for every value replayed. The name is kept as the event spells it, so that
/// events written before a rename take the short path too.
struct FieldNames: Sendable {
    /// Attribute index by current name and by every former one.
    private let index: [String: Int]
    /// For each field position: the name found there last time, as a string and as bytes, and
    /// the index of its attribute (-1 for a name the entity no longer has).
    private var names: [String]
    private var bytes: [NameBytes]
    private var order: [Int]

    /// - Parameters:
    ///   - attributes: The current attribute names, in schema order: where events usually name
    ///     them.
    ///   - index: Attribute index by current name and by every former one.
    init(attributes: [String], index: [String: Int]) {
        self.index = index
        // A few positions more than the attributes, for events written before some were removed.
        names = attributes + Array(repeating: "", count: 8)
        bytes = names.map(NameBytes.init)
        order = Array(attributes.indices) + Array(repeating: -1, count: 8)
    }

    /// The index of the attribute an event names at its field `position`.
    @inline(__always)
    mutating func attribute(named name: String, at position: Int) -> Int? {
        guard position < order.count else { return index[name] }
        if names[position] == name {
            let found = order[position]
            return found >= 0 ? found : nil
        }
        let found = index[name]
        names[position] = name
        bytes[position] = NameBytes(name)
        order[position] = found ?? -1
        return found
    }

    /// ``attribute(named:at:)`` for a name as the event's UTF-8 bytes: no string is made unless
    /// the name differs from the one found at that position last time.
    @inline(__always)
    mutating func attribute(named name: UnsafeRawBufferPointer, at position: Int) -> Int? {
        if position < order.count, bytes[position].matches(name) {
            let found = order[position]
            return found >= 0 ? found : nil
        }
        return attribute(named: String(decoding: name, as: UTF8.self), at: position)
    }
}

/// Finds the relationship an event names: entities have few relationships, and comparing short
/// names costs less than a hash.
struct RelationshipNames: Sendable {
    /// The current relationship names, in schema order, as strings and as bytes.
    private let names: [String]
    private let bytes: [NameBytes]
    /// Relationship index by current name and by every former one.
    private let index: [String: Int]

    init(relationships: [String], index: [String: Int]) {
        names = relationships
        bytes = relationships.map(NameBytes.init)
        self.index = index
    }

    /// The index of the relationship named `name`.
    @inline(__always)
    func relationship(named name: String) -> Int? {
        if let found = names.firstIndex(of: name) { return found }
        return index[name]
    }

    /// ``relationship(named:)`` for a name as the event's UTF-8 bytes.
    @inline(__always)
    func relationship(named name: UnsafeRawBufferPointer) -> Int? {
        for found in bytes.indices where bytes[found].matches(name) { return found }
        return index[String(decoding: name, as: UTF8.self)]
    }
}
