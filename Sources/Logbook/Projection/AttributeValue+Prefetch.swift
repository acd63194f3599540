import CMemoryHints

extension AttributeValue {
    /// Starts loading the object of the string `value` points at, if it holds a native string,
    /// one that owns its bytes on the heap: the object's header (its reference count) and the
    /// first of its bytes share a cache line.
    ///
    /// A hint for loops over many values whose strings nothing has read for a while: nothing is
    /// read through the address, and a wrong one costs only the hint. Small strings keep their
    /// bytes in the value itself, and literals point at constant memory; both are skipped.
    ///
    /// - Parameter forWriting: Whether the caller will retain or release the string, which
    ///   writes its reference count.
    @inline(__always)
    static func prefetchStringObject(at value: UnsafePointer<AttributeValue>, forWriting: Bool) {
        guard case .string = value.pointee else { return }
        // A `String` is two words; the second holds its object's address under four bits that
        // say what kind of string it is, all zero for a native one.
        let bits = UnsafeRawPointer(value).load(fromByteOffset: MemoryLayout<UInt>.stride, as: UInt.self)
        guard bits >> 60 == 0, let object = UnsafeRawPointer(bitPattern: bits) else { return }
        if forWriting { logbook_prefetch_for_write(object) } else { logbook_prefetch(object) }
    }

    /// ``prefetchStringObject(at:forWriting:)`` for each of `count` values from `values`, for
    /// writing.
    @inline(__always)
    static func prefetchStringObjects(from values: UnsafePointer<AttributeValue>, count: Int) {
        for offset in 0..<count { prefetchStringObject(at: values + offset, forWriting: true) }
    }
}
