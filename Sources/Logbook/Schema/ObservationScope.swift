import CObservationTracking
import Observation

/// Whether `withObservationTracking` is running on the calling thread: whether a read of a
/// model's property could be observed at all.
///
/// Observation records a read only inside a tracking scope (`withObservationTracking`, and
/// `Observations`, which uses it): `ObservationRegistrar.access` looks up the scope's access
/// list in a thread-local variable and does nothing without one. A model that is read outside
/// of every scope therefore needs no registrar, and `_$ModelObservationRegistrar` makes one only
/// for a read that a scope can see. Most reads happen outside: an app or server walking a graph
/// of models, a fetch's predicate and sort. Making a registrar for each cost about 700
/// instructions and 125 bytes per model read.
///
/// The variable is private to the Swift runtime. On Linux with glibc, the runtime's Observation
/// library is a shared object whose thread-local storage holds it, first and alone; this type
/// finds that block and checks, once per process, that it behaves as the scope's variable: set
/// inside `withObservationTracking` to a value of its own, restored after it. If anything
/// differs (another platform, a statically linked runtime, a future runtime that keeps it
/// elsewhere), ``isActive`` answers `true` always, which is what creating the registrar on
/// every read assumed before.
///
/// `@usableFromInline` because the inlinable `_$ModelObservationRegistrar.access`, which
/// compiles into every generated getter, calls it.
@usableFromInline
enum ObservationScope {
    /// Whether a tracking scope may be running on the calling thread: `false` only when this
    /// process can tell that none is.
    ///
    /// - Complexity: O(1): a load of this library's own thread-local variable and of the one it
    ///   points at; the first call on a thread asks the dynamic linker for the address.
    @usableFromInline
    static func isActive() -> Bool {
        switch logbook_observation_scope() {
        case 0: return false
        case 1: return true
        default: return bindThread()
        }
    }

    /// ``isActive()`` on a thread that has not asked before: binds the thread to Observation's
    /// variable, once the process has checked it, so that later reads skip the dynamic linker.
    @inline(never)
    private static func bindThread() -> Bool {
        guard let module = Probe.module else { return true }
        logbook_observation_bind(module)
        return logbook_observation_tls_load(module) != nil
    }

    /// Whether this process can tell that no tracking scope runs, for tests.
    static var canTell: Bool { Probe.module != nil }

    private enum Probe {
        /// The runtime's thread-local block of Observation, when it passed the check.
        static let module: Int? = {
            let module = logbook_observation_tls_module()
            guard module != 0 else { return nil }
            let outside = logbook_observation_tls_load(module)
            // Inside a scope the variable points at the scope's access list, on its stack: not
            // NULL, and not the variable of an enclosing scope, if this runs inside one.
            nonisolated(unsafe) var inside: UnsafeMutableRawPointer?
            withObservationTracking {
                inside = logbook_observation_tls_load(module)
            } onChange: {
            }
            let after = logbook_observation_tls_load(module)
            guard let inside, inside != outside, after == outside else { return nil }
            return module
        }()
    }
}
