import Foundation
import Testing

@testable import Logbook

/// `fetchIdentifiers` and `fetchCount` answer from stored values where they can, making no
/// model, and always agree with `fetch`.
struct StoredValueIdentifiersTests {
    /// Thirty readings over two saves, some deleted and changed, so that freed slots are reused
    /// and slots are out of identifier order.
    private func store(_ kind: StoreKind) throws -> TestStore {
        let store = TestStore(kind, models: [Reading.self])
        let context = ModelContext(try store.container())
        let labels = ["a", "b", "a9"]
        for serial in 0..<20 {
            let reading = Reading(
                serial: serial,
                label: labels[serial % 3],
                takenAt: baseDate + Double(serial % 4) * day
            )
            reading.level = serial % 3 == 0 ? nil : serial % 3
            context.insert(reading)
        }
        try context.save()
        for reading in try context.fetch(FetchDescriptor<Reading>()) where reading.serial % 5 == 0 {
            context.delete(reading)
        }
        for reading in try context.fetch(FetchDescriptor<Reading>()) where reading.serial % 7 == 1 {
            reading.label = "a"
        }
        try context.save()
        for serial in 20..<30 {
            context.insert(Reading(serial: serial, label: labels[serial % 3], takenAt: baseDate - Double(serial) * day))
        }
        try context.save()
        return store
    }

    private static let predicates: [Predicate<Reading>?] = {
        let label = "a"
        let level: Int? = 2
        let noLevel: Int? = nil
        return [
            nil,
            #Predicate<Reading> { $0.label == label },
            #Predicate<Reading> { $0.level == level },
            #Predicate<Reading> { $0.level == noLevel },
        ]
    }()

    private static let orders: [[SortDescriptor<Reading>]] = [
        [],
        [SortDescriptor(\.takenAt)],
        [SortDescriptor(\.level, order: .reverse), SortDescriptor(\.serial)],
        [SortDescriptor(\.label, comparator: .lexical, order: .reverse)],
    ]

    private static let windows: [(offset: Int?, limit: Int?)] = [(nil, nil), (2, 3), (nil, 1), (0, 0), (100, 5)]

    @Test(arguments: StoreKind.allCases)
    func identifiersAndCountsAgreeWithFetchAndMakeNoModels(kind: StoreKind) throws {
        let store = try store(kind)
        for container in [try store.container(), try store.reopenedContext().container] {
            for (predicateIndex, predicate) in Self.predicates.enumerated() {
                for (orderIndex, order) in Self.orders.enumerated() {
                    for window in Self.windows {
                        var descriptor = FetchDescriptor<Reading>(predicate: predicate, sortBy: order)
                        descriptor.fetchOffset = window.offset
                        descriptor.fetchLimit = window.limit
                        let scenario = "predicate \(predicateIndex), order \(orderIndex), window \(window)"
                        let expected = try ModelContext(container).fetch(descriptor).map(\.persistentModelID)
                        let context = ModelContext(container)
                        #expect(try context.fetchIdentifiers(descriptor) == expected, "\(scenario)")
                        #expect(try context.fetchCount(descriptor) == expected.count, "\(scenario)")
                        #expect(context.registry.count == 0, "no model made: \(scenario)")
                    }
                }
            }
        }
    }

    @Test func aPredicateOnlyModelsCanAnswerIsStillRight() throws {
        let store = try store(.memory)
        let descriptor = FetchDescriptor<Reading>(
            predicate: #Predicate { $0.serial > 24 },
            sortBy: [SortDescriptor(\.serial, order: .reverse)]
        )
        let context = ModelContext(try store.container())
        let identifiers = try context.fetchIdentifiers(descriptor)
        #expect(identifiers == (try context.fetch(descriptor).map(\.persistentModelID)))
        #expect(try context.fetchCount(descriptor) == 5)
    }

    @Test(arguments: StoreKind.allCases)
    func unsavedChangesCount(kind: StoreKind) throws {
        let store = try store(kind)
        let context = ModelContext(try store.container())
        let descriptor = FetchDescriptor<Reading>(predicate: #Predicate { $0.label == "b" })
        let saved = try context.fetchCount(descriptor)
        let savedIdentifiers = try context.fetchIdentifiers(descriptor)
        #expect(context.registry.count == 0)
        let pending = Reading(serial: 99, label: "b", takenAt: baseDate)
        context.insert(pending)
        #expect(try context.fetchCount(descriptor) == saved + 1)
        #expect(try context.fetchIdentifiers(descriptor) == savedIdentifiers + [pending.persistentModelID])
        let changed = try #require(try context.fetch(FetchDescriptor<Reading>()).first { $0.label == "a" })
        changed.label = "b"
        #expect(try context.fetchCount(descriptor) == saved + 2)
        try context.save()
        let fresh = ModelContext(try store.reopenedContext().container)
        #expect(try fresh.fetchCount(descriptor) == saved + 2)
        #expect(fresh.registry.count == 0)
    }

    @Test func propertiesToFetchAndPrefetchingAreAcceptedAsHints() throws {
        let store = try store(.memory)
        var descriptor = FetchDescriptor<Reading>(sortBy: [SortDescriptor(\.serial)])
        descriptor.propertiesToFetch = [\.serial, \.label]
        descriptor.relationshipKeyPathsForPrefetching = [\.note]
        #expect(descriptor.propertiesToFetch.count == 2)
        let readings = try ModelContext(try store.container()).fetch(descriptor)
        #expect(readings.count == 26)
        // Properties left out still read their stored values.
        #expect(readings.first?.serial == 1)
        #expect(readings.first?.takenAt == baseDate + day)
    }
}
