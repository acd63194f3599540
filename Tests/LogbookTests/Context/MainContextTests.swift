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
}
