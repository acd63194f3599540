/// The objects a context has registered, one per stored model, by identifier number.
///
/// The store hands identifier numbers out from one counter for every entity, so the numbers a
/// context meets are dense and mostly ascending (a fetch goes through a table in identifier
/// order; a save registers the numbers it just allocated). Pages of consecutive numbers find an
/// object with two array reads, where a hash table hashed every key and scattered neighbours.
/// A page exists only once one of its numbers is registered, so a context that touches a few
/// objects of a large store stays small: a page of 64 numbers takes 1 KiB, so even a context
/// whose objects are all far apart pays less per object than the object itself costs. The page
/// table grows only as far as the pages in use justify; a number far beyond them (the first
/// lookups of a fresh context in a large store, or a damaged log) goes to a dictionary until the
/// pages reach it.
struct ModelRegistry {
    private static let pageShift = 6
    private static let pageSize = 1 << pageShift

    /// The pages, by number >> pageShift; an empty array is a page not allocated yet.
    private var pages: [[(any PersistentModel)?]] = []
    private var sparse: [UInt64: any PersistentModel] = [:]
    /// The number of registered objects.
    private(set) var count = 0

    /// The registered object of an identifier number; assigning `nil` forgets it.
    subscript(number: UInt64) -> (any PersistentModel)? {
        @inline(__always) get {
            let page = number >> Self.pageShift
            if page < UInt64(pages.count) {
                guard !pages[Int(page)].isEmpty else { return nil }
                return pages[Int(page)][Int(number & UInt64(Self.pageSize - 1))]
            }
            return sparse.isEmpty ? nil : sparse[number]
        }
        set {
            let page = number >> Self.pageShift
            if page >= UInt64(pages.count), page < UInt64(pages.count * 2 + 4096) {
                guard newValue != nil else { return removeSparse(number) }
                grow(toCover: Int(page))
            }
            guard page < UInt64(pages.count) else {
                if let newValue {
                    if sparse.updateValue(newValue, forKey: number) == nil { count += 1 }
                } else {
                    removeSparse(number)
                }
                return
            }
            let offset = Int(number & UInt64(Self.pageSize - 1))
            if pages[Int(page)].isEmpty {
                guard newValue != nil else { return }
                pages[Int(page)] = Array(repeating: nil, count: Self.pageSize)
            }
            let wasNil = pages[Int(page)][offset] == nil
            pages[Int(page)][offset] = newValue
            if wasNil, newValue != nil { count += 1 } else if !wasNil, newValue == nil { count -= 1 }
        }
    }

    /// Calls `body` with every registered object, in no particular order, without gathering
    /// them in an array first (which, for a context of 700,000 models, allocated and filled
    /// 27 MB). `body` must not change the registry.
    func forEachModel(_ body: (any PersistentModel) -> Void) {
        for page in pages { for case let model? in page { body(model) } }
        for model in sparse.values { body(model) }
    }

    /// Every registered object, in no particular order.
    var values: [any PersistentModel] {
        var all: [any PersistentModel] = []
        all.reserveCapacity(count)
        for page in pages { for case let model? in page { all.append(model) } }
        all.append(contentsOf: sparse.values)
        return all
    }

    private mutating func removeSparse(_ number: UInt64) {
        if sparse.removeValue(forKey: number) != nil { count -= 1 }
    }

    private mutating func grow(toCover page: Int) {
        let wanted = max(page + 1, pages.count * 2, 64)
        pages.reserveCapacity(wanted)
        while pages.count < wanted { pages.append([]) }
        // Numbers the pages now cover leave the dictionary.
        guard !sparse.isEmpty else { return }
        let limit = UInt64(pages.count) << Self.pageShift
        for (number, model) in sparse where number < limit {
            sparse[number] = nil
            count -= 1
            self[number] = model
        }
    }
}
