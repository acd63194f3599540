import Foundation
import Logbook

// Models for the delete rules and count limits that SampleTrips does not use.

@Model
final class Shelf {
    @Attribute(.unique) var label: String
    @Relationship(deleteRule: .deny) var books: [Book] = []

    init(label: String) {
        self.label = label
    }
}

@Model
final class Book {
    var title: String
    var shelf: Shelf?
    @Relationship(deleteRule: .nullify, maximumModelCount: 2) var readers: [Reader] = []

    init(title: String) {
        self.title = title
    }
}

@Model
final class Reader {
    var name: String
    var books: [Book] = []

    init(name: String) {
        self.name = name
    }
}
