import Foundation
import SampleTrips

@testable import Logbook

// Models and helpers for containers of several configurations: SampleTrips in the user's store,
// a catalogue of countries and a cache of map tiles in stores of their own.

@Model
final class AtlasCountry {
    @Attribute(.unique) var code: String
    var name: String

    init(code: String, name: String) {
        self.code = code
        self.name = name
    }
}

@Model
final class MapTileCache {
    var key: String
    var bytes: Data

    init(key: String, bytes: Data) {
        self.key = key
        self.bytes = bytes
    }
}

/// A note that refers to a country: kept apart from the catalogue, its relationship would
/// cross stores.
@Model
final class TravelNote {
    var text: String
    var country: AtlasCountry?

    init(text: String, country: AtlasCountry? = nil) {
        self.text = text
        self.country = country
    }
}

/// The stores of one test: the user's (SampleTrips, the configuration without a schema) and the
/// catalogue's (AtlasCountry), both on disk, in a directory removed afterwards.
final class TwoStores {
    let directory = TemporaryDirectory("stores")
    var userURL: URL { URL(fileURLWithPath: directory.child("user.store")) }
    var catalogueURL: URL { URL(fileURLWithPath: directory.child("catalogue.store")) }

    static let schema = Schema([Trip.self, AtlasCountry.self])

    func user(allowsSave: Bool = true) -> ModelConfiguration {
        ModelConfiguration("User", url: userURL, allowsSave: allowsSave, durability: .relaxed)
    }

    func catalogue(allowsSave: Bool = true) -> ModelConfiguration {
        ModelConfiguration(
            "Catalogue",
            schema: Schema([AtlasCountry.self]),
            url: catalogueURL,
            allowsSave: allowsSave,
            durability: .relaxed
        )
    }

    /// A container of both stores.
    func container(user: ModelConfiguration? = nil, catalogue: ModelConfiguration? = nil) throws -> ModelContainer {
        try ModelContainer(for: Self.schema, configurations: [user ?? self.user(), catalogue ?? self.catalogue()])
    }

    /// Writes countries into the catalogue's store through a container of it alone.
    func writeCatalogue(_ countries: [(String, String)]) throws {
        let context = ModelContext(try ModelContainer(for: AtlasCountry.self, configurations: catalogue()))
        for (code, name) in countries { context.insert(AtlasCountry(code: code, name: name)) }
        try context.save()
    }
}

/// The entities of the objects inserted in a store's log, in log order.
func insertedEntities(_ url: URL) throws -> [String] {
    try loggedEvents(url).compactMap { event in
        if case .insert(let insert) = event { insert.entity } else { nil }
    }
}

/// The entities of every schema a store's log records, one list per record.
func recordedSchemas(_ url: URL) throws -> [[String]] {
    try loggedEvents(url).compactMap { event in
        if case .schema(let record) = event { record.schema.entities.map(\.name) } else { nil }
    }
}
