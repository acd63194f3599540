/// The models of one released version of an app's schema.
///
/// Keep each released version's model classes nested in a type that conforms, so that a
/// migration plan can open a store written by any of them:
///
/// ```swift
/// enum SampleTripsSchemaV1: VersionedSchema {
///     static var models: [any PersistentModel.Type] {
///         [Trip.self, BucketListItem.self, LivingAccommodation.self]
///     }
///
///     @Model
///     final class Trip { … }
/// }
/// ```
///
/// Models nested in different versions may share names: `SampleTripsSchemaV1.Trip` and
/// `SampleTripsSchemaV3.Trip` are both the entity `Trip`, at different versions.
///
/// ## The version identifier
///
/// ``versionIdentifier`` may be omitted, as the WWDC23 talk does. It then comes from the type's
/// name: a name ending in `V` and a number, optionally followed by `_minor` and `_patch`
/// numbers, gives that version (`SampleTripsSchemaV3` is 3.0.0, `AppSchemaV2_1` is 2.1.0).
/// Any other name gives 1.0.0. Declare it explicitly when the naming convention does not fit.
///
/// ## Topics
///
/// ### Describing a version
/// - ``models``
/// - ``versionIdentifier``
public protocol VersionedSchema: SendableMetatype {
    /// The model types of this version. Models reachable through their relationships are
    /// included in the schema whether listed or not.
    static var models: [any PersistentModel.Type] { get }

    /// The version's number. See <doc:VersionedSchema#The-version-identifier> for the default.
    static var versionIdentifier: Schema.Version { get }
}

extension VersionedSchema {
    /// The version read from the type's name: `…V3` is 3.0.0, `…V2_1` is 2.1.0, and any other
    /// name is 1.0.0.
    public static var versionIdentifier: Schema.Version {
        Schema.Version(versionSuffixOf: String(describing: Self.self)) ?? Schema.Version(1, 0, 0)
    }
}

extension Schema.Version {
    /// Parses the trailing `V<major>[_<minor>[_<patch>]]` of a type name.
    init?(versionSuffixOf name: String) {
        guard let marker = name.lastIndex(of: "V") else { return nil }
        let parts = name[name.index(after: marker)...].split(separator: "_", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.allSatisfy(\.isASCII), part.allSatisfy(\.isNumber), let number = Int(part) else {
                return nil
            }
            numbers.append(number)
        }
        numbers.append(contentsOf: repeatElement(0, count: 3 - numbers.count))
        self.init(numbers[0], numbers[1], numbers[2])
    }
}
