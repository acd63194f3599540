// The macros. Their implementations live in the LogbookMacros target; the expansions
// call the `_$`-prefixed types of this module, which are not API.

/// Makes a class a persistent model.
///
/// `@Model` conforms the class to ``PersistentModel`` (and so to `Observable`), records its
/// schema, and backs every stored property with tracked storage. Write the class as for
/// SwiftData, with `import Logbook` in place of `import SwiftData`:
///
/// ```swift
/// import Logbook
///
/// @Model
/// final class Trip {
///     @Attribute(.unique) var name: String
///     var destination: String
///     @Attribute(originalName: "start_date") var startDate: Date
///     @Attribute(originalName: "end_date") var endDate: Date
///
///     @Relationship(.cascade)
///     var bucketList: [BucketListItem]? = []
///
///     @Relationship(.cascade)
///     var livingAccommodation: LivingAccommodation?
///
///     @Transient
///     var tripViews: Int = 0
///
///     init(name: String, destination: String, startDate: Date, endDate: Date) {
///         self.name = name
///         self.destination = destination
///         self.startDate = startDate
///         self.endDate = endDate
///     }
/// }
/// ```
///
/// The entity's name is the class's unqualified name, so models nested in different
/// ``VersionedSchema`` types are versions of one entity.
///
/// Every stored `var` is persisted unless it is `@Transient`. Its type decides what it is:
/// - an attribute, for `Bool`, the integer types, `Double`, `Float`, `Decimal`, `String`,
///   `Date`, `UUID`, `URL`, `Data`, `RawRepresentable` enums and other `Codable` types, and
///   optionals and arrays of these (see ``AttributeValue`` for how each is stored);
/// - a relationship, for an optional model (`Trip?`), an array of models (`[Item]`), or an
///   optional array of models (`[Item]?`).
///
/// Any other type is a compile-time error on the property, with a message that lists what is
/// supported.
///
/// The class keeps its initializers: assignments in them initialize the properties and record
/// no change, since a new model is saved whole. If the class declares no initializer and every
/// persisted property has a default, `@Model` adds an empty `init()`.
///
/// ## Model inheritance
///
/// A model class that is not `final` can be subclassed by another `@Model` class, as in
/// SwiftData on iOS 26. The subclass's entity has the superclass's properties and its own, and
/// names the superclass's as its ``Schema/Entity/superentity``; a fetch of the superclass
/// returns the subclass's objects too, each as its own class. A subclass must declare an
/// initializer that calls `super.init` (the macros that expand its properties take that call
/// as the sign of a subclass):
///
/// ```swift
/// @Model
/// class Trip {
///     var name: String
///     var startDate: Date
///     init(name: String, startDate: Date) { self.name = name; self.startDate = startDate }
/// }
///
/// @Model
/// final class BusinessTrip: Trip {
///     var perdiem: Double
///     init(name: String, startDate: Date, perdiem: Double) {
///         self.perdiem = perdiem
///         super.init(name: name, startDate: startDate)
///     }
/// }
///
/// let container = try ModelContainer(for: Trip.self, BusinessTrip.self)
/// let business = try context.fetch(FetchDescriptor<Trip>()).compactMap { $0 as? BusinessTrip }
/// ```
///
/// A subclass inherits its superclass's relationships, and a relationship to a class holds
/// objects of its subclasses too. A unique constraint of a class holds across its subclasses:
/// an insert whose value an object of another class holds upserts into that object, which
/// keeps its class.
///
/// `@Model` reports an error, attached to the offending token, when it is applied to
/// something other than a non-generic class, when a subclass of a model class declares no
/// initializer that calls `super.init`, when a class that calls `super.init` inherits from a
/// class that is not a model, when a persisted property is a `let`, has no type annotation, has
/// property observers, or declares several variables at once.
@attached(
    member,
    conformances: PersistentModel,
    names: named(_$observationRegistrar),
    named(_$storage),
    named(_$bindingBox),
    named(_$bindingBoxStorage),
    named(_$indexBase),
    named(_$storedNumber),
    named(init)
)
@attached(memberAttribute)
@attached(extension, conformances: PersistentModel)
public macro Model() = #externalMacro(module: "LogbookMacros", type: "ModelMacro")

