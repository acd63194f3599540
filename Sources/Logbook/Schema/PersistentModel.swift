/// A class whose objects Logbook persists.
///
/// Do not conform to this protocol yourself: apply ``Model()`` to a class, which adds the
/// conformance and everything it requires. A subclass of a model class marked `@Model` too
/// inherits the conformance (model inheritance).
///
/// ```swift
/// @Model
/// final class Trip {
///     var name: String
///     init(name: String) { self.name = name }
/// }
///
/// let trip = Trip(name: "Lisbon")
/// trip.persistentModelID.entityName   // "Trip"
/// ```
///
/// Models are `Observable`: SwiftUI views and `withObservationTracking` see changes to their
/// persisted properties. Two model values are equal when they are the same object.
///
/// The requirements whose names start with `_$` are not API: only the code `@Model` generates
/// implements and calls them, and they may change in any release.
///
/// ## Topics
///
/// ### Identity
/// - ``persistentModelID``
/// - ``id``
///
/// ### Changes
/// - ``hasChanges``
///
/// ### Context
/// - ``modelContext``
/// - ``isDeleted``
public protocol PersistentModel: AnyObject, Observable, Hashable, Identifiable, SendableMetatype {
    /// Not API: the model's bookkeeping. See ``_$ModelStorage``.
    var _$storage: _$ModelStorage { get set }

    /// Not API: the registrar that makes the model observable, made on first use. See
    /// ``_$ModelObservationRegistrar``.
    var _$observationRegistrar: _$ModelObservationRegistrar { get set }

    /// Not API: how Logbook reads and writes the model's persisted properties, as a class that
    /// each model class overrides: a requirement of type `_$ModelBinding<Self>` could not be
    /// met by a class that other model classes inherit from. See ``_$binding``.
    static var _$bindingBox: _$AnyModelBinding { get }

    /// Not API: creates a model from stored values without running the user's initializer.
    ///
    /// - Parameters:
    ///   - _$storage: The model's bookkeeping, prepared by the context.
    ///   - values: One value per persisted property, in index order; relationships take
    ///     ``AttributeValue/null`` and start empty.
    /// - Throws: ``SchemaError`` when a value does not fit its property.
    init(_$storage: consuming _$ModelStorage, values: inout [AttributeValue]) throws

    /// Not API: the number of the model's permanent identifier, once it has one.
    ///
    /// A requirement that the model implements, so that asking a model whose type is not known
    /// reads the field: through ``_$storage``'s `_modify`, the same read took 37 instructions,
    /// and a save asks several times per model.
    var _$storedNumber: UInt64? { get }
}

extension PersistentModel {
    /// The model's identifier: permanent once a context has inserted it, temporary before.
    ///
    /// A temporary identifier stays the same until the model is inserted.
    public var persistentModelID: PersistentIdentifier {
        // The object's own class, which may be a subclass of `Self`.
        let entityName = type(of: self)._$bindingBox.entityName
        if let identifier = inPlace({ $0.identifier(entityName: entityName) }) { return identifier }
        let number = PersistentIdentifier.nextTemporaryNumber()
        _$storage.setIdentifier(number, kind: .temporary)
        return PersistentIdentifier(entityName: entityName, number: number, isTemporary: true)
    }

    /// Not API: how Logbook reads and writes the persisted properties of this very class (not
    /// of a subclass: ``_$bindingBox`` is the class's own).
    public static var _$binding: _$ModelBinding<Self> {
        guard let box = _$bindingBox as? _$ModelBindingBox<Self> else {
            preconditionFailure(
                "\(Self.self) has the binding of \(_$bindingBox.entityName): is '@Model' missing on it?"
            )
        }
        return box.binding
    }

    /// Not API: an array of this type holding `models`, which are all of this type.
    static func _$array(_ models: [AnyObject]) -> [Self] {
        _$ModelStorage._$array(models, of: Self.self)
    }

    /// The model's identifier, ``persistentModelID``.
    public var id: PersistentIdentifier { persistentModelID }

    /// Whether any persisted property was set since the model was last saved or fetched.
    ///
    /// Assignments in the model's initializer do not count: a new model is saved whole.
    public var hasChanges: Bool { inPlace { $0.hasChanges } }

    /// Whether two values are the same object.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs === rhs
    }

    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
