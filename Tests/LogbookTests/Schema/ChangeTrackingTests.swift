import Foundation
import SampleTrips
import Testing

@testable import Logbook

struct ChangeTrackingTests {
    private func makeTrip() -> Trip {
        Trip(name: "Lisbon", destination: "Portugal", startDate: .now, endDate: .now)
    }

    @Test func assignmentsInTheInitializerRecordNothing() {
        let trip = makeTrip()
        #expect(!trip.hasChanges)
        #expect(trip._$storage.changedProperties.isEmpty)
    }

    @Test func recordsExactlyThePropertiesThatWereSet() {
        let trip = makeTrip()
        trip.name = "Porto"
        trip.endDate = .distantFuture
        trip.name = "Faro"
        let binding = Trip._$binding
        #expect(trip.hasChanges)
        #expect(
            Array(trip._$storage.changedProperties)
                == [
                    binding.requiredIndex(of: "name"), binding.requiredIndex(of: "endDate"),
                ].sorted()
        )
    }

    @Test func settingTheSameValueStillCountsAsSet() {
        let trip = makeTrip()
        trip.destination = "Portugal"
        #expect(Array(trip._$storage.changedProperties) == [Trip._$binding.requiredIndex(of: "destination")])
    }

    @Test func transientPropertiesAreNotTracked() {
        let trip = makeTrip()
        trip.tripViews += 1
        #expect(!trip.hasChanges)
    }

    @Test func clearingForgetsTheChanges() {
        let trip = makeTrip()
        trip.name = "Porto"
        trip._$storage.clearChanges()
        #expect(!trip.hasChanges)
    }

    @Test func relationshipsAreTrackedAndReportedWithTheirModelsBeforeAndAfter() {
        let observer = RecordingObserver()
        let trip = makeTrip()
        let item = BucketListItem(title: "Tram 28", details: "", hasReservation: false, isInPlan: true)
        let stay = LivingAccommodation(address: "Rua Augusta", placeName: "Hotel")
        trip._$storage.observer = observer

        trip.bucketList?.append(item)
        trip.livingAccommodation = stay
        trip.livingAccommodation = nil

        let bucketList = Trip._$binding.requiredIndex(of: "bucketList")
        let accommodation = Trip._$binding.requiredIndex(of: "livingAccommodation")
        #expect(Array(trip._$storage.changedProperties) == [bucketList, accommodation].sorted())
        #expect(
            observer.relationshipChanges == [
                .init(model: ObjectIdentifier(trip), index: bucketList, old: [], new: [ObjectIdentifier(item)]),
                .init(model: ObjectIdentifier(trip), index: accommodation, old: [], new: [ObjectIdentifier(stay)]),
                .init(model: ObjectIdentifier(trip), index: accommodation, old: [ObjectIdentifier(stay)], new: []),
            ]
        )
    }

    @Test func theObserverHearsOnlyTheFirstChangeUntilTheChangesAreCleared() {
        let observer = RecordingObserver()
        let trip = makeTrip()
        trip._$storage.observer = observer
        trip.name = "Porto"
        trip.destination = "Portugal"
        #expect(observer.dirtied == [ObjectIdentifier(trip)])
        trip._$storage.clearChanges()
        trip.name = "Faro"
        #expect(observer.dirtied == [ObjectIdentifier(trip), ObjectIdentifier(trip)])
    }

    @Test func attributeChangesAreNotReportedAsRelationshipChanges() {
        let observer = RecordingObserver()
        let trip = makeTrip()
        trip._$storage.observer = observer
        trip.name = "Porto"
        #expect(observer.relationshipChanges.isEmpty)
    }

    @Test func persistedPropertiesAreObservable() {
        let trip = makeTrip()
        let changed = Flag()
        withObservationTracking {
            _ = trip.name
        } onChange: {
            changed.set()
        }
        trip.destination = "Spain"
        #expect(!changed.isSet)
        trip.name = "Madrid"
        #expect(changed.isSet)
    }
}

/// A flag that an observation callback may set from any thread.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }

    func set() { lock.withLock { value = true } }
}
