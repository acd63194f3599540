import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// A container of several configurations: each entity in the store of its configuration, one
/// context fetching, inserting, deleting and saving across them.
struct SeveralStoresTests {
    @Test func eachEntityIsWrittenToTheStoreOfItsConfigurationAndReadBackThere() throws {
        let stores = TwoStores()
        do {
            let context = ModelContext(try stores.container())
            let trip = makeTrip("Lisbon")
            trip.bucketList = [makeItem("Tram 28")]
            context.insert(trip)
            context.insert(AtlasCountry(code: "PT", name: "Portugal"))
            try context.save()
        }
        #expect(Set(try insertedEntities(stores.userURL)) == ["Trip", "BucketListItem"])
        #expect(try insertedEntities(stores.catalogueURL) == ["AtlasCountry"])
        #expect(try recordedSchemas(stores.catalogueURL) == [["AtlasCountry"]])
        #expect(try recordedSchemas(stores.userURL) == [["BucketListItem", "LivingAccommodation", "Trip"]])

        do {
            let context = ModelContext(try stores.container())
            #expect(try context.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Lisbon"])
            #expect(try context.fetch(FetchDescriptor<BucketListItem>()).map(\.title) == ["Tram 28"])
            #expect(try context.fetch(FetchDescriptor<AtlasCountry>()).map(\.name) == ["Portugal"])
        }
        // Each store opens alone with its part of the models, and holds exactly it.
        let catalogue = ModelContext(try ModelContainer(for: AtlasCountry.self, configurations: stores.catalogue()))
        #expect(try catalogue.fetch(FetchDescriptor<AtlasCountry>()).map(\.code) == ["PT"])
        let user = ModelContext(try ModelContainer(for: Trip.self, configurations: stores.user()))
        #expect(try user.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Lisbon"])
    }

