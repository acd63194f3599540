import Foundation
import Logbook
import SampleTrips

/// Where a test's store lives: the behaviour tests run against both.
enum StoreKind: String, CaseIterable, CustomStringConvertible {
    case memory, disk
    var description: String { rawValue }
}

/// A store for one test, reopenable when it lives on disk.
final class TestStore {
    let kind: StoreKind
    let directory = TemporaryDirectory("store")
    private var current: ModelContainer?
    /// The model types its containers open: SampleTrips unless a test declares its own.
    private let models: [any PersistentModel.Type]

    init(_ kind: StoreKind, models: [any PersistentModel.Type] = [Trip.self]) {
        self.kind = kind
        self.models = models
    }

    var url: URL { URL(fileURLWithPath: directory.child("trips.store")) }

    var configuration: ModelConfiguration {
        kind == .memory
            ? ModelConfiguration(isStoredInMemoryOnly: true) : ModelConfiguration(url: url, durability: .relaxed)
    }

    /// The container; created on first use.
    func container() throws -> ModelContainer {
        if let current { return current }
        let container = try ModelContainer(for: Schema(models), configurations: [configuration])
        current = container
        return container
    }

    /// Lets go of the container, so that another may open the store.
    func close() {
        current = nil
    }

    /// A fresh context over a reopened container (on disk), or over the same one (in memory,
    /// where there is nothing to reopen).
    func reopenedContext() throws -> ModelContext {
        if kind == .disk { current = nil }
        return ModelContext(try container())
    }
}

let day: TimeInterval = 86_400
let baseDate = Date(timeIntervalSince1970: 1_780_000_000)

func makeTrip(_ name: String, destination: String = "Lisbon", offset: Double = 0) -> Trip {
    Trip(
        name: name,
        destination: destination,
        startDate: baseDate + offset * day,
        endDate: baseDate + (offset + 7) * day
    )
}

func makeItem(_ title: String) -> BucketListItem {
    BucketListItem(title: title, details: "details of \(title)", hasReservation: false, isInPlan: true)
}
