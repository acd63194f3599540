/// One step of a ``SchemaMigrationPlan``: from one schema version to the next.
///
/// A lightweight stage needs no code: renames through `originalName`, added optional
/// attributes or attributes with defaults, removed properties and entities, changed delete
/// rules and counts, and new unique constraints are derived from the two schemas. A custom
/// stage runs code before and after, each closure exactly once per store.
///
/// ```swift
/// static let migrateV2toV3 = MigrationStage.lightweight(
///     fromVersion: SampleTripsSchemaV2.self,
///     toVersion: SampleTripsSchemaV3.self
/// )
/// ```
///
/// ## Topics
///
/// ### Stages
/// - ``lightweight(fromVersion:toVersion:)``
/// - ``custom(fromVersion:toVersion:willMigrate:didMigrate:)``
///
/// ### Inspecting a stage
/// - ``fromVersion``
/// - ``toVersion``
public enum MigrationStage: Sendable {
    /// A stage derived entirely from the two schemas.
    ///
    /// - Parameters:
    ///   - fromVersion: The older version.
    ///   - toVersion: The newer version.
    case lightweight(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type)

    /// A stage that runs code around the schema change.
    ///
    /// - Parameters:
    ///   - fromVersion: The older version.
    ///   - toVersion: The newer version.
    ///   - willMigrate: Runs once, against a context at the older version, before the change;
    ///     what it saves is recorded as events of the older version.
    ///   - didMigrate: Runs once, against a context at the newer version, after the change.
    ///
    /// Both closures run on a thread other than the one creating the container, which replays
    /// the log meanwhile (see <doc:Migrations>).
    case custom(
        fromVersion: any VersionedSchema.Type,
        toVersion: any VersionedSchema.Type,
        willMigrate: (@Sendable (ModelContext) throws -> Void)?,
        didMigrate: (@Sendable (ModelContext) throws -> Void)?
    )

    /// The version the stage starts from.
    public var fromVersion: any VersionedSchema.Type {
        switch self {
        case .lightweight(let from, _): from
        case .custom(let from, _, _, _): from
        }
    }

    /// The version the stage ends at.
    public var toVersion: any VersionedSchema.Type {
        switch self {
        case .lightweight(_, let to): to
        case .custom(_, let to, _, _): to
        }
    }
}
