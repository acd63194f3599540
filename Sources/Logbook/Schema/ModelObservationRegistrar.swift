import Observation

/// Not API: the observation registrar `@Model` gives every model, made on the first read of a
/// persisted property that Observation can see, instead of with the object.
///
/// Foundation's `ObservationRegistrar` allocates two objects and a lock when it is created,
/// about 125 bytes and two `malloc`s per model, and frees them with the model. Most models a
/// store makes or saves are never observed: the items an app appends to a trip's bucket list
/// and saves, the models a server reads to answer a request. This wrapper holds no registrar
/// until a getter reports an access inside a tracking scope, and so those models never pay for
/// one.
///
/// It is exact, not an approximation of Observation: an observer of a model's property can only
/// be installed by `withObservationTracking` (or `Observations`) seeing that property's getter
/// call ``access(_:keyPath:)`` inside its scope, which creates the registrar first. Outside of
/// every scope Observation's own `access` records nothing, so a read there makes no registrar
/// (``ObservationScope`` tells the two apart; where it cannot, every read makes one). A model
/// without a registrar therefore has no observer, and a mutation of it has nobody to tell:
/// ``withMutation(of:keyPath:_:)`` then runs the mutation alone.
///
/// The generated property is `@exclusivity(unchecked)`: ``access(_:keyPath:)`` is its only
/// mutation, a single step that calls nothing that could reach the same model's registrar (the
/// wrapped `access` only records the key path in the current tracking scope).
///
/// ## Reaching the registrar in place
///
/// `ObservationRegistrar` is a resilient type, so Swift copies an optional one through value
/// witnesses whenever code unwraps it (`if let`, `?.`, even `== nil`): about 160 instructions per
/// property read, against 40 for the read itself. Where the layout allows it, this type tests and
/// reaches the registrar through a pointer instead: when `ObservationRegistrar?` is one word, the
/// same size as `ObservationRegistrar`, `nil` is a bit pattern that no registrar has, and a
/// registrar sits at the optional's address. ``InPlace`` checks that layout once per process
/// and finds the pattern; any other layout takes the unwrapping path.
public struct _$ModelObservationRegistrar: Sendable {
    /// The registrar, once a getter has reported an access.
    @usableFromInline var registrar: ObservationRegistrar?

    /// Not API: a registrar that has not been needed yet.
    public init() {}

    /// Whether the wrapped registrar exists: whether a tracking scope ever saw a persisted
    /// property read.
    var isCreated: Bool { registrar != nil }

    /// Not API: reports a read of a property, creating the registrar on the first one that a
    /// tracking scope can see. Called by generated getters.
    ///
    /// Inlinable, so that it compiles into each getter for the model's own types. The key path
    /// is an autoclosure: the generated getter passes a static property, whose first use
    /// check (`swift_once`) every read paid before it even asked for a tracking scope.
    @inlinable @inline(__always)
    public mutating func access<Subject: Observable, Member>(
        _ subject: Subject,
        keyPath: @autoclosure () -> KeyPath<Subject, Member>
    ) {
        // Outside of every tracking scope nobody can observe the read, registrar or not:
        // Observation's own `access` would record nothing. Asked first, it spares most reads
        // the rest, the registrar's layout included.
        guard ObservationScope.isActive() else { return }
        let keyPath = keyPath()
        guard let nilBits = InPlace.nilBits else { return accessThroughOptional(subject, keyPath) }
        withUnsafeMutablePointer(to: &registrar) { optional in
            if UnsafeRawPointer(optional).load(as: UInt.self) == nilBits {
                // `nil` holds nothing to release: initialize over it.
                Self.create(at: optional)
            }
            // A cast, not `withMemoryRebound`, which asks for the resilient type's metadata.
            UnsafeMutableRawPointer(optional).assumingMemoryBound(to: ObservationRegistrar.self)
                .pointee.accessInPlace(subject, keyPath)
        }
    }

    /// `access` for a layout of the optional that the in-place path does not know, out of
    /// line: inlined, its temporaries of the resilient registrar's type were set up on every
    /// read, whichever path the read took. Called only where a tracking scope may run.
    @usableFromInline @inline(never)
    mutating func accessThroughOptional<Subject: Observable, Member>(
        _ subject: Subject,
        _ keyPath: KeyPath<Subject, Member>
    ) {
        if registrar == nil { registrar = ObservationRegistrar() }
        registrar?.access(subject, keyPath: keyPath)
    }

