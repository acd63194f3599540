import CMemoryHints
@_spi(Reflection) import Swift

/// Where objects of a few model types keep their strings, so that a loop about to release or
/// save many models can ask for the strings' objects a few models ahead.
///
/// Releasing the last reference to a model releases each of its strings, which writes the
/// string object's reference count. The strings of a large context's models are all over the
/// heap, and nothing has read most of them for a while: released one model after the other,
/// each string waited for its cache miss before the next began. After inserting
/// SampleTrips-100k in one context, the freeing of its 700,000 models went on for 34 ms after
/// the context's release had returned; asking for the objects and their strings ahead, 4 ms.
///
/// The fields are found once per type through the standard library's reflection of stored
/// properties. A type whose fields it cannot list simply gets no hints: they are only hints,
/// and a wrong one costs nothing but itself.
struct ModelStringFields {
    /// For each type, its metadata's address (the first word of each of its objects), the
    /// number of its string fields, then their byte offsets in the object: one array read
    /// through one pointer in the releasing loop, without a retain per lookup.
    private let table: [UInt]

    /// The string fields of `types`' objects.
    init(_ types: [any PersistentModel.Type]) {
        var table: [UInt] = []
        // An optional model reference must be the object's address followed by its witness
        // table, `nil` being address zero: the releasing loop reads objects through it.
        if MemoryLayout<(any PersistentModel)?>.size == 2 * MemoryLayout<UInt>.size {
            for type in types {
                let offsets = Self.stringFieldOffsets(of: type)
                if offsets.isEmpty { continue }
                table.append(UInt(bitPattern: ObjectIdentifier(type)))
                table.append(UInt(offsets.count))
                table.append(contentsOf: offsets.map { UInt($0) })
            }
        }
        self.table = table
    }

    /// Whether there is any string to ask for.
    var isEmpty: Bool { table.isEmpty }

    /// The byte offsets of the `String` and `String?` stored properties of `type`'s objects,
    /// from the start of the object; empty when the standard library cannot list them.
    static func stringFieldOffsets(of type: any AnyObject.Type) -> [Int] {
        var offsets: [Int] = []
        // `classType` (1) lists a class's stored properties, with offsets from the start of
        // the object; `ignoreUnknown` (2) skips fields it cannot describe instead of failing.
        let listed = _forEachField(of: type, options: _EachFieldOptions(rawValue: 3)) { _, offset, field, _ in
            if field == String.self || field == String?.self { offsets.append(offset) }
            return true
        }
        return listed ? offsets : []
    }

    /// Calls `body` with a reader of the table, valid during the call.
    func withReader<Result>(_ body: (Reader) throws -> Result) rethrows -> Result {
        try table.withUnsafeBufferPointer { try body(Reader(table: $0)) }
    }

    /// Where the reference at `index` of `models` is, for a ``Reader``; `nil` past the end, or
    /// where a model reference is not the object's address followed by its witness table.
    @inline(__always)
    static func reference(in models: UnsafeBufferPointer<any PersistentModel>, at index: Int) -> UnsafeRawPointer? {
        guard index < models.count, MemoryLayout<any PersistentModel>.size == 2 * MemoryLayout<UInt>.size,
            let base = models.baseAddress
        else { return nil }
        return UnsafeRawPointer(base + index)
    }

    /// Asks for objects and their strings, given where the models' references are.
    struct Reader {
        let table: UnsafeBufferPointer<UInt>

        /// Starts loading, for write, the model object that `entry` refers to, if any.
        @inline(__always)
        func prefetchObject(at entry: UnsafeRawPointer) {
            guard let object = UnsafeRawPointer(bitPattern: entry.load(as: UInt.self)) else { return }
            logbook_prefetch_for_write(object)
        }

        /// Starts loading, for write, the strings' objects of the model that `entry` refers to,
        /// if any, when its type is in the table. Reads the object's first word: `entry` must
        /// hold a reference to a live model, or `nil`. The string fields are read without
        /// synchronization (see `logbook_prefetch_string_objects`).
        @inline(__always)
        func prefetchStrings(ofObjectAt entry: UnsafeRawPointer) {
            guard let object = UnsafeRawPointer(bitPattern: entry.load(as: UInt.self)) else { return }
            let metadata = object.load(as: UInt.self)
            var index = 0
            while index &+ 1 < table.count {
                let count = Int(table[index &+ 1])
                if table[index] == metadata {
                    // In C: an app may be changing a string of a model it still holds meanwhile.
                    guard let offsets = table.baseAddress else { return }
                    logbook_prefetch_string_objects(object, offsets + (index &+ 2), count)
                    return
                }
                index &+= 2 &+ count
            }
        }
    }
}
