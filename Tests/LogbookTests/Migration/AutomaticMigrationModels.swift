import Foundation
import Logbook

// The models of an app that changes its schema without a migration plan, as SwiftData apps do
// until they need one. Each namespace is one release; every `Trip` is the entity `Trip`.

/// The first release.
enum AutoBase: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Trip.self, Item.self, Note.self] }

    @Model
    final class Trip {
        var name: String
        var startDate: Date
        var legacy: Int = 0
        @Relationship(deleteRule: .cascade) var items: [Item]? = []

        init(name: String, startDate: Date) {
            self.name = name
            self.startDate = startDate
        }
    }

    @Model
    final class Item {
        var title: String
        var trip: Trip?

        init(title: String) {
            self.title = title
        }
    }

    @Model
    final class Note {
        var text: String

        init(text: String) {
            self.text = text
        }
    }
}

/// Only lightweight changes: `name` renamed to `title`, `legacy` and `Note` removed, `rating`
/// (optional) and `archived` (with a default) added, a new entity `Companion` reached by a new
/// optional relationship.
enum AutoLight: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Trip.self, Item.self, Companion.self] }

    @Model
    final class Trip {
        @Attribute(originalName: "name") var title: String
        var startDate: Date
        var rating: Int?
        var archived: Bool = false
        @Relationship(deleteRule: .cascade) var items: [Item]? = []
        var companion: Companion?

        init(title: String, startDate: Date) {
            self.title = title
            self.startDate = startDate
        }
    }

    @Model
    final class Item {
        var title: String
        var trip: Trip?

        init(title: String) {
            self.title = title
        }
    }

    @Model
    final class Companion {
        var name: String

        init(name: String) {
            self.name = name
        }
    }
}

/// After ``AutoLight``: `title` renamed again, to `label`, so that events written by
/// ``AutoBase`` are found only through the schema in between.
enum AutoLighter {
    @Model
    final class Trip {
        @Attribute(originalName: "title") var label: String
        var startDate: Date
        var rating: Int?
        var archived: Bool = false
        @Relationship(deleteRule: .cascade) var items: [Item]? = []
        var companion: Companion?

        init(label: String, startDate: Date) {
            self.label = label
            self.startDate = startDate
        }
    }

    @Model
    final class Item {
        var title: String
        var trip: Trip?

        init(title: String) {
            self.title = title
        }
    }

    @Model
    final class Companion {
        var name: String

        init(name: String) {
            self.name = name
        }
    }
}

/// ``AutoBase`` with `startDate` a `String`: a type change.
enum AutoRetyped {
    @Model
    final class Trip {
        var name: String
        var startDate: String
        var legacy: Int = 0

        init(name: String, startDate: String) {
            self.name = name
            self.startDate = startDate
        }
    }
}

/// ``AutoBase`` with `rating` added as a non-optional `Int` without a default.
enum AutoMandatory {
    @Model
    final class Trip {
        var name: String
        var startDate: Date
        var legacy: Int = 0
        var rating: Int

        init(name: String, startDate: Date, rating: Int) {
            self.name = name
            self.startDate = startDate
            self.rating = rating
        }
    }
}

/// Both refused changes at once, and a lightweight one (`legacy` removed), which the error
/// does not list.
enum AutoRefusedTwice {
    @Model
    final class Trip {
        var name: String
        var startDate: String
        var rating: Int

        init(name: String, startDate: String, rating: Int) {
            self.name = name
            self.startDate = startDate
            self.rating = rating
        }
    }
}

/// The plan an app adopts after migrating automatically from ``AutoBase`` to ``AutoLight``.
enum AutoAdoptedPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [AutoBase.self, AutoLight.self] }
    static var stages: [MigrationStage] {
        [.lightweight(fromVersion: AutoBase.self, toVersion: AutoLight.self)]
    }
}