    /// Not API: runs a mutation of a property, telling its observers, if the model has any.
    /// Called by generated setters and by Logbook's observed writes.
    ///
    /// Observers run inside the wrapped `withMutation` and may read the model again, which
    /// reaches ``access(_:keyPath:)`` while this call still holds the registrar's address. Both
    /// only read the registrar there: it exists, since the mutation is told only to one that
    /// does, so `access` does not make it again. The property is `@exclusivity(unchecked)`.
    ///
    /// The key path is an autoclosure, as in ``access(_:keyPath:)``: a model without a
    /// registrar never asks for it.
    @inlinable @inline(__always)
    public mutating func withMutation<Subject: Observable, Member, Result>(
        of subject: Subject,
        keyPath: @autoclosure () -> KeyPath<Subject, Member>,
        _ mutation: () throws -> Result
    ) rethrows -> Result {
        guard let nilBits = InPlace.nilBits else { return try mutateThroughOptional(subject, keyPath(), mutation) }
        // Mutating, like `access`, so that the registrar is reached where it is: a
        // non-mutating call copied this wrapper and then the optional, each through the value
        // witnesses of the resilient `ObservationRegistrar` (about 230 instructions a set).
        return try withUnsafeMutablePointer(to: &registrar) { optional in
            guard UnsafeRawPointer(optional).load(as: UInt.self) != nilBits else { return try mutation() }
            return try UnsafeMutableRawPointer(optional).assumingMemoryBound(to: ObservationRegistrar.self)
                .pointee.withMutationInPlace(subject, keyPath(), mutation)
        }
    }

    /// `withMutation` for a layout of the optional that the in-place path does not know, out
    /// of line, as ``accessThroughOptional(_:_:)`` is.
    @usableFromInline @inline(never)
    func mutateThroughOptional<Subject: Observable, Member, Result>(
        _ subject: Subject,
        _ keyPath: KeyPath<Subject, Member>,
        _ mutation: () throws -> Result
    ) rethrows -> Result {
        guard let registrar else { return try mutation() }
        return try registrar.withMutation(of: subject, keyPath: keyPath, mutation)
    }

    /// Makes the registrar of a model read for the first time, out of line: compiled into
    /// every getter, the reads that find it made stay short.
    @usableFromInline @inline(never)
    static func create(at optional: UnsafeMutablePointer<ObservationRegistrar?>) {
        optional.initialize(to: ObservationRegistrar())
    }

    /// Whether this process's `ObservationRegistrar` can be tested and reached in place, and the
    /// bits of `nil`.
    @usableFromInline
    enum InPlace {
        /// The one word of an `ObservationRegistrar?` that is `nil`, when the layout allows
        /// reaching the registrar in place; otherwise `nil`.
        @usableFromInline
        static let nilBits: UInt? = {
            guard MemoryLayout<ObservationRegistrar?>.size == MemoryLayout<UInt>.size,
                MemoryLayout<ObservationRegistrar>.size == MemoryLayout<UInt>.size,
                MemoryLayout<ObservationRegistrar?>.alignment >= MemoryLayout<UInt>.alignment
            else { return nil }
            let none: ObservationRegistrar? = nil
            let bits = withUnsafeBytes(of: none) { $0.load(as: UInt.self) }
            // A registrar never has the bits of `nil`; check it on one anyway.
            let some: ObservationRegistrar? = ObservationRegistrar()
            guard withUnsafeBytes(of: some, { $0.load(as: UInt.self) }) != bits else { return nil }
            return bits
        }()
    }
}

extension ObservationRegistrar {
    // Mutating only so that a call through a pointer's `pointee` reaches the registrar where it
    // is: a non-mutating call there copies it first.

    @inlinable @inline(__always)
    mutating func accessInPlace<Subject: Observable, Member>(
        _ subject: Subject,
        _ keyPath: KeyPath<Subject, Member>
    ) {
        access(subject, keyPath: keyPath)
    }

    @inlinable @inline(__always)
    mutating func withMutationInPlace<Subject: Observable, Member, Result>(
        _ subject: Subject,
        _ keyPath: KeyPath<Subject, Member>,
        _ mutation: () throws -> Result
    ) rethrows -> Result {
        try withMutation(of: subject, keyPath: keyPath, mutation)
    }
}
