import Foundation
import Logging

/// What opening a store through a migration plan would do, found without writing anything.
///
/// ```swift
/// let preview = try ModelContainer.previewMigration(
///     for: Trip.self, migrationPlan: SampleTripsMigrationPlan.self,
///     configuration: ModelConfiguration(url: storeURL))
/// print(preview)
/// // store at 1.0.0, models at 3.0.0
/// // stage 1.0.0 → 2.0.0 (custom): Trip.name becomes unique; folds 2 Trip
/// // stage 2.0.0 → 3.0.0 (lightweight): Trip.start_date → startDate, Trip.end_date → endDate
/// ```
///
/// The preview reads the store without taking its lock, so it works while an app has the store
/// open. It reports what the lightweight part of each stage does (renames, added and removed
/// attributes and entities, new unique constraints and the objects they fold); custom stages'
/// closures are not run, so what they would change is not counted.
///
/// ## Topics
///
/// ### Reading a preview
/// - ``storeVersion``
/// - ``recordedVersion``
/// - ``modelVersion``
/// - ``stages``
/// - ``Stage``
public struct MigrationPreview: Sendable, CustomStringConvertible {
    /// One stage that would run.
    public struct Stage: Sendable {
        public var fromVersion: Schema.Version
        public var toVersion: Schema.Version
        /// Whether the stage has closures that would run.
        public var isCustom: Bool
        /// Renamed attributes and relationships, as `Entity.oldName → newName`.
        public var renamed: [String]
        /// Added attributes, relationships and entities, as `Entity.name` or `Entity`.
        public var added: [String]
        /// Removed attributes, relationships and entities.
        public var removed: [String]
        /// Attributes that become unique, as `Entity.name`, and new unique constraints over
        /// several attributes (`#Unique`), as `Entity.(name, startDate)`.
        public var newlyUnique: [String]
        /// How many objects of each entity the stage folds into others.
        public var folded: [String: Int]
    }

    /// The version of the plan the store was written with, found by schema fingerprint; `nil` for
    /// a store with nothing in it.
    public var storeVersion: Schema.Version?
    /// The version number the store's latest schema record carries, when it differs from
    /// ``storeVersion``: a store written by models that were not given a version (no migration
    /// plan) records its schema as 1.0.0.
    public var recordedVersion: Schema.Version?
    /// The version of the models.
    public var modelVersion: Schema.Version
    /// The stages that would run, in order; empty when the store is at the models' version.
    public var stages: [Stage]

    /// The preview for people: the versions, then one line per stage.
    public var description: String {
        let recorded = recordedVersion.map { " (recorded as \($0))" } ?? ""
        var lines = [
            "store at \(storeVersion.map { "\($0)" } ?? "no version (empty)")\(recorded), models at \(modelVersion)"
        ]
        if stages.isEmpty { lines.append("no migration needed") }
        for stage in stages {
            var changes = stage.renamed
            changes += stage.added.map { "adds \($0)" }
            changes += stage.removed.map { "removes \($0)" }
            changes += stage.newlyUnique.map { "\($0) becomes unique" }
            changes += stage.folded.sorted { $0.key < $1.key }.map { "folds \($0.value) \($0.key)" }
            let kind = stage.isCustom ? "custom" : "lightweight"
            lines.append(
                "stage \(stage.fromVersion) → \(stage.toVersion) (\(kind)): "
                    + (changes.isEmpty ? "no change to stored data" : changes.joined(separator: ", "))
            )
        }
        return lines.joined(separator: "\n")
    }
}

