import Foundation
import Observation
import Testing

@testable import Logbook

/// What a subclass's objects do beside fetching: identity, observation, change tracking and
/// rollback, through inherited properties as through their own.
struct InheritanceModelBehaviourTests {
    @Test func aSubclassObjectHasItsOwnEntityBeforeAndAfterInsertion() throws {
        let trip: Travel.Trip = Travel.ConferenceTrip(
            name: "dub",
            startDate: Travel.start,
            perdiem: 1,
            conference: "x"
        )
        #expect(trip.persistentModelID.isTemporary)
        #expect(trip.persistentModelID.entityName == "ConferenceTrip")
        #expect(
            Travel.ConferenceTrip._$binding.properties.map(\.name) == [
                "name", "startDate", "perdiem", "conference", "talks",
            ]
        )
        #expect(Travel.BusinessTrip._$bindingBox.propertyCount == 3)
    }

    @Test func observersSeeInheritedAndOwnPropertiesOfASubclass() {
        let business = Travel.BusinessTrip(name: "b", startDate: Travel.start, perdiem: 10)
        let changes = Locked(0)
        withObservationTracking {
            _ = business.name
        } onChange: {
            changes.withLock { $0 += 1 }
        }
        withObservationTracking {
            _ = business.perdiem
        } onChange: {
            changes.withLock { $0 += 10 }
        }
        business.name = "c"
        business.perdiem = 20
        #expect(changes.withLock { $0 } == 11)
    }

    @Test(arguments: StoreKind.allCases)
    func rollbackRestoresInheritedAndOwnPropertiesOfASubclass(_ kind: StoreKind) throws {
        let store = TestStore(kind, models: Travel.models)
        let context = ModelContext(try store.container())
        let business = Travel.BusinessTrip(name: "b", startDate: Travel.start, perdiem: 10)
        context.insert(business)
        try context.save()
        business.name = "changed"
        business.perdiem = 99
        #expect(business.hasChanges)
        #expect(context.changedModelsArray.count == 1)
        context.rollback()
        #expect(business.name == "b")
        #expect(business.perdiem == 10)
        #expect(!context.hasChanges)
    }
}
