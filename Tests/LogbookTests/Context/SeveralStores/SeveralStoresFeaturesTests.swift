import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// What has one answer per store on a container of several: history and the feed per store,
/// deleting data, erasing and checkpoints on every store.
struct SeveralStoresFeaturesTests {
    /// A container of both stores with a trip and a country saved.
    private func savedStores() throws -> (TwoStores, ModelContainer) {
        let stores = TwoStores()
        let container = try stores.container()
        let context = ModelContext(container)
        context.author = "importer"
        context.insert(makeTrip("Bergen"))
        context.insert(AtlasCountry(code: "NO", name: "Norway"))
        try context.save()
        return (stores, container)
    }

    @Test func historyIsReadThroughTheContainerOfEachConfiguration() throws {
        let (stores, container) = try savedStores()
        let context = ModelContext(container)
        let error = #expect(throws: LogbookError.self) {
            try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        }
        #expect(error?.code == .unsupported)
        #expect(error?.message.contains("configurations 'User' (\(stores.userURL.path)), 'Catalogue'") == true)
        #expect(error?.message.contains("container(forConfigurationNamed:)") == true)

        let user = try #require(container.container(forConfigurationNamed: "User"))
        let catalogue = try #require(container.container(forConfigurationNamed: "Catalogue"))
        #expect(container.container(forConfigurationNamed: "Cache") == nil)
        let userHistory = try ModelContext(user).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        let catalogueHistory = try ModelContext(catalogue).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(userHistory.map(\.author) == ["importer"])
        #expect(catalogueHistory.map(\.author) == ["importer"])
        #expect(userHistory.flatMap(\.changes).map(\.changedPersistentIdentifier.entityName) == ["Trip"])
        #expect(catalogueHistory.flatMap(\.changes).map(\.changedPersistentIdentifier.entityName) == ["AtlasCountry"])
        let userStore = try #require(userHistory.first?.storeIdentifier)
        let catalogueStore = try #require(catalogueHistory.first?.storeIdentifier)
        #expect(userStore.hasSuffix("user.store") && catalogueStore.hasSuffix("catalogue.store"))
        #expect(userHistory.first?.token == catalogueHistory.first?.token, "each store numbers its own")
        #expect(userHistory.first != catalogueHistory.first, "told apart by their store")

        // The container of one configuration shares the store: it sees the next save at once.
        let more = ModelContext(container)
        more.insert(AtlasCountry(code: "SE", name: "Sweden"))
        try more.save()
        #expect(try ModelContext(catalogue).fetchCount(FetchDescriptor<AtlasCountry>()) == 2)
        #expect(try ModelContext(catalogue).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).count == 2)
    }

    @Test func theChangeFeedOfSeveralStoresThrowsAndEachStoresFeedDelivers() async throws {
        let (stores, container) = try savedStores()
        defer { withExtendedLifetime(stores) {} }
        var feed = container.changes(after: nil).makeAsyncIterator()
        let error = await #expect(throws: LogbookError.self) { _ = try await feed.next() }
        #expect(error?.code == .unsupported)

        let catalogue = try #require(container.container(forConfigurationNamed: "Catalogue"))
        var catalogueFeed = catalogue.changes(after: nil).makeAsyncIterator()
        let first = try #require(try await catalogueFeed.next())
        #expect(first.changes.map(\.changedPersistentIdentifier.entityName) == ["AtlasCountry"])
    }

    @Test func deleteAllDataEmptiesEveryStore() throws {
        let (stores, container) = try savedStores()
        try container.deleteAllData()
        let context = ModelContext(container)
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 0)
        #expect(try context.fetchCount(FetchDescriptor<AtlasCountry>()) == 0)
        try container.erase()
        let reopened = ModelContext(try ModelContainer(for: AtlasCountry.self, configurations: stores.catalogue()))
        #expect(try reopened.fetchCount(FetchDescriptor<AtlasCountry>()) == 0)
    }

    @Test func deleteAllDataWithAReadOnlyStoreChangesNoStore() throws {
        let stores = TwoStores()
        try stores.writeCatalogue([("DK", "Denmark")])
        let container = try stores.container(catalogue: stores.catalogue(allowsSave: false))
        let context = ModelContext(container)
        context.insert(makeTrip("Aarhus"))
        try context.save()
        let before = try storeBytes(stores.userURL)
        let error = #expect(throws: LogbookError.self) { try container.deleteAllData() }
        #expect(error?.code == .saveNotAllowed)
        #expect(
            error?.message.hasPrefix("configuration 'Catalogue' (\(stores.catalogueURL.path)) does not allow saving")
                == true
        )
        #expect(error?.message.contains("no store was changed") == true)
        #expect(try storeBytes(stores.userURL) == before)
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 1)
    }

    @Test func aCheckpointIsWrittenForEveryStoreThatAllowsSaving() throws {
        let (stores, container) = try savedStores()
        try container.checkpoint()
        let manager = FileManager.default
        #expect(try !manager.contentsOfDirectory(atPath: stores.userURL.path + "/checkpoints").isEmpty)
        #expect(try !manager.contentsOfDirectory(atPath: stores.catalogueURL.path + "/checkpoints").isEmpty)

        let readOnly = TwoStores()
        try readOnly.writeCatalogue([("FI", "Finland")])
        let both = try readOnly.container(
            user: readOnly.user(allowsSave: true),
            catalogue: readOnly.catalogue(allowsSave: false)
        )
        let context = ModelContext(both)
        context.insert(makeTrip("Turku"))
        try context.save()
        try both.checkpoint()
        #expect(try !manager.contentsOfDirectory(atPath: readOnly.userURL.path + "/checkpoints").isEmpty)
        #expect(!manager.fileExists(atPath: readOnly.catalogueURL.path + "/checkpoints"), "a follower writes nothing")
    }

    @Test func theRecoveryReportNamesTheStoreThatRecovered() throws {
        let stores: TwoStores
        let segment: String
        let lastStart: Int
        do {
            let saved = try savedStores()
            stores = saved.0
            #expect(saved.1.recoveryReport.isEmpty)
            segment = stores.catalogueURL.path + "/" + SegmentDirectory.fileName(forFirstSequence: 1)
            lastStart = try ByteSurgery.size(of: segment)
            let context = ModelContext(saved.1)
            context.insert(AtlasCountry(code: "IS", name: "Iceland"))
            try context.save()
        }
        try forgetDurablePoint(stores.catalogueURL.path)
        try ByteSurgery.truncate(segment, to: try ByteSurgery.size(of: segment) - 3)

        let reopened = try stores.container()
        let tail = try #require(reopened.recoveryReport.quarantinedTail)
        #expect(tail.wasTorn && tail.offset == Int64(lastStart))
        #expect(tail.quarantinePath.hasPrefix(stores.catalogueURL.path))
        #expect(reopened.container(forConfigurationNamed: "Catalogue")?.recoveryReport == reopened.recoveryReport)
        #expect(reopened.container(forConfigurationNamed: "User")?.recoveryReport.isEmpty == true)
        #expect(try ModelContext(reopened).fetch(FetchDescriptor<AtlasCountry>()).map(\.code) == ["NO"])
    }
}
