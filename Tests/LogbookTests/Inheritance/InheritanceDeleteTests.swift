import Foundation
import Logbook
import Testing

/// `delete(model:where:includeSubclasses:)` across a model hierarchy.
struct InheritanceDeleteTests {
    private func sampleStore(_ kind: StoreKind) throws -> TestStore {
        let store = TestStore(kind, models: Travel.models)
        let context = ModelContext(try store.container())
        Travel.insertSample(into: context)
        try context.save()
        return store
    }

    private func names(_ context: ModelContext) throws -> [String] {
        try context.fetch(FetchDescriptor<Travel.Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name)
    }

    @Test(arguments: StoreKind.allCases)
    func deletingABaseClassDeletesItsSubclassesByDefault(_ kind: StoreKind) throws {
        let store = try sampleStore(kind)
        let context = try store.reopenedContext()
        try context.delete(model: Travel.Trip.self, where: #Predicate { $0.name != "c6" })
        try context.save()
        #expect(try names(try store.reopenedContext()) == ["c6"])
    }

    @Test(arguments: StoreKind.allCases)
    func withoutSubclassesOnlyObjectsOfTheClassItselfAreDeleted(_ kind: StoreKind) throws {
        let store = try sampleStore(kind)
        let context = try store.reopenedContext()
        try context.delete(model: Travel.Trip.self, includeSubclasses: false)
        try context.save()
        #expect(try names(try store.reopenedContext()) == ["b1", "b5", "c2", "c6", "p3", "p7"])

        let again = try store.reopenedContext()
        try again.delete(
            model: Travel.BusinessTrip.self,
            where: #Predicate { $0.perdiem > 100 },
            includeSubclasses: false
        )
        try again.save()
        // b5 (250) goes; c2 and c6 are conference trips, a subclass.
        #expect(try names(try store.reopenedContext()) == ["b1", "c2", "c6", "p3", "p7"])
    }

    @Test(arguments: StoreKind.allCases)
    func deletingASubclassLeavesItsSuperclassAndSiblings(_ kind: StoreKind) throws {
        let store = try sampleStore(kind)
        let context = try store.reopenedContext()
        try context.delete(model: Travel.BusinessTrip.self)
        try context.save()
        #expect(try names(try store.reopenedContext()) == ["p3", "p7", "t0", "t4"])
    }
}
