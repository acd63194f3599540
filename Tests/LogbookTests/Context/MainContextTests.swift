import Foundation
import Logbook
import SampleTrips
import Testing

@MainActor
struct MainContextTests {
    @Test func theMainContextIsSharedAndAutosavesAtTheEndOfTheMainActorsTurn() async throws {
        let store = TestStore(.disk)
        let container = try store.container()
        let context = container.mainContext
        #expect(context === container.mainContext, "one main context per container")
        #expect(context.autosaveEnabled)
        context.insert(makeTrip("Autosaved"))
        #expect(context.hasChanges)
        // Let the autosave task, enqueued on the main actor, run.
        for _ in 0..<50 where context.hasChanges {
            await Task.yield()
        }
        #expect(!context.hasChanges, "saved without a call to save()")
        let other = ModelContext(container)
        #expect(try other.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Autosaved"])
    }

    @Test func otherContextsDoNotAutosaveEvenWhenAskedTo() async throws {
        let container = try TestStore(.memory).container()
        let context = ModelContext(container)
        context.autosaveEnabled = true
        context.insert(makeTrip("Pending"))
        for _ in 0..<20 { await Task.yield() }
        #expect(context.hasChanges)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 0)
    }

    @Test func aContainerWhoseMainContextWasUsedIsFreedAndItsStoreClosed() async throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("trips.store"))
        weak var released: ModelContainer?
        do {
            let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url))
            released = container
            let context = container.mainContext
            #expect(context.container.mainContext === context, "the context's container gives the same main context")
            context.insert(makeTrip("Kept"))
            try context.save()
        }
        #expect(released == nil, "the container is freed; its main context holds the stores")
        // The autosave the insert scheduled holds the main context until it runs, at the end
        // of the main actor's turn.
        for _ in 0..<50 { await Task.yield() }
        // The store is closed: a container with another schema may open it in this process,
        // which a store still open with the first schema refuses.
        let other = try ModelContainer(
            for: Schema(SampleTripsSchemaV3.models, version: Schema.Version(3, 0, 1)),
            configurations: [ModelConfiguration(url: url)]
        )
        #expect(try ModelContext(other).fetchCount(FetchDescriptor<Trip>()) == 1)
    }

    @Test func aMainContextKeptAfterItsContainerKeepsTheStoreOpenAndWorking() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("trips.store"))
        let context = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url)).mainContext
        context.insert(makeTrip("Late"))
        try context.save()
        #expect(try context.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Late"])
        let error = #expect(throws: LogbookError.self) {
            _ = try ModelContainer(
                for: Schema(SampleTripsSchemaV3.models, version: Schema.Version(3, 0, 1)),
                configurations: [ModelConfiguration(url: url)]
            )
        }
        #expect(error?.code == .schemaMismatch, "the store is still open with the first schema")
    }
}