    @Test func aContextFetchesDeletesAndSavesAcrossTheStores() throws {
        let stores = TwoStores()
        let context = ModelContext(try stores.container())
        let trip = makeTrip("Porto")
        let country = AtlasCountry(code: "PT", name: "Portugal")
        context.insert(trip)
        context.insert(country)
        #expect(context.insertedModelsArray.count == 2)
        #expect(trip.modelContext === context && country.modelContext === context)
        try context.save()
        #expect(!context.hasChanges)

        country.name = "Portuguese Republic"
        #expect(context.hasChanges && context.changedModelsArray.count == 1)
        context.insert(makeTrip("Faro"))
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 2)
        #expect(try context.fetchIdentifiers(FetchDescriptor<AtlasCountry>()) == [country.persistentModelID])
        let portugal = try context.fetch(FetchDescriptor<AtlasCountry>(predicate: #Predicate { $0.code == "PT" }))
        #expect(portugal.first === country)

        context.delete(trip)
        try context.delete(model: AtlasCountry.self)
        #expect(context.deletedModelsArray.count == 2)
        try context.save()

        let reopened = ModelContext(try stores.container())
        #expect(try reopened.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Faro"])
        #expect(try reopened.fetchCount(FetchDescriptor<AtlasCountry>()) == 0)
    }

    @Test func identifiersOfTwoStoresWithTheSameNumberNameTheirOwnObjects() throws {
        let stores = TwoStores()
        let context = ModelContext(try stores.container())
        let trip = makeTrip("Braga")
        let country = AtlasCountry(code: "ES", name: "Spain")
        context.insert(trip)
        context.insert(country)
        try context.save()
        let tripID = trip.persistentModelID
        let countryID = country.persistentModelID
        // Each store numbers its own objects from the same start.
        #expect(tripID.number == countryID.number)
        #expect(tripID != countryID)
        #expect(context.model(for: tripID) === trip)
        #expect(context.model(for: countryID) === country)
        #expect(context.registeredModel(for: countryID) as AtlasCountry? === country)
        #expect(context.model(for: PersistentIdentifier(entityName: "Unknown", number: tripID.number)) == nil)

        let reopened = ModelContext(try stores.container())
        let trip2 = try #require(reopened.model(for: tripID) as? Trip)
        let country2 = try #require(reopened.model(for: countryID) as? AtlasCountry)
        #expect(trip2.name == "Braga" && country2.name == "Spain")
    }

    @Test func aReadOnlyConfigurationRefusesASaveThatWouldChangeItNamingIt() throws {
        let stores = TwoStores()
        try stores.writeCatalogue([("FR", "France")])
        let before = try storeBytes(stores.catalogueURL)
        let context = ModelContext(try stores.container(catalogue: stores.catalogue(allowsSave: false)))
        #expect(try context.fetch(FetchDescriptor<AtlasCountry>()).map(\.name) == ["France"])

        context.insert(makeTrip("Paris"))
        try context.save()  // changes only the user's store

        context.insert(makeTrip("Lyon"))
        context.insert(AtlasCountry(code: "IT", name: "Italy"))
        let error = #expect(throws: LogbookError.self) { try context.save() }
        #expect(error?.code == .saveNotAllowed)
        #expect(error?.message.contains("'Catalogue'") == true)
        #expect(error?.message.contains("AtlasCountry") == true)
        #expect(error?.message.contains("nothing was saved") == true)
        #expect(context.hasChanges)
        #expect(try storeBytes(stores.catalogueURL) == before)

        let france = try #require(
            try context.fetch(FetchDescriptor<AtlasCountry>(predicate: #Predicate { $0.code == "FR" })).first
        )
        context.rollback()
        france.name = "République française"
        let refused = #expect(throws: LogbookError.self) { try context.save() }
        #expect(refused?.code == .saveNotAllowed)
        context.rollback()

        let reopened = ModelContext(try stores.container())
        #expect(try reopened.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Paris"])
        #expect(try reopened.fetch(FetchDescriptor<AtlasCountry>()).map(\.name) == ["France"])
    }

    @Test func aStoreInMemoryBesideAStoreOnDisk() throws {
        let stores = TwoStores()
        let cache = ModelConfiguration("Cache", schema: Schema([MapTileCache.self]), isStoredInMemoryOnly: true)
        let schema = Schema([Trip.self, MapTileCache.self])
        do {
            let context = ModelContext(try ModelContainer(for: schema, configurations: [stores.user(), cache]))
            context.insert(makeTrip("Coimbra"))
            context.insert(MapTileCache(key: "12/2048/1361", bytes: Data([1, 2, 3])))
            try context.save()
            #expect(try context.fetch(FetchDescriptor<MapTileCache>()).map(\.bytes) == [Data([1, 2, 3])])
        }
        #expect(try insertedEntities(stores.userURL) == ["Trip"])
        let entries = try FileManager.default.contentsOfDirectory(atPath: stores.directory.path)
        #expect(entries == ["user.store"], "the cache writes no file")

        let context = ModelContext(try ModelContainer(for: schema, configurations: [stores.user(), cache]))
        #expect(try context.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Coimbra"])
        #expect(try context.fetchCount(FetchDescriptor<MapTileCache>()) == 0)
    }

    @Test func aFailedSaveOfOneStoreLeavesItAsItWasWithItsChangesPendingAndTheOtherSaved() throws {
        let stores = TwoStores()
        let syscalls = FaultySyscalls()
        var catalogue = stores.catalogue()
        catalogue.syscalls = syscalls
        do {
            let context = ModelContext(try stores.container(catalogue: catalogue))
            context.insert(AtlasCountry(code: "DE", name: "Germany"))
            try context.save()
            let catalogueBefore = try storeBytes(stores.catalogueURL)

            let trip = makeTrip("Berlin")
            let country = AtlasCountry(code: "AT", name: "Austria")
            context.insert(trip)
            context.insert(country)
            syscalls.inject(.fail(.noSpace), on: .pwrite)
            let error = #expect(throws: LogbookError.self) { try context.save() }
            #expect(error?.code == .io)
            #expect(error?.message.contains("the save of configuration 'Catalogue'") == true)
            #expect(error?.message.contains("configurations 'User'") == true)
            #expect(error?.message.contains("were saved before it") == true)
            #expect(try storeBytes(stores.catalogueURL) == catalogueBefore)
            #expect(!trip.persistentModelID.isTemporary, "the user's store was saved")
            #expect(country.persistentModelID.isTemporary, "the catalogue's insert is still pending")
            #expect(context.hasChanges && context.insertedModelsArray.count == 1)
            #expect(try context.fetch(FetchDescriptor<AtlasCountry>()).map(\.code).sorted() == ["AT", "DE"])

            // The retry writes the pending insert of the catalogue and the new one of the user.
            context.insert(makeTrip("Vienna"))
            try context.save()
            #expect(!country.persistentModelID.isTemporary)
        }
        let reopened = ModelContext(try stores.container())
        #expect(
            try reopened.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name) == [
                "Berlin", "Vienna",
            ]
        )
        #expect(
            try reopened.fetch(FetchDescriptor<AtlasCountry>(sortBy: [SortDescriptor(\.code)])).map(\.code) == [
                "AT", "DE",
            ]
        )
    }

    @Test func aFailureInTheFirstStoreWritesNeitherAndNamesBoth() throws {
        let stores = TwoStores()
        let syscalls = FaultySyscalls()
        var user = stores.user()
        user.syscalls = syscalls
        do {
            let context = ModelContext(try stores.container(user: user))
            context.insert(makeTrip("Madrid"))
            try context.save()
            let before = (try storeBytes(stores.userURL), try storeBytes(stores.catalogueURL))
            context.insert(makeTrip("Seville"))
            context.insert(AtlasCountry(code: "ES", name: "Spain"))
            syscalls.inject(.fail(.noSpace), on: .pwrite)
            let error = #expect(throws: LogbookError.self) { try context.save() }
            #expect(error?.message.contains("the save of configuration 'User'") == true)
            #expect(error?.message.contains("configurations 'Catalogue'") == true)
            #expect(error?.message.contains("were not written") == true)
            #expect(try storeBytes(stores.userURL) == before.0)
            #expect(try storeBytes(stores.catalogueURL) == before.1)
            #expect(context.insertedModelsArray.count == 2)
            try context.save()
        }
        let reopened = ModelContext(try stores.container())
        #expect(try reopened.fetchCount(FetchDescriptor<Trip>()) == 2)
        #expect(try reopened.fetch(FetchDescriptor<AtlasCountry>()).map(\.code) == ["ES"])
    }

    @Test func eachStoreWrittenPostsItsOwnWillSaveAndDidSave() throws {
        let stores = TwoStores()
        let context = ModelContext(try stores.container())
        let recorder = SaveRecorder()
        let observers = [ModelContext.willSave, ModelContext.didSave].map { name in
            NotificationCenter.default.addObserver(forName: name, object: context, queue: nil) {
                recorder.record($0)
            }
        }
        defer { observers.forEach(NotificationCenter.default.removeObserver) }
        let trip = makeTrip("Oslo")
        let country = AtlasCountry(code: "NO", name: "Norway")
        context.insert(trip)
        context.insert(country)
        try context.save()
        #expect(
            recorder.events == [
                "willSave", "didSave \(trip.persistentModelID)", "willSave", "didSave \(country.persistentModelID)",
            ]
        )
    }

    @Test @MainActor func theMainContextAndAModelActorWorkAcrossTheStores() async throws {
        let stores = TwoStores()
        let container = try stores.container()
        let importer = SeveralStoresImporter(modelContainer: container)
        let identifiers = try await importer.importTripAndCountry()
        let context = container.mainContext
        #expect(identifiers.map { context.model(for: $0)?.persistentModelID } == identifiers)
        #expect(try context.fetch(FetchDescriptor<AtlasCountry>()).map(\.name) == ["Greece"])
        // The main context autosaves across the stores.
        context.insert(AtlasCountry(code: "CY", name: "Cyprus"))
        context.insert(makeTrip("Nicosia"))
        for _ in 0..<50 where context.hasChanges {
            await Task.yield()
        }
        #expect(!context.hasChanges, "saved without a call to save()")
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<AtlasCountry>()) == 2)
    }
}

/// Inserts a trip and a country from the background.
@ModelActor
actor SeveralStoresImporter {
    func importTripAndCountry() throws -> [PersistentIdentifier] {
        let trip = makeTrip("Athens")
        let country = AtlasCountry(code: "GR", name: "Greece")
        modelContext.insert(trip)
        modelContext.insert(country)
        try modelContext.save()
        return [trip.persistentModelID, country.persistentModelID]
    }
}

/// The notifications of saves, as text.
private final class SaveRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []

    var events: [String] { lock.withLock { recorded } }

    func record(_ notification: Notification) {
        var text = notification.name == ModelContext.willSave ? "willSave" : "didSave"
        let key = ModelContext.NotificationKey.insertedIdentifiers.rawValue
        if let inserted = notification.userInfo?[key] as? [PersistentIdentifier] {
            text += " " + inserted.map(\.description).joined(separator: ",")
        }
        lock.withLock { recorded.append(text) }
    }
}
