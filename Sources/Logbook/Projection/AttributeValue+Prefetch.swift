import CMemoryHints

extension AttributeValue {
    /// Starts loading, for write, the object of the string `value` points at, if it holds a
    /// native string, one that owns its bytes on the heap: for a caller about to retain or
    /// release it, which writes the object's reference count.
    ///
    /// A hint for loops over many values whose strings nothing has read for a while: nothing is
    /// read through the address, and a wrong one costs only the hint. Small strings keep their
    /// bytes in the value itself, and literals point at constant memory; both are skipped.
    @inline(__always)
    static func prefetchStringObject(at value: UnsafePointer<AttributeValue>) {
        guard case .string = value.pointee else { return }
        // A `String` is two words; the second holds its object's address under four bits that
        // say what kind of string it is, all zero for a native one.
        let bits = UnsafeRawPointer(value).load(fromByteOffset: MemoryLayout<UInt>.stride, as: UInt.self)
        guard bits >> 60 == 0, let object = UnsafeRawPointer(bitPattern: bits) else { return }
        logbook_prefetch_for_write(object)
    }

    /// ``prefetchStringObject(at:)`` for each of `count` values from `values`.
    @inline(__always)
    static func prefetchStringObjects(from values: UnsafePointer<AttributeValue>, count: Int) {
        for offset in 0..<count { prefetchStringObject(at: values + offset) }
    }
}
