/// The order of an app's schema versions, and how to move a store from each to the next.
///
/// ```swift
/// enum SampleTripsMigrationPlan: SchemaMigrationPlan {
///     static var schemas: [any VersionedSchema.Type] {
///         [SampleTripsSchemaV1.self, SampleTripsSchemaV2.self, SampleTripsSchemaV3.self]
///     }
///
///     static var stages: [MigrationStage] {
///         [migrateV1toV2, migrateV2toV3]
///     }
///
///     static let migrateV1toV2 = MigrationStage.custom(
///         fromVersion: SampleTripsSchemaV1.self,
///         toVersion: SampleTripsSchemaV2.self,
///         willMigrate: { context in … },
///         didMigrate: nil
///     )
///
///     static let migrateV2toV3 = MigrationStage.lightweight(
///         fromVersion: SampleTripsSchemaV2.self,
///         toVersion: SampleTripsSchemaV3.self
///     )
/// }
/// ```
///
/// Migration never rewrites a store: opening it with a newer schema replays its old events
/// through each stage in turn.
///
/// ## Topics
///
/// ### Describing a plan
/// - ``schemas``
/// - ``stages``
public protocol SchemaMigrationPlan {
    /// Every released schema version, oldest first.
    static var schemas: [any VersionedSchema.Type] { get }

    /// The stages between consecutive versions, oldest first.
    static var stages: [MigrationStage] { get }
}
