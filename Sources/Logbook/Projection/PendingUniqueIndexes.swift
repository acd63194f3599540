import Dispatch

/// The unique indexes of a table loaded from a checkpoint, built on another thread while the
/// open goes on.
///
/// A checkpoint stores the values, not the indexes over them, and building the index of
/// SampleTrips-100k's 100,000 unique names takes a good part of an open. A first screen needs
/// none of it: the table keeps this until something asks its unique indexes a question (a
/// lookup by unique value waits for the build and reads the result) or changes the table (which
/// waits, then takes the indexes as its own; see ``EntityTable/adoptUniqueIndexes()``). The
/// build works on a copy of the table as loaded, whose columns it shares: a change copies a
/// column before writing to it, and takes the indexes first, so the result always describes the
/// table as loaded.
final class PendingUniqueIndexes: @unchecked Sendable {
    /// The indexes of the table as loaded.
    struct Built: Sendable {
        var unique: [UniqueIndex]
        var composite: [[[AttributeValue]: UInt64]]
    }

    private let group = DispatchGroup()
    // Written once by the build, before `group` is left; read only after waiting on it.
    private var result: Built?

    /// Starts building the indexes of `table`, whose unique indexes are empty and whose live
    /// objects are all to be indexed.
    init(building table: EntityTable) {
        group.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            result = Self.build(table)
            group.leave()
        }
    }

    /// The indexes, once built.
    func built() -> Built {
        group.wait()
        guard let result else { preconditionFailure("a unique index build left no result") }
        return result
    }

    private static func build(_ loaded: EntityTable) -> Built {
        var table = loaded
        // Room for every object, allocated here: the loading thread leaves the indexes empty,
        // and an index shared with the loaded table would be copied on the first insert.
        table.restoreUnique(table.uniqueAttributes, expecting: table.count)
        // The values are read from the checkpoint's cells without being decoded into the
        // column, which holds only what the app reads: building an index decoded every unique
        // value of the table (and wrote the memory of every object's values) for a first
        // screen that shows twenty.
        for (slot, id) in table.identifiers.enumerated() where id != 0 {
            table.indexAsLoaded(id, slot: slot)
        }
        return table.builtIndexes
    }
}
