import Foundation
import Logbook
import Testing

/// A store directory under the system's temporary directory, removed afterwards.
final class StoreDirectory {
    let url: URL

    init(_ name: String = #function) {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        url = URL(fileURLWithPath: NSTemporaryDirectory() + "logbook-samples-\(safe)-\(UUID().uuidString)")
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

private func date(_ day: Int) -> Date {
    Date(timeIntervalSince1970: 1_700_000_000 + Double(day) * 86_400)
}

/// The talk's models and plan, run as an app would: the first release writes trips with
/// duplicate names, the current release opens the store through the plan.
struct TalkSampleTripsTests {
    @Test func theFirstReleasesTripsOpenDeduplicatedAndRenamedThroughThePlan() throws {
        let store = StoreDirectory()
        do {
            let container = try ModelContainer(
                for: SampleTripsSchemaV1.Trip.self,
                configurations: ModelConfiguration(url: store.url)
            )
            let context = ModelContext(container)
            for (index, name) in ["Paris", "Lisbon", "Paris", "Kyoto", "Lisbon"].enumerated() {
                let trip = SampleTripsSchemaV1.Trip(
                    name: name,
                    destination: name,
                    start_date: date(index),
                    end_date: date(index + 3)
                )
                context.insert(trip)
                let item = SampleTripsSchemaV1.BucketListItem(
                    title: "see \(name) \(index)",
                    details: "",
                    hasReservation: false,
                    isInPlan: true
                )
                context.insert(item)
                item.trip = trip
            }
            try context.save()
        }

        for _ in 0..<2 {
            let container = try ModelContainer(
                for: Trip.self,
                migrationPlan: SampleTripsMigrationPlan.self,
                configurations: ModelConfiguration(url: store.url)
            )
            let context = ModelContext(container)
            let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
            #expect(trips.map(\.name) == ["Kyoto", "Lisbon", "Paris"])
            // The dedupe keeps the first trip of each name it fetched; the renamed dates came along.
            let starts = Dictionary(uniqueKeysWithValues: trips.map { ($0.name, $0.startDate) })
            #expect(starts == ["Paris": date(0), "Lisbon": date(1), "Kyoto": date(3)])
            #expect(trips.allSatisfy { $0.endDate.timeIntervalSince($0.startDate) == 3 * 86_400 })
            #expect(trips.allSatisfy { $0.tripViews == 0 }, "a transient holds its default in a fetched trip")
            #expect(trips.map { $0.bucketList?.count ?? -1 } == [1, 1, 1])
            // The deleted duplicates' items were nullified, as V1's default rule says.
            let items = try context.fetch(FetchDescriptor<SampleTripsSchemaV3.BucketListItem>())
            #expect(items.count == 5)
            #expect(items.filter { $0.trip == nil }.count == 2)
        }
    }

    @Test func theUniqueNameOfTheCurrentVersionUpsertsAndTheCascadeRemovesItems() throws {
        for inMemory in [true, false] {
            let store = StoreDirectory()
            let configuration =
                inMemory ? ModelConfiguration(isStoredInMemoryOnly: true) : ModelConfiguration(url: store.url)
            let container = try ModelContainer(
                for: Trip.self,
                migrationPlan: SampleTripsMigrationPlan.self,
                configurations: configuration
            )
            let context = ModelContext(container)
            let first = Trip(name: "Oslo", destination: "Norway", startDate: date(0), endDate: date(2))
            context.insert(first)
            let item = SampleTripsSchemaV3.BucketListItem(
                title: "fjord",
                details: "",
                hasReservation: true,
                isInPlan: true
            )
            context.insert(item)
            first.bucketList?.append(item)
            try context.save()
            context.insert(Trip(name: "Oslo", destination: "Oslo, Norway", startDate: date(5), endDate: date(9)))
            try context.save()

            let reader =
                inMemory
                ? context
                : ModelContext(
                    try ModelContainer(
                        for: Trip.self,
                        migrationPlan: SampleTripsMigrationPlan.self,
                        configurations: configuration
                    )
                )
            let trips = try reader.fetch(FetchDescriptor<Trip>())
            #expect(trips.count == 1)
            #expect(trips.first?.destination == "Oslo, Norway")
            #expect(trips.first?.bucketList?.map(\.title) == ["fjord"])

            if let trip = trips.first { reader.delete(trip) }
            try reader.save()
            #expect(try reader.fetchCount(FetchDescriptor<SampleTripsSchemaV3.BucketListItem>()) == 0)
        }
    }
}

/// The versioned record model: a stage with both closures, run once.
struct RecordVersionedSchemaTests {
    @Test func bothClosuresRunOnceAndTheirChangesStay() throws {
        let store = StoreDirectory()
        do {
            let schema = Schema([RecordSchemaV1.Record.self])
            let container = try ModelContainer(
                for: schema,
                configurations: [ModelConfiguration(schema: schema, url: store.url)]
            )
            let context = ModelContext(container)
            context.insert(RecordSchemaV1.Record(title: "groceries", content: "milk eggs bread", createTime: date(0)))
            context.insert(RecordSchemaV1.Record(title: "", content: "", createTime: date(1)))
            context.insert(RecordSchemaV1.Record(title: "idea", content: "an event log for Swift", createTime: date(2)))
            try context.save()
        }
        do {
            let container = try makeRecordContainer(url: store.url)
            let context = ModelContext(container)
            let records = try context.fetch(FetchDescriptor<Record>(sortBy: [SortDescriptor(\.createTime)]))
            #expect(records.map(\.title) == ["groceries", "idea"])
            #expect(records.map(\.wordCount) == [3, 5])
            records.first?.wordCount = 42
            try context.save()
        }
        let context = ModelContext(try makeRecordContainer(url: store.url))
        let records = try context.fetch(FetchDescriptor<Record>(sortBy: [SortDescriptor(\.createTime)]))
        #expect(records.map(\.wordCount) == [42, 5], "didMigrate did not run again at the second open")
    }

    @Test func withoutThePlanTheAddedDefaultedAttributeMigratesOnItsOwn() throws {
        let store = StoreDirectory()
        do {
            let schema = Schema([RecordSchemaV1.Record.self])
            let container = try ModelContainer(
                for: schema,
                configurations: [ModelConfiguration(schema: schema, url: store.url)]
            )
            let context = ModelContext(container)
            context.insert(RecordSchemaV1.Record(title: "t", content: "c", createTime: date(0)))
            try context.save()
        }
        // Without the plan, adding a defaulted attribute is a lightweight change made on its own.
        let schema = Schema([Record.self])
        let container = try ModelContainer(
            for: schema,
            configurations: [ModelConfiguration(schema: schema, url: store.url)]
        )
        let records = try ModelContext(container).fetch(FetchDescriptor<Record>())
        #expect(records.map(\.wordCount) == [0])
    }
}

/// The to-do data layer: background actors write, the main context reads.
struct TodoDataLayerTests {
    @MainActor
    @Test(arguments: [true, false])
    func actorsWriteAndTheMainContextReads(inMemory: Bool) async throws {
        let store = StoreDirectory()
        let configuration =
            inMemory ? ModelConfiguration(isStoredInMemoryOnly: true) : ModelConfiguration(url: store.url)
        let container = try ModelContainer(for: TodoItem.self, configurations: configuration)
        let handlers = [TodoDataHandler(modelContainer: container), TodoDataHandler(modelContainer: container)]

        let ids = try await withThrowingTaskGroup(of: [PersistentIdentifier].self) { group in
            for (number, handler) in handlers.enumerated() {
                group.addTask {
                    var ids: [PersistentIdentifier] = []
                    for index in 0..<20 {
                        ids.append(try await handler.add("task \(number)-\(index)", priority: index % 3))
                    }
                    return ids
                }
            }
            var all: [PersistentIdentifier] = []
            for try await ids in group { all += ids }
            return all
        }
        #expect(Set(ids).count == 40)

        let context = container.mainContext
        #expect(try context.fetchCount(FetchDescriptor<TodoItem>()) == 40)
        for id in ids.prefix(10) { try await handlers[0].toggle(id) }
        try await handlers[1].remove(ids[39])
        let outstanding = try await handlers[1].outstandingTitles()
        #expect(outstanding.count == 29)
        #expect(try context.fetchCount(FetchDescriptor<TodoItem>(predicate: #Predicate { $0.isCompleted })) == 10)

        try await handlers[0].removeCompleted()
        let remaining = try context.fetch(FetchDescriptor<TodoItem>(sortBy: [SortDescriptor(\.title)]))
        #expect(remaining.count == 29)
        #expect(remaining.allSatisfy { !$0.isCompleted })

        if !inMemory {
            let reopened = ModelContext(try ModelContainer(for: TodoItem.self, configurations: configuration))
            let titles = try reopened.fetch(FetchDescriptor<TodoItem>(sortBy: [SortDescriptor(\.title)])).map(\.title)
            #expect(titles == remaining.map(\.title))
        }
    }
}