extension ModelContainer {
    /// What opening a store with these models and plan would do, without opening it for writing.
    ///
    /// - Parameters:
    ///   - forTypes: The model types.
    ///   - migrationPlan: The plan.
    ///   - configuration: Where the store lives.
    /// - Throws: The errors opening would throw for plans that do not fit the models or the store.
    public static func previewMigration(
        for forTypes: any PersistentModel.Type...,
        migrationPlan: any SchemaMigrationPlan.Type,
        configuration: ModelConfiguration
    ) throws -> MigrationPreview {
        let plan = try MigrationPlanChain(migrationPlan, current: Schema(forTypes))
        let reader: LogReader? =
            configuration.isStoredInMemoryOnly || !FileManager.default.fileExists(atPath: configuration.url.path)
            ? nil : LogReader(directory: configuration.url.path, syscalls: configuration.syscalls)
        var preview = MigrationPreview(storeVersion: nil, modelVersion: plan.current.version, stages: [])
        guard let reader else { return preview }
        let atCurrent = try Store(
            capturing: plan.current,
            history: plan.history,
            reader: reader,
            pending: [],
            logger: configuration.logger
        )
        guard let latest = atCurrent.replayed.latest else { return preview }
        func matched(_ version: Schema.Version) {
            preview.storeVersion = version
            if latest.version != version { preview.recordedVersion = latest.version }
        }
        guard latest.fingerprint != atCurrent.fingerprint else {
            matched(plan.current.version)
            return preview
        }
        let start = try Migrator(plan: plan, store: atCurrent).startIndex(latest)
        matched(plan.schemas[start].version)
        var folds = try foldCounts(plan, at: start, reader)
        for index in start..<plan.currentIndex {
            let next = try foldCounts(plan, at: index + 1, reader)
            var stage = describe(from: plan.schemas[index], to: plan.schemas[index + 1])
            if case .custom = plan.stages[index] { stage.isCustom = true }
            for (entity, count) in next where count > folds[entity, default: 0] {
                stage.folded[entity] = count - folds[entity, default: 0]
            }
            folds = next
            preview.stages.append(stage)
        }
        return preview
    }

    private static func foldCounts(
        _ plan: MigrationPlanChain,
        at index: Int,
        _ reader: LogReader
    ) throws -> [String: Int] {
        // The stage's schema record, which puts its unique constraints in force and folds
        // what they find, as the stage's batch would.
        let store = try Store(
            capturing: plan.schemas[index],
            history: Array(plan.schemas[..<index]),
            reader: reader,
            pending: [.schemaRecord(plan.schemas[index], number: UInt32(index + 1))],
            logger: Logger(label: "Logbook", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        return store.read { state in
            var counts: [String: Int] = [:]
            for (table, count) in state.projection.foldCounts.enumerated() {
                counts[state.projection.tables[table].entity.name] = count
            }
            return counts
        }
    }

    private static func describe(from: Schema, to: Schema) -> MigrationPreview.Stage {
        var stage = MigrationPreview.Stage(
            fromVersion: from.version,
            toVersion: to.version,
            isCustom: false,
            renamed: [],
            added: [],
            removed: [],
            newlyUnique: [],
            folded: [:]
        )
        for entity in to.entities {
            guard let old = from.entity(named: entity.name) else {
                stage.added.append(entity.name)
                continue
            }
            var matched: Set<String> = []
            let properties =
                entity.attributes.map { ($0.name, $0.originalName, $0.isUnique) }
                + entity.relationships.map { ($0.name, $0.originalName, $0.isUnique) }
            let oldProperties =
                old.attributes.map { ($0.name, $0.isUnique) } + old.relationships.map { ($0.name, $0.isUnique) }
            for (name, original, isUnique) in properties {
                let formerName = oldProperties.contains { $0.0 == name } ? name : original
                guard let formerName, let former = oldProperties.first(where: { $0.0 == formerName }) else {
                    stage.added.append("\(entity.name).\(name)")
                    continue
                }
                matched.insert(formerName)
                if formerName != name { stage.renamed.append("\(entity.name).\(formerName) → \(name)") }
                if isUnique && !former.1 { stage.newlyUnique.append("\(entity.name).\(name)") }
            }
            for (name, _) in oldProperties where !matched.contains(name) {
                stage.removed.append("\(entity.name).\(name)")
            }
            // A `#Unique` over several properties that the old schema did not have, whatever
            // the names its properties had there.
            let formerNames = Dictionary(
                entity.attributes.compactMap { attribute in
                    attribute.originalName.map { (attribute.name, $0) }
                },
                uniquingKeysWith: { first, _ in first }
            )
            let oldConstraints = Set(old.uniquenessConstraints.map { $0.sorted() })
            for constraint in entity.uniquenessConstraints {
                let former = constraint.map { name in
                    old.attribute(named: name) != nil ? name : formerNames[name] ?? name
                }
                if !oldConstraints.contains(former.sorted()) {
                    stage.newlyUnique.append("\(entity.name).(\(constraint.joined(separator: ", ")))")
                }
            }
        }
        for entity in from.entities where to.entity(named: entity.name) == nil {
            stage.removed.append(entity.name)
        }
        return stage
    }
}