/// Customises how an attribute is stored.
///
/// ```swift
/// @Attribute(.unique) var name: String
/// @Attribute(originalName: "start_date") var startDate: Date
/// @Attribute(.externalStorage, hashModifier: "2") var photo: Data?
/// ```
///
/// `.unique` is accepted on numeric types, `String` and `UUID` (and optionals of them); on
/// any other type it is a compile-time error.
///
/// - Parameters:
///   - options: The attribute's options: ``Schema/Attribute/Option/unique``,
///     ``Schema/Attribute/Option/externalStorage``,
///     ``Schema/Attribute/Option/preserveValueOnDeletion``,
///     ``Schema/Attribute/Option/ephemeral``, ``Schema/Attribute/Option/spotlight``,
///     ``Schema/Attribute/Option/allowsCloudEncryption``,
///     ``Schema/Attribute/Option/transformable(by:)``.
///   - originalName: The property's name in an earlier schema version, when it was renamed.
///     Stored values written under the old name are read into this property.
///   - hashModifier: Any string; changing it changes the schema's fingerprint, forcing a new
///     schema version where nothing else changed.
@attached(peer)
public macro Attribute(
    _ options: Schema.Attribute.Option...,
    originalName: String? = nil,
    hashModifier: String? = nil
) = #externalMacro(module: "LogbookMacros", type: "AttributeMacro")

/// Customises a relationship: its delete rule, counts, original name and inverse.
///
/// ```swift
/// @Relationship(deleteRule: .cascade, inverse: \BucketListItem.trip)
/// var bucketList: [BucketListItem]? = []
/// ```
///
/// Inverses need no annotation when they are unambiguous: the schema pairs a relationship
/// with the only relationship of the destination that points back. When there are several
/// candidates, name the inverse on one side; that is enough for both.
///
/// Do not name it on both sides. The Swift compiler type-checks the key path in `inverse:`
/// while it resolves the attribute, which needs the other property's attributes resolved,
/// whose key path needs this one's: it reports "circular reference resolving attached macro
/// 'Relationship'". This happens with any attached macro whose arguments hold key paths to
/// each other, whatever it expands to (SwiftData has the same limitation). Logbook's schema
/// itself accepts explicit inverses on both sides when they agree, and builds every model's
/// description without touching another model's at static initialisation, so there is no
/// run-time cycle either way.
///
/// - Parameters:
///   - options: The relationship's options: ``Schema/Relationship/Option/unique`` (to-one
///     only).
///   - deleteRule: What deleting this model does to the related models; `.nullify` by default.
///   - minimumModelCount: The fewest related models a save accepts; `0` for no minimum.
///   - maximumModelCount: The most related models a save accepts; `0` for no maximum.
///   - originalName: The property's name in an earlier schema version, when it was renamed.
///   - inverse: The relationship on the destination that points back: `\Destination.property`.
///   - hashModifier: Any string; changing it changes the schema's fingerprint.
@attached(peer)
public macro Relationship(
    _ options: Schema.Relationship.Option...,
    deleteRule: Schema.Relationship.DeleteRule = .nullify,
    minimumModelCount: Int? = 0,
    maximumModelCount: Int? = 0,
    originalName: String? = nil,
    inverse: AnyKeyPath? = nil,
    hashModifier: String? = nil
) = #externalMacro(module: "LogbookMacros", type: "RelationshipMacro")

