import Foundation

/// One sort descriptor, read so that objects can be compared on their stored values, in the
/// order `sort(using:)` puts their models in.
///
/// A `SortDescriptor` made from a key path compares the property's values with `<` (the
/// `Comparable` conformance of the property's type), or with its ``stringComparator`` when it
/// has one; an optional property puts `nil` before every value, and the reverse order puts it
/// after. A stored value holds the very value of a property of the scalar types below (integers
/// widened to 64 bits, which keeps their order), so comparing stored values with the same `<`
/// gives the same order. Any other property type (an enum, a composite, a wrapper with an order
/// of its own) has no key, and the fetch compares the models instead.
struct StoredSortKey {
    /// How the stored values of the key compare.
    enum Kind {
        case int, uint, double, float, decimal, string, date, uuid
    }

    /// The attribute compared, by its index in the table's rows.
    let attribute: Int
    let kind: Kind
    /// Whether the property is optional, so that `null` is one of its values.
    let isOptional: Bool
    /// Whether the order is the descriptor's forward order.
    let ascending: Bool
    /// The descriptor's comparator of strings, made to compare forward; `nil` to compare
    /// strings with `<`, as a descriptor without one does.
    let stringComparator: String.StandardComparator?

    /// The key of a descriptor on an attribute of `T`, or `nil` when stored values cannot stand
    /// for the property's values.
    init?<T: PersistentModel>(_ descriptor: SortDescriptor<T>, mapping: EntityMapping) {
        guard let keyPath = descriptor.keyPath,
            let property = mapping.propertyIndex(of: keyPath, in: T.self),
            case .attribute(let attribute) = mapping.slots[property],
            let (kind, isOptional) = Self.kind(of: type(of: keyPath).valueType)
        else { return nil }
        self.attribute = attribute
        self.kind = kind
        self.isOptional = isOptional
        self.ascending = descriptor.order == .forward
        if var comparator = descriptor.stringComparator {
            guard kind == .string else { return nil }
            comparator.order = .forward
            self.stringComparator = comparator
        } else {
            self.stringComparator = nil
        }
    }

    /// Whether `value` is one this key can order as the property's `<` does: of the key's case
    /// (or `null` for an optional), and not a NaN, which `<` leaves unordered.
    func accepts(_ value: AttributeValue) -> Bool {
        switch (kind, value) {
        case (_, .null): return isOptional
        case (.int, .int), (.uint, .uint), (.string, .string), (.uuid, .uuid): return true
        case (.double, .double(let number)): return !number.isNaN
        case (.float, .float(let number)): return !number.isNaN
        case (.decimal, .decimal(let number)): return !number.isNaN
        case (.date, .date(let date)): return !date.timeIntervalSinceReferenceDate.isNaN
        default: return false
        }
    }

    /// The order of two values that the key ``accepts(_:)``, in the descriptor's order:
    /// negative when `left` comes first, positive when `right` does, zero when they tie.
    @inline(__always)
    func compare(_ left: AttributeValue, _ right: AttributeValue) -> Int {
        let forward = Self.forward(left, right, stringComparator)
        return ascending ? forward : -forward
    }

    // MARK: - Internals

    private static func forward(
        _ left: AttributeValue,
        _ right: AttributeValue,
        _ stringComparator: String.StandardComparator?
    ) -> Int {
        switch (left, right) {
        case (.null, .null): return 0
        case (.null, _): return -1
        case (_, .null): return 1
        case (.int(let left), .int(let right)): return order(left, right)
        case (.uint(let left), .uint(let right)): return order(left, right)
        case (.double(let left), .double(let right)): return order(left, right)
        case (.float(let left), .float(let right)): return order(left, right)
        case (.decimal(let left), .decimal(let right)): return order(left, right)
        case (.date(let left), .date(let right)): return order(left, right)
        case (.uuid(let left), .uuid(let right)): return order(left, right)
        case (.string(let left), .string(let right)):
            guard let stringComparator else { return order(left, right) }
            switch stringComparator.compare(left, right) {
            case .orderedAscending: return -1
            case .orderedDescending: return 1
            case .orderedSame: return 0
            }
        default: preconditionFailure("a value the sort key does not accept")
        }
    }

    /// The order `Comparable` gives two values, as a comparator of comparable values reads it.
    @inline(__always)
    private static func order<Value: Comparable>(_ left: Value, _ right: Value) -> Int {
        if left < right { return -1 }
        if right < left { return 1 }
        return 0
    }

    /// Whether a property of this type stores its very value, of one kind that `<` orders as
    /// it orders the property's values: what a sorted index needs to answer a comparison.
    static func storesOrderedValue(_ type: Any.Type) -> Bool {
        kind(of: type) != nil
    }

    /// The kind of a property type whose values are stored as they are, and whether it is
    /// optional.
    private static func kind(of type: Any.Type) -> (Kind, Bool)? {
        let key = ObjectIdentifier(type)
        for (plain, optional, kind) in kinds {
            if key == plain { return (kind, false) }
            if key == optional { return (kind, true) }
        }
        return nil
    }

    private static let kinds: [(ObjectIdentifier, ObjectIdentifier, Kind)] = [
        entry(Int.self, .int), entry(Int8.self, .int), entry(Int16.self, .int), entry(Int32.self, .int),
        entry(Int64.self, .int), entry(UInt.self, .uint), entry(UInt8.self, .uint), entry(UInt16.self, .uint),
        entry(UInt32.self, .uint), entry(UInt64.self, .uint), entry(Double.self, .double), entry(Float.self, .float),
        entry(Decimal.self, .decimal), entry(String.self, .string), entry(Date.self, .date), entry(UUID.self, .uuid),
    ]

    private static func entry<Value>(_: Value.Type, _ kind: Kind) -> (ObjectIdentifier, ObjectIdentifier, Kind) {
        (ObjectIdentifier(Value.self), ObjectIdentifier(Value?.self), kind)
    }
}
