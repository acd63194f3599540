import Foundation

/// The stores on disk open in this process, by the resolved path of their directory, so that
/// every container of one store shares one ``Store``: one log, one writer lock, one projection.
///
/// Each container counts as one use of its store. The first opens it (replaying or migrating
/// its log); the others wait for that open, then share the result. When the last container goes,
/// the store is closed at once, its writer lock released before the release returns, so that
/// the store can be opened again straight away, in this process or another, whatever still
/// holds the `Store` object itself (a thread that appended a batch or ran migration stages may
/// let go of it a moment later).
///
/// Two locks, never held together: the table's, briefly, to find a store's slot and count who
/// is using or opening it; the slot's, while the store is opened or released, so that opening
/// one store never waits for another's replay.
final class StoreRegistry: Sendable {
    /// The registry of the process.
    static let shared = StoreRegistry()

    /// What the containers sharing a store must agree on.
    struct Terms: Sendable, Equatable {
        /// The schema's version and fingerprint, for messages and comparison.
        var version: Schema.Version
        var fingerprint: String
        /// The fingerprints of the migration plan's earlier schemas, oldest first.
        var history: [String]
        /// The migration plan's name; `nil` without one.
        var plan: String?

        /// The terms as a message names them.
        var description: String {
            "schema \(version) (fingerprint \(fingerprint.prefix(12))) and "
                + (plan.map { "migration plan \($0)" } ?? "no migration plan")
        }
    }

    /// A store in use and the number of containers using it.
    private struct Open: Sendable {
        let store: Store
        let terms: Terms
        var containers: Int
    }

    /// One store's place in the registry.
    private final class Slot: Sendable {
        let open = Locked<Open?>(nil)
    }

    /// The key of the store whose migration stage runs on this thread, while its `willMigrate`
    /// or `didMigrate` runs: a container of that store made there is refused instead of waiting
    /// forever for the open that runs the stage.
    @TaskLocal static var storeInMigration: String?

    /// The slots, each with the number of containers that use it or are opening it: a slot
    /// goes once that number is back to zero.
    private let slots = Locked<[String: (slot: Slot, claims: Int)]>([:])

    /// The key of the store in `directory`: its path with symbolic links resolved, those of its
    /// parent when the store does not exist yet.
    static func key(for directory: URL) -> String {
        let url = directory.standardizedFileURL
        if FileManager.default.fileExists(atPath: url.path) { return url.resolvingSymlinksInPath().path }
        let parent = url.deletingLastPathComponent().resolvingSymlinksInPath()
        return parent.appendingPathComponent(url.lastPathComponent).path
    }

    /// The store at `key`, opened by `open` unless a container of this process has it open
    /// already; the caller is then one more of its users, until ``release(_:)``.
    ///
    /// - Throws: ``LogbookError/Code/schemaMismatch`` naming both schemas and plans when the
    ///   store is open with other `terms`; what `open` throws.
    func store(at key: String, terms: Terms, opening open: () throws -> Store) throws -> Store {
        // The open of this store waits for the stage that asks: it would wait for itself.
        if Self.storeInMigration == key {
            throw LogbookError(
                .storeLocked,
                "a container of the store cannot be made inside its own migration stage (willMigrate or didMigrate), which runs while the store is being opened: use the ModelContext the stage is given",
                path: key
            )
        }
        let slot = claim(key)
        do {
            return try slot.open.withLock { current throws -> Store in
                if var shared = current {
                    guard shared.terms == terms else {
                        throw LogbookError(
                            .schemaMismatch,
                            "the store is already open in this process with \(shared.terms.description); this container asks for \(terms.description). Containers of one store in one process share its objects, so they must use the same schema and migration plan",
                            path: key
                        )
                    }
                    shared.containers += 1
                    current = shared
                    return shared.store
                }
                let store = try open()
                current = Open(store: store, terms: terms, containers: 1)
                return store
            }
        } catch {
            unclaim(key)
            throw error
        }
    }

    /// Ends one container's use of the store at `key`; the last closes it.
    func release(_ key: String) {
        guard let slot = slots.withLock({ $0[key]?.slot }) else {
            preconditionFailure("a store was released more often than it was opened: \(key)")
        }
        let closing = slot.open.withLock { current -> Store? in
            guard var shared = current else { return nil }
            shared.containers -= 1
            guard shared.containers == 0 else {
                current = shared
                return nil
            }
            current = nil
            // Closed before the slot can be claimed again: the next open takes the lock anew.
            shared.store.closeAfterUse()
            return shared.store
        }
        unclaim(key)
        // The store's memory is freed here, once no lock is held.
        _ = closing
    }

    /// The slot of `key`, made if needed, counted as used until ``unclaim(_:)``.
    private func claim(_ key: String) -> Slot {
        slots.withLock { slots in
            let entry = slots[key] ?? (Slot(), 0)
            slots[key] = (entry.slot, entry.claims + 1)
            return entry.slot
        }
    }

    private func unclaim(_ key: String) {
        slots.withLock { slots in
            guard let entry = slots[key] else { return }
            slots[key] = entry.claims > 1 ? (entry.slot, entry.claims - 1) : nil
        }
    }
}
