extension Array {
    /// An array of `count` copies of `value`, like `Array(repeating:count:)`.
    ///
    /// `Array(repeating:count:)` allocates through the standard library's unspecialized code,
    /// which looks the storage's type up in the runtime's global metadata table each time: a
    /// cost on every row replayed, and a contended one when two threads replay at once (a
    /// migration does). Reserving and appending allocates through code specialized for
    /// `Element`, which finds the type once per call site.
    @inline(__always)
    static func filled(with value: Element, count: Int) -> [Element] {
        var array: [Element] = []
        array.reserveCapacity(count)
        for _ in 0..<count { array.append(value) }
        return array
    }
}