/// Customises a relationship, with the delete rule first: the spelling of the WWDC23 talk
/// "Model your schema with SwiftData".
///
/// ```swift
/// @Relationship(.cascade)
/// var livingAccommodation: LivingAccommodation?
/// ```
///
/// - Parameters:
///   - deleteRule: What deleting this model does to the related models.
///   - options: The relationship's options: ``Schema/Relationship/Option/unique`` (to-one
///     only).
///   - minimumModelCount: The fewest related models a save accepts; `0` for no minimum.
///   - maximumModelCount: The most related models a save accepts; `0` for no maximum.
///   - originalName: The property's name in an earlier schema version, when it was renamed.
///   - inverse: The relationship on the destination that points back: `\Destination.property`.
///   - hashModifier: Any string; changing it changes the schema's fingerprint.
@attached(peer)
public macro Relationship(
    _ deleteRule: Schema.Relationship.DeleteRule,
    _ options: Schema.Relationship.Option...,
    minimumModelCount: Int? = 0,
    maximumModelCount: Int? = 0,
    originalName: String? = nil,
    inverse: AnyKeyPath? = nil,
    hashModifier: String? = nil
) = #externalMacro(module: "LogbookMacros", type: "RelationshipMacro")

/// Excludes a stored property from persistence.
///
/// A transient property keeps its value while the object lives, is not saved, and takes its
/// declared default when a model is fetched. The default is therefore required; leaving it out
/// is a compile-time error whose fix-it inserts one.
///
/// ```swift
/// @Transient
/// var tripViews: Int = 0
/// ```
@attached(peer)
public macro Transient() = #externalMacro(module: "LogbookMacros", type: "TransientMacro")

/// Not API: turns a persisted property into accessors over a typed backing field and
/// describes it to the model's binding. `@Model` attaches it to each persisted property, with
/// the property's index among the class's own, and `inherited: true` in a subclass of a model
/// class, whose indexes follow its superclass's.
@attached(accessor, names: named(init), named(get), named(set))
@attached(peer, names: prefixed(_), prefixed(_$property_), prefixed(_$keyPath_))
public macro _LogbookPersistedProperty(_ index: Int, inherited: Bool = false) =
    #externalMacro(module: "LogbookMacros", type: "PersistedPropertyMacro")

/// Makes an actor a ``ModelActor``: one that works with a store through a context of its own.
///
/// Write the actor as for SwiftData, with `import Logbook` in place of `import SwiftData`:
///
/// ```swift
/// @ModelActor
/// actor TripImporter {
///     func importTrips() throws {
///         modelContext.insert(Trip(name: "Lisbon", destination: "Lisbon", startDate: .now, endDate: .now))
///         try modelContext.save()
///     }
/// }
///
/// let importer = TripImporter(modelContainer: container)
/// try await importer.importTrips()
/// ```
///
/// `@ModelActor` adds to the actor:
/// - `nonisolated let modelExecutor: any ModelExecutor` and
///   `nonisolated let modelContainer: ModelContainer`;
/// - `init(modelContainer:)`, which makes a ``ModelContext`` for the container and a
///   ``DefaultSerialModelExecutor`` that owns it;
/// - the conformance to ``ModelActor``, which runs the actor on that executor and gives its
///   methods ``ModelActor/modelContext``.
///
/// The members take the actor's access level when it is `public` or `package`. Applied to
/// anything but an actor, `@ModelActor` reports an error on the declaration's keyword.
@attached(member, names: named(modelExecutor), named(modelContainer), named(init))
@attached(extension, conformances: ModelActor)
public macro ModelActor() = #externalMacro(module: "LogbookMacros", type: "ModelActorMacro")

