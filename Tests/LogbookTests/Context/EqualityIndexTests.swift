import Foundation
import Logbook
import SampleTrips
import Testing

/// An equality on an attribute that is not unique is answered from an index that the first such
/// fetch builds and every later change keeps up to date, and its matches are put in order on
/// their stored values when the sort allows it. Both must give exactly what filtering and
/// sorting every object gives.
struct EqualityIndexTests {
    static let destinations = ["Lisbon", "Kyoto", "Oslo"]

    /// 30 trips over three destinations, with start dates that repeat, so that ties show.
    private func seeded(_ kind: StoreKind) throws -> TestStore {
        let store = TestStore(kind)
        let context = ModelContext(try store.container())
        for n in 0..<30 {
            context.insert(makeTrip("T\(n)", destination: Self.destinations[n % 3], offset: Double(n % 4)))
        }
        try context.save()
        return store
    }

    /// What the fetch must return: every trip, filtered and then sorted with `sort(using:)`.
    private func expected(
        _ context: ModelContext,
        _ destination: String,
        _ sortBy: [SortDescriptor<Trip>]
    ) throws -> [String] {
        let all = try context.fetch(FetchDescriptor<Trip>()).filter { $0.destination == destination }
        return (sortBy.isEmpty ? all : all.sorted(using: sortBy)).map(\.name)
    }

    private func expectAgreement(_ context: ModelContext, _ label: String) throws {
        let orders: [[SortDescriptor<Trip>]] = [
            [],
            [SortDescriptor(\.startDate)],
            [SortDescriptor(\.startDate, order: .reverse)],
            [SortDescriptor(\.endDate, order: .reverse), SortDescriptor(\.startDate)],
            [SortDescriptor(\.name)],
        ]
        for destination in Self.destinations + ["Nowhere"] {
            for sortBy in orders {
                let fetched = try context.fetch(
                    FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == destination }, sortBy: sortBy)
                )
                #expect(
                    fetched.map(\.name) == (try expected(context, destination, sortBy)),
                    "\(label): \(destination) sorted by \(sortBy.count) descriptor(s)"
                )
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func matchesAndOrderFollowEveryKindOfChange(kind: StoreKind) throws {
        let store = try seeded(kind)
        try changeInEveryWay(try store.reopenedContext())
        try expectAgreement(store.reopenedContext(), "reopened")
    }

    private func changeInEveryWay(_ context: ModelContext) throws {
        try expectAgreement(context, "fresh")

        // Saved changes by another context of the same container: a trip moves, one is deleted,
        // one is inserted, and an insert with an existing name is folded into that trip.
        let other = ModelContext(context.container)
        let trips = Dictionary(uniqueKeysWithValues: try other.fetch(FetchDescriptor<Trip>()).map { ($0.name, $0) })
        trips["T0"]?.destination = "Oslo"
        trips["T4"]?.startDate = baseDate - 5 * day
        if let doomed = trips["T1"] { other.delete(doomed) }
        other.insert(makeTrip("T30", destination: "Kyoto", offset: 1))
        other.insert(makeTrip("T5", destination: "Lisbon", offset: 9))
        try other.save()
        try expectAgreement(context, "after another context saved")
        #expect(
            try context.fetchCount(FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "Lisbon" }))
                == 10 - 1 + 1
        )

        // Unsaved changes of this context count, and the objects decide the order.
        let mine = Dictionary(uniqueKeysWithValues: try context.fetch(FetchDescriptor<Trip>()).map { ($0.name, $0) })
        mine["T2"]?.destination = "Lisbon"
        mine["T3"]?.startDate = baseDate + 20 * day
        try expectAgreement(context, "with unsaved changes")
        try context.save()
        try expectAgreement(context, "saved")
    }
}
