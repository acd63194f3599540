// SwiftData's model inheritance (iOS 26), as its documentation writes it: a model class that is
// not final, and final subclasses that add their own properties and call `super.init`.

import Foundation
import Logbook
import Testing

enum TripHierarchy {
    @Model
    class Trip {
        var name: String
        var startDate: Date

        init(name: String, startDate: Date) {
            self.name = name
            self.startDate = startDate
        }
    }

    @Model
    final class BusinessTrip: Trip {
        var perdiem: Double

        init(name: String, startDate: Date, perdiem: Double) {
            self.perdiem = perdiem
            super.init(name: name, startDate: startDate)
        }
    }

    @Model
    final class PersonalTrip: Trip {
        var reason: String

        init(name: String, startDate: Date, reason: String) {
            self.reason = reason
            super.init(name: name, startDate: startDate)
        }
    }
}

struct InheritanceSampleTests {
    @Test func theDocumentedHierarchyStoresFetchesAndDeletes() throws {
        let store = StoreDirectory()
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        do {
            let container = try ModelContainer(
                for: TripHierarchy.Trip.self,
                TripHierarchy.BusinessTrip.self,
                TripHierarchy.PersonalTrip.self,
                configurations: ModelConfiguration(url: store.url)
            )
            let context = ModelContext(container)
            context.insert(TripHierarchy.Trip(name: "Weekend", startDate: start))
            context.insert(TripHierarchy.BusinessTrip(name: "Summit", startDate: start, perdiem: 120))
            context.insert(TripHierarchy.PersonalTrip(name: "Wedding", startDate: start, reason: "family"))
            try context.save()
        }
        let container = try ModelContainer(
            for: TripHierarchy.Trip.self,
            TripHierarchy.BusinessTrip.self,
            TripHierarchy.PersonalTrip.self,
            configurations: ModelConfiguration(url: store.url)
        )
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<TripHierarchy.Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.name) == ["Summit", "Wedding", "Weekend"])
        #expect(trips.compactMap { $0 as? TripHierarchy.BusinessTrip }.map(\.perdiem) == [120])
        #expect(try context.fetch(FetchDescriptor<TripHierarchy.PersonalTrip>()).map(\.reason) == ["family"])
        try context.delete(model: TripHierarchy.Trip.self, includeSubclasses: false)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<TripHierarchy.Trip>()) == 2)
    }
}
