import Foundation
import Logbook

// Models with `#Unique` and `#Index`, over two releases: the first has neither, the second
// adds them. Every `Visit` is the entity `Visit`.

/// The first release: no constraint, no index.
enum VisitsV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Visit.self, Stamp.self, Guide.self] }

    @Model
    final class Visit {
        var place: String
        var day: Date
        var rating: Int
        var code: String?
        @Relationship(deleteRule: .cascade) var stamps: [Stamp]? = []
        var guide: Guide?

        init(place: String, day: Date, rating: Int = 0) {
            self.place = place
            self.day = day
            self.rating = rating
        }
    }

    @Model
    final class Stamp {
        var label: String
        var visit: Visit?

        init(label: String) {
            self.label = label
        }
    }

    @Model
    final class Guide {
        var name: String

        init(name: String) {
            self.name = name
        }
    }
}

/// The second release: a visit is one per place and day, a code is unique, and visits are
/// indexed by day and by rating.
enum VisitsV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Visit.self, Stamp.self, Guide.self] }

    @Model
    final class Visit {
        #Unique<Visit>([\.place, \.day], [\.code])
        #Index<Visit>([\.day], [\.rating, \.place])

        var place: String
        var day: Date
        var rating: Int
        var code: String?
        @Relationship(deleteRule: .cascade) var stamps: [Stamp]? = []
        var guide: Guide?

        init(place: String, day: Date, rating: Int = 0) {
            self.place = place
            self.day = day
            self.rating = rating
        }
    }

    @Model
    final class Stamp {
        var label: String
        var visit: Visit?

        init(label: String) {
            self.label = label
        }
    }

    @Model
    final class Guide {
        var name: String

        init(name: String) {
            self.name = name
        }
    }
}

/// The plan from the first release to the second: one lightweight stage.
enum VisitsPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [VisitsV1.self, VisitsV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: VisitsV1.self, toVersion: VisitsV2.self)] }
}

/// `#Unique` over one key path, and the same constraint as `@Attribute(.unique)`.
enum BadgeByMacro {
    @Model
    final class Badge {
        #Unique<Badge>([\.name])
        var name: String
        var level: Int

        init(name: String, level: Int) {
            self.name = name
            self.level = level
        }
    }
}

enum BadgeByAttribute {
    @Model
    final class Badge {
        @Attribute(.unique) var name: String
        var level: Int

        init(name: String, level: Int) {
            self.name = name
            self.level = level
        }
    }
}

/// A constraint over several properties that names a relationship, which the schema refuses.
enum PairingModels {
    @Model
    final class Pairing {
        #Unique<Pairing>([\.name, \.guide])
        // SwiftData's spelling of an index, which compiles against `IndexType`.
        #Index<Pairing>(.binary([\.name]))
        var name: String
        var guide: VisitsV1.Guide?

        init(name: String) {
            self.name = name
        }
    }
}
