/// An actor that works with a store in the background through a context of its own.
///
/// Apply `@ModelActor` to an actor to make it one: the macro adds ``modelContainer``,
/// ``modelExecutor`` and an `init(modelContainer:)` that makes a context for the actor, and the
/// actor then runs on that context's executor, so its methods use ``modelContext`` directly:
///
/// ```swift
/// @ModelActor
/// actor TripImporter {
///     func importTrips(_ names: [String]) throws {
///         for name in names {
///             modelContext.insert(Trip(name: name, destination: "", startDate: .now, endDate: .now))
///         }
///         try modelContext.save()
///     }
/// }
///
/// let importer = TripImporter(modelContainer: container)
/// try await importer.importTrips(["Lisbon", "Porto"])
/// ```
///
/// The container is `Sendable`; the context and its models are not, and stay in the actor.
/// Pass models between actors by their ``PersistentModel/persistentModelID``, and look them up
/// with ``subscript(_:as:)`` or ``ModelContext/model(for:)``. The main context sees what an
/// actor saved at its next fetch.
///
/// ## Topics
///
/// ### Requirements
/// - ``modelContainer``
/// - ``modelExecutor``
///
/// ### Working with models
/// - ``modelContext``
/// - ``subscript(_:as:)``
///
/// ### Isolation
/// - ``unownedExecutor``
public protocol ModelActor: Actor {
    /// The container whose store the actor works with.
    nonisolated var modelContainer: ModelContainer { get }

    /// The executor the actor runs on, which owns the actor's context.
    nonisolated var modelExecutor: any ModelExecutor { get }
}

extension ModelActor {
    /// The actor's executor: its ``modelExecutor``, which must be serial.
    ///
    /// - Precondition: ``modelExecutor`` conforms to `SerialExecutor`, as
    ///   ``DefaultSerialModelExecutor`` does.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        guard let serial = modelExecutor as? any SerialExecutor else {
            preconditionFailure("the modelExecutor of \(Self.self) is not a SerialExecutor, so it cannot run an actor")
        }
        return serial.asUnownedSerialExecutor()
    }

    /// The actor's context, which its methods use to insert, fetch, change, delete and save.
    public var modelContext: ModelContext {
        modelExecutor.modelContext
    }

    /// The model with an identifier, from the actor's context, if it is of type `T`.
    ///
    /// ```swift
    /// if let trip = self[tripID, as: Trip.self] { trip.destination = "Porto" }
    /// ```
    ///
    /// - Parameters:
    ///   - id: The model's identifier, passed from another isolation domain.
    ///   - as: The model's type.
    /// - Returns: The registered object, or one made from the store; `nil` when the store has no
    ///   such model or it is not a `T`.
    public subscript<T: PersistentModel>(id: PersistentIdentifier, as as: T.Type) -> T? {
        if let registered: T = modelContext.registeredModel(for: id) { return registered }
        return modelContext.model(for: id) as? T
    }
}
