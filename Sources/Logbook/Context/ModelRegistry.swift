/// The objects a context has registered, one per stored model, by identifier number.
///
/// The store hands identifier numbers out from one counter for every entity, so the numbers a
/// context meets are dense and mostly ascending (a fetch goes through a table in identifier
/// order; a save registers the numbers it just allocated). Pages of consecutive numbers find an
/// object with two reads, the page's address and the entry, where a hash table hashed every key
/// and scattered neighbours.
/// A page exists only once one of its numbers is registered, so a context that touches a few
/// objects of a large store stays small: a page of 64 numbers takes 1 KiB, so even a context
/// whose objects are all far apart pays less per object than the object itself costs. The page
/// table grows only as far as the pages in use justify; a number far beyond them (the first
/// lookups of a fresh context in a large store, or a damaged log) goes to a dictionary until the
/// pages reach it.
struct ModelRegistry {
    private static let pageShift = 6
    private static let pageSize = 1 << pageShift

    typealias Entry = (any PersistentModel)?

    /// The pages, as buffers of `pageSize` entries that one object owns: a lookup reads the
    /// page's address and then its entry. A page that was an array had its count read first,
    /// from another cache line: two cache misses, where a lookup in a large context usually
    /// has the page's address at hand.
    private final class Pages {
        /// By number >> pageShift; `nil` for a page not allocated yet. Unchecked: every access
        /// is a single read or write that calls out to nothing.
        @exclusivity(unchecked) var pages: [UnsafeMutablePointer<Entry>?] = []

        init() {}

        /// A copy whose pages hold the same models.
        init(copying other: Pages) {
            pages = other.pages.map { page in
                guard let page else { return nil }
                let copy = Pages.allocatePage()
                copy.update(from: page, count: ModelRegistry.pageSize)
                return copy
            }
        }

        /// A page of `nil` entries.
        static func allocatePage() -> UnsafeMutablePointer<Entry> {
            let page = UnsafeMutablePointer<Entry>.allocate(capacity: ModelRegistry.pageSize)
            page.initialize(repeating: nil, count: ModelRegistry.pageSize)
            return page
        }

        deinit {
            for case let page? in pages { page.deinitialize(count: ModelRegistry.pageSize) }
            for case let page? in pages { page.deallocate() }
        }
    }

    private var storage = Pages()
    private var sparse: [UInt64: any PersistentModel] = [:]
    /// The number of registered objects.
    private(set) var count = 0

    /// The registered object of an identifier number; assigning `nil` forgets it.
    subscript(number: UInt64) -> (any PersistentModel)? {
        @inline(__always) get {
            let page = number >> Self.pageShift
            if page < UInt64(storage.pages.count) {
                guard let entries = storage.pages[Int(page)] else { return nil }
                return entries[Int(number & UInt64(Self.pageSize - 1))]
            }
            return sparse.isEmpty ? nil : sparse[number]
        }
        set {
            if !isKnownUniquelyReferenced(&storage) { storage = Pages(copying: storage) }
            let page = number >> Self.pageShift
            if page >= UInt64(storage.pages.count), page < UInt64(storage.pages.count * 2 + 4096) {
                guard newValue != nil else { return removeSparse(number) }
                grow(toCover: Int(page))
            }
            guard page < UInt64(storage.pages.count) else {
                if let newValue {
                    if sparse.updateValue(newValue, forKey: number) == nil { count += 1 }
                } else {
                    removeSparse(number)
                }
                return
            }
            let entries: UnsafeMutablePointer<Entry>
            if let existing = storage.pages[Int(page)] {
                entries = existing
            } else {
                guard newValue != nil else { return }
                entries = Pages.allocatePage()
                storage.pages[Int(page)] = entries
            }
            let entry = entries + Int(number & UInt64(Self.pageSize - 1))
            let wasNil = entry.pointee == nil
            entry.pointee = newValue
            if wasNil, newValue != nil { count += 1 } else if !wasNil, newValue == nil { count -= 1 }
        }
    }

    /// Empties the registry a group of `pagesPerGroup` pages at a time: `prepare` sees each
    /// model of a group, then `handOver` gets a value that holds the group's models, the
    /// registry's only references to them. The models kept aside in the dictionary, far beyond
    /// the pages, come last, as one group.
    mutating func drain(
        pagesPerGroup: Int,
        prepare: (any PersistentModel) -> Void,
        handOver: (Any) -> Void
    ) {
        precondition(pagesPerGroup > 0, "a group holds at least one page")
        if !isKnownUniquelyReferenced(&storage) { storage = Pages(copying: storage) }
        let all = storage.pages
        storage.pages = []
        for start in stride(from: 0, to: all.count, by: pagesPerGroup) {
            // Pages never allocated are left out, and a group of none is not handed over.
            let pages = all[start..<min(start + pagesPerGroup, all.count)].filter { $0 != nil }
            if pages.isEmpty { continue }
            let group = Pages()
            group.pages = pages
            for case let entries? in group.pages {
                for offset in 0..<Self.pageSize {
                    if let model = entries[offset] { prepare(model) }
                }
            }
            handOver(group)
        }
        if !sparse.isEmpty {
            for model in sparse.values { prepare(model) }
            var rest: [UInt64: any PersistentModel] = [:]
            swap(&rest, &sparse)
            handOver(rest)
        }
        count = 0
    }

    /// Calls `body` with every registered object, in no particular order, without gathering
    /// them in an array first (which, for a context of 700,000 models, allocated and filled
    /// 27 MB). `body` must not change the registry.
    func forEachModel(_ body: (any PersistentModel) -> Void) {
        for case let entries? in storage.pages {
            for offset in 0..<Self.pageSize {
                if let model = entries[offset] { body(model) }
            }
        }
        for model in sparse.values { body(model) }
    }

    /// Every registered object, in no particular order.
    var values: [any PersistentModel] {
        var all: [any PersistentModel] = []
        all.reserveCapacity(count)
        forEachModel { all.append($0) }
        return all
    }

    private mutating func removeSparse(_ number: UInt64) {
        if sparse.removeValue(forKey: number) != nil { count -= 1 }
    }

    private mutating func grow(toCover page: Int) {
        let wanted = max(page + 1, storage.pages.count * 2, 64)
        storage.pages.reserveCapacity(wanted)
        while storage.pages.count < wanted { storage.pages.append(nil) }
        // Numbers the pages now cover leave the dictionary.
        guard !sparse.isEmpty else { return }
        let limit = UInt64(storage.pages.count) << Self.pageShift
        for (number, model) in sparse where number < limit {
            sparse[number] = nil
            count -= 1
            self[number] = model
        }
    }
}
