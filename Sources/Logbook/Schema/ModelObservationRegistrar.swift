import Observation

/// Not API: the observation registrar `@Model` gives every model, made on the first read of a
/// persisted property instead of with the object.
///
/// Foundation's `ObservationRegistrar` allocates when it is created, and most models a store
/// makes or saves are never read through their properties: the items an app appends to a
/// trip's bucket list and saves, for one. This wrapper holds no registrar until a getter reports
/// an access, so those models never pay for one.
///
/// It is exact, not an approximation of Observation: an observer of a model's property can only
/// be installed by `withObservationTracking` (or `Observations`) seeing that property's getter
/// call ``access(_:keyPath:)``, which creates the registrar first. A model without a registrar
/// therefore has no observer, and a mutation of it has nobody to tell:
/// ``withMutation(of:keyPath:_:)`` then runs the mutation alone.
///
/// The generated property is `@exclusivity(unchecked)`: ``access(_:keyPath:)`` is its only
/// mutation, a single step that calls nothing that could reach the same model's registrar (the
/// wrapped `access` only records the key path in the current tracking scope).
///
/// The registrar is held in a box of Logbook's own rather than as an optional of
/// `ObservationRegistrar`: Observation is a library with a resilient layout, so checking, copying
/// and destroying such an optional went through its value witnesses on every access and
/// mutation, where a reference to a box is a pointer that is `nil` or not.
public struct _$ModelObservationRegistrar: Sendable {
    /// The registrar of one model, made on the model's first read.
    @usableFromInline
    final class Box: Sendable {
        @usableFromInline let registrar = ObservationRegistrar()

        @usableFromInline init() {}
    }

    /// The registrar, once a getter has reported an access.
    @usableFromInline var box: Box?

    /// Not API: a registrar that has not been needed yet.
    public init() {}

    /// Whether the wrapped registrar exists: whether a persisted property was ever read.
    var isCreated: Bool { box != nil }

    /// Not API: reports a read of a property, creating the registrar on the first one. Called by
    /// generated getters.
    ///
    /// The key path is an autoclosure: the generated getter passes a static property, whose
    /// first-use check a read then pays only when it reaches Observation. Inlinable, as every
    /// generated getter calls it.
    @inlinable
    public mutating func access<Subject: Observable, Member>(
        _ subject: Subject,
        keyPath: @autoclosure () -> KeyPath<Subject, Member>
    ) {
        let box: Box
        if let existing = self.box {
            box = existing
        } else {
            box = Box()
            self.box = box
        }
        box.registrar.access(subject, keyPath: keyPath())
    }

    /// Not API: runs a mutation of a property, telling its observers, if the model has any.
    /// Called by generated setters and by Logbook's observed writes.
    ///
    /// Observers run inside the wrapped `withMutation` and may read the model again, which
    /// reaches ``access(_:keyPath:)``: the registrar exists then, since the mutation is told only
    /// to one that does, so `access` only reads it. Inlinable, as every generated setter calls it.
    @inlinable
    public func withMutation<Subject: Observable, Member, Result>(
        of subject: Subject,
        keyPath: @autoclosure () -> KeyPath<Subject, Member>,
        _ mutation: () throws -> Result
    ) rethrows -> Result {
        guard let box else { return try mutation() }
        return try box.registrar.withMutation(of: subject, keyPath: keyPath(), mutation)
    }
}
