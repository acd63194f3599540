import Synchronization

/// The unique indexes of a table loaded from a checkpoint, built the first time something needs
/// them.
///
/// A checkpoint stores the values, not the indexes over them, and building the index of
/// SampleTrips-100k's 100,000 unique names reads every name: about as long as the rest of an
/// open, and every page of the table's cells. A first screen needs none of it, so the table
/// keeps this until something asks its unique indexes a question (a lookup by unique value
/// builds them and reads the result) or changes the table (which builds them, then takes them
/// as its own; see ``EntityTable/adoptUniqueIndexes()``). The first save or unique lookup after
/// an open therefore pays for the build, once. The build works on a copy of the table as
/// loaded, whose columns it shares: a change copies a column before writing to it, and takes the
/// indexes first, so the result always describes the table as loaded.
final class PendingUniqueIndexes: Sendable {
    /// The indexes of the table as loaded.
    struct Built: Sendable {
        var unique: [UniqueIndex]
        var composite: [[[AttributeValue]: UInt64]]
    }

    /// The table as loaded, until the build has read it; then the indexes.
    private let state: Mutex<State>

    private enum State: Sendable {
        /// A copy of the table that shares the loaded table's columns, read by the build alone,
        /// under the lock.
        case loaded(EntityTable)
        case built(Built)
    }

    /// Keeps `table`, whose unique indexes are empty and whose live objects are all to be
    /// indexed, for a build on first use.
    init(deferring table: EntityTable) {
        state = Mutex(.loaded(table))
    }

    /// Whether the indexes have been built: for tests, which check that a fetch builds none.
    var isBuilt: Bool {
        state.withLock { state in
            if case .built = state { return true }
            return false
        }
    }

    /// The indexes, built by the first caller; later callers, on any thread, read the result.
    func built() -> Built {
        state.withLock { state in
            switch state {
            case .built(let built):
                return built
            case .loaded(let table):
                let built = Self.build(table)
                state = .built(built)
                return built
            }
        }
    }

    private static func build(_ loaded: EntityTable) -> Built {
        var table = loaded
        // Room for every object, allocated here: the indexes of the table as loaded are empty,
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
