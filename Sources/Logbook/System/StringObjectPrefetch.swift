import CMemoryHints

/// Asks for the object of a string ahead of a retain or release of it.
enum StringObjectPrefetch {
    /// Starts loading, for write, the object of the `String` stored at `string`, if it is a
    /// native string, one that owns its bytes on the heap: for a caller about to retain or
    /// release it, which writes the object's reference count.
    ///
    /// A hint for loops over many strings that nothing has read for a while: nothing is read
    /// through the address, and a wrong one costs only the hint. Small strings keep their bytes
    /// in the value itself, and literals point at constant memory; both are skipped. `string`
    /// may also hold an `Optional<String>`, whose `nil` is skipped too.
    @inline(__always)
    static func prefetchObject(ofStringAt string: UnsafeRawPointer) {
        // A `String` is two words; the second holds its object's address under four bits that
        // say what kind of string it is, all zero for a native one.
        let bits = string.load(fromByteOffset: MemoryLayout<UInt>.stride, as: UInt.self)
        guard bits >> 60 == 0, let object = UnsafeRawPointer(bitPattern: bits) else { return }
        logbook_prefetch_for_write(object)
    }
}