/// Declares unique constraints of a model, each over one or more of its properties.
///
/// Write it in the body of the `@Model` class, naming the class, with one list of key paths
/// per constraint:
///
/// ```swift
/// @Model
/// final class Trip {
///     #Unique<Trip>([\.name, \.startDate], [\.code])
///
///     var name: String
///     var startDate: Date
///     var code: String
///     …
/// }
/// ```
///
/// Two trips may share a name or a start date, but not both; no two trips share a code.
/// A constraint over one property, such as `[\.code]`, is exactly `@Attribute(.unique)` on
/// that property. A constraint is an *upsert*, as `.unique` is: saving a model whose values of
/// a constraint's properties all equal those of a stored model updates the stored model
/// instead (the newer values win, to-many relationships are united, a set to-one relationship
/// replaces the older one), and the inserted model stands in for it. A model with `nil` in
/// one of a constraint's properties is not held to that constraint.
///
/// A constraint over several properties names attributes that are not arrays; a constraint
/// over one property may also name a to-one relationship. Adding or removing a constraint is a
/// schema change: a new ``VersionedSchema`` and a lightweight ``MigrationStage``, or a store
/// opened without a plan, migrate it, folding the stored models that share values into one
/// as the log is replayed (see <doc:Migrations>).
///
/// `#Unique` reports an error outside the body of a `@Model` class, for another class than
/// the one it is in, for an empty list, and for a key path that does not name a persisted
/// attribute or to-one relationship of the model.
///
/// - Parameter constraints: One list of key paths per constraint.
@freestanding(declaration)
public macro Unique<T>(_ constraints: [PartialKeyPath<T>]...) =
    #externalMacro(module: "LogbookMacros", type: "UniqueMacro")

/// Declares indexes of a model, each over one or more of its attributes.
///
/// Write it in the body of the `@Model` class, naming the class, with one list of key paths
/// per index, its leading attribute first:
///
/// ```swift
/// @Model
/// final class Trip {
///     #Index<Trip>([\.startDate], [\.destination, \.startDate])
///     …
/// }
///
/// let soon = FetchDescriptor<Trip>(
///     predicate: #Predicate { $0.startDate >= today && $0.startDate < nextWeek },
///     sortBy: [SortDescriptor(\.startDate)]
/// )
/// ```
///
/// An index keeps the objects sorted by its leading attribute in memory. A fetch whose
/// predicate compares that attribute with a constant (`==`, `<`, `<=`, `>`, `>=`, two of them
/// joined by `&&`, or `(low...high).contains(…)` and `..<`) reads only the objects in that range; a fetch sorted by it with a
/// ``FetchDescriptor/fetchLimit`` reads only the first objects in its order. The results are
/// those of the same fetch without the index. Adding or removing an index is a schema change
/// that a lightweight ``MigrationStage`` handles; no stored event changes.
///
/// `#Index` reports the same errors as ``Unique(_:)``.
///
/// - Parameter indices: One list of key paths per index.
/// - Complexity: O(log *n*) to find the start of a range among *n* objects, then O(1) for
///   each object in the range.
@freestanding(declaration)
public macro Index<T>(_ indices: [PartialKeyPath<T>]...) =
    #externalMacro(module: "LogbookMacros", type: "IndexMacro")

/// Declares indexes of a model, in SwiftData's spelling with the kind of each index.
///
/// ```swift
/// #Index<Trip>(.binary([\.startDate]), .binary([\.destination, \.startDate]))
/// ```
///
/// A `.binary` index is the index `#Index<T>(_: [PartialKeyPath<T>]...)` declares. Logbook has no
/// `.rtree` index: `#Index` reports an error for one.
///
/// - Parameter indices: One index per argument.
@freestanding(declaration)
public macro Index<T>(_ indices: IndexType<T>...) =
    #externalMacro(module: "LogbookMacros", type: "IndexMacro")

/// The kind of an index that `#Index` declares, in SwiftData's spelling.
///
/// Only its name is used: `#Index` reads `.binary([\.startDate])` as written and never makes an
/// `IndexType`.
///
/// ## Topics
///
/// ### Kinds of index
/// - ``binary(_:)``
/// - ``rtree(_:)``
public struct IndexType<T> {
    private init() {}

    /// An index that keeps the objects sorted by the key paths' values, the first one leading.
    ///
    /// - Parameter keyPaths: The indexed properties, the leading one first.
    /// - Returns: The index's description.
    public static func binary(_ keyPaths: [PartialKeyPath<T>]) -> IndexType<T> {
        IndexType()
    }

    /// A spatial index, which Logbook does not have: `#Index` reports an error for it.
    ///
    /// - Parameter keyPaths: The indexed properties.
    /// - Returns: The index's description.
    public static func rtree(_ keyPaths: [PartialKeyPath<T>]) -> IndexType<T> {
        IndexType()
    }
}
