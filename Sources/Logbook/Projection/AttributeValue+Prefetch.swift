extension AttributeValue {
    /// Starts loading, for write, the object of the string `value` points at, if it holds a
    /// native string (see ``StringObjectPrefetch``): for a caller about to retain or release
    /// it.
    @inline(__always)
    static func prefetchStringObject(at value: UnsafePointer<AttributeValue>) {
        guard case .string = value.pointee else { return }
        StringObjectPrefetch.prefetchObject(ofStringAt: UnsafeRawPointer(value))
    }

    /// ``prefetchStringObject(at:)`` for each of `count` values from `values`.
    @inline(__always)
    static func prefetchStringObjects(from values: UnsafePointer<AttributeValue>, count: Int) {
        for offset in 0..<count { prefetchStringObject(at: values + offset) }
    }
}
