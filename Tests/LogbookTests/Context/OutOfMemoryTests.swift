import Foundation
import Logbook
import SampleTrips
import Testing

@testable import Logbook

/// A table's values that cannot grow: the save fails with nothing written and its changes
/// pending, and an open fails naming the store and the event, with nothing changed on disk.
/// The memory is refused through the configuration's byte limit, which fails a growth exactly
/// where a refused `realloc` does (`ValueColumnTests` has `realloc` itself refuse).
struct OutOfMemoryTests {
    /// The bytes the values of `trips` trips take.
    private static func bytes(ofTrips trips: Int) throws -> Int {
        let schema = Schema(versionedSchema: SampleTripsSchemaV3.self)
        let attributes = try #require(schema.entity(named: "Trip")).attributes.count
        return trips * attributes * MemoryLayout<AttributeValue>.stride
    }

    private static func configuration(_ store: TestStore, roomForTrips trips: Int?) throws -> ModelConfiguration {
        var configuration = store.configuration
        if let trips { configuration.valueBytesLimit = try bytes(ofTrips: trips) }
        return configuration
    }

    @Test(arguments: StoreKind.allCases)
    func aSaveWhoseValuesFindNoMemoryFailsNamingTheEntityAndLeavesTheStoreAsItWas(kind: StoreKind) throws {
        let store = TestStore(kind)
        do {
            let container = try ModelContainer(
                for: Trip.self,
                configurations: try Self.configuration(store, roomForTrips: 60)
            )
            let context = ModelContext(container)
            for index in 0..<40 { context.insert(makeTrip("Trip \(index)")) }
            try context.save()
            let before = kind == .disk ? try storeBytes(store.url) : [:]

            for index in 40..<70 { context.insert(makeTrip("Trip \(index)")) }
            let error = #expect(throws: LogbookError.self) { try context.save() }
            #expect(error?.code == .outOfMemory)
            #expect(error?.description.contains("attribute values of Trip") == true, "\(String(describing: error))")
            #expect(error?.description.contains("the values of 70 objects") == true, "\(String(describing: error))")
            if kind == .disk { #expect(try storeBytes(store.url) == before, "nothing written") }
            #expect(context.hasChanges, "the inserts stay pending")
            #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 70, "pending inserts are still fetched")
            #expect(
                try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 40,
                "another context sees only what was saved"
            )

            // Fewer inserts fit: the table grows by what it needs when it cannot double.
            context.rollback()
            for index in 40..<55 { context.insert(makeTrip("Trip \(index)")) }
            try context.save()
            #expect(!context.hasChanges)
        }
        let reopened =
            kind == .disk
            ? try store.reopenedContext()
            : nil
        if let reopened {
            let names = try reopened.fetch(FetchDescriptor<Trip>()).map(\.name)
            #expect(Set(names) == Set((0..<55).map { "Trip \($0)" }))
        }
    }

    @Test func anOpenWhoseReplayFindsNoMemoryFailsNamingTheStoreAndTheEventAndChangesNothing() throws {
        let store = TestStore(.disk)
        do {
            let context = ModelContext(try store.container())
            for save in 0..<4 {
                for index in 0..<25 { context.insert(makeTrip("Trip \(save * 25 + index)")) }
                try context.save()
            }
        }
        _ = try store.reopenedContext()
        let before = try storeBytes(store.url)
        store.close()

        let error = #expect(throws: LogbookError.self) {
            try ModelContainer(for: Trip.self, configurations: try Self.configuration(store, roomForTrips: 60))
        }
        #expect(error?.code == .outOfMemory)
        #expect(error?.path == store.url.path)
        #expect(error?.description.contains("attribute values of Trip") == true, "\(String(describing: error))")
        #expect(error?.description.contains("the values of 61 objects") == true, "\(String(describing: error))")
        // The schema record is event 1, and each trip an event of its own: the 61st trip fails.
        #expect(error?.sequence == 62, "\(String(describing: error))")
        #expect(try storeBytes(store.url) == before, "nothing changed on disk")

        let reopened = try store.reopenedContext()
        #expect(try reopened.fetchCount(FetchDescriptor<Trip>()) == 100)
    }

    /// A store opened through a migration plan takes its state from the migration, and keeps
    /// its own configuration's limit for what is saved after.
    @Test func aStoreOpenedThroughAMigrationKeepsItsLimit() throws {
        let store = TestStore(.disk)
        do {
            let context = ModelContext(
                try ModelContainer(for: SampleTripsSchemaV1.Trip.self, configurations: store.configuration)
            )
            for index in 0..<10 {
                context.insert(
                    SampleTripsSchemaV1.Trip(
                        name: "Trip \(index)",
                        destination: "Lisbon",
                        start_date: baseDate,
                        end_date: baseDate + day
                    )
                )
            }
            try context.save()
        }
        let context = ModelContext(
            try ModelContainer(
                for: Trip.self,
                migrationPlan: SampleTripsMigrationPlan.self,
                configurations: try Self.configuration(store, roomForTrips: 12)
            )
        )
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 10)
        for index in 10..<20 { context.insert(makeTrip("Trip \(index)")) }
        let error = #expect(throws: LogbookError.self) { try context.save() }
        #expect(error?.code == .outOfMemory)
        #expect(error?.description.contains("the values of 20 objects") == true, "\(String(describing: error))")
    }
}
