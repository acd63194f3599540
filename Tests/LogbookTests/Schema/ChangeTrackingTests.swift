import Foundation
import SampleTrips
import Testing

@testable import Logbook

struct ChangeTrackingTests {
    private func makeTrip() -> Trip {
        Trip(name: "Lisbon", destination: "Portugal", startDate: .now, endDate: .now)
    }

    /// Runs `read` inside a tracking scope that nobody is told about.
    private func readObserved(_ read: () -> Void) {
        withObservationTracking(read, onChange: {})
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

    @Test func aModelWhosePropertiesAreOnlySetMakesNoRegistrar() {
        let trip = makeTrip()
        trip.name = "Porto"
        trip.bucketList = [BucketListItem(title: "Tram 28", details: "", hasReservation: false, isInPlan: true)]
        #expect(!trip._$observationRegistrar.isCreated)
        #expect(trip.hasChanges)

        readObserved {
            _ = trip.destination
        }
        #expect(trip._$observationRegistrar.isCreated)
    }

    @Test func aReadMakesTheRegistrarAndAnObserverInstalledLaterIsTold() {
        let trip = makeTrip()
        #expect(!trip._$observationRegistrar.isCreated)
        #expect(trip.name == "Lisbon")
        #expect(trip._$observationRegistrar.isCreated)

        // A scope that reads another model sees nothing of the trip.
        let other = makeTrip()
        let otherChanged = Flag()
        withObservationTracking {
            _ = other.name
        } onChange: {
            otherChanged.set()
        }
        trip.name = "Faro"
        #expect(!otherChanged.isSet)

        let changed = Flag()
        withObservationTracking {
            _ = trip.destination
        } onChange: {
            changed.set()
        }
        trip.destination = "Algarve"
        #expect(changed.isSet)
    }

    @Test func aReadInANestedScopeOrOnAnotherThreadIsSeenWhereItHappens() {
        let outer = makeTrip()
        let inner = makeTrip()
        let innerChanged = Flag()
        let outerChanged = Flag()
        withObservationTracking {
            withObservationTracking {
                _ = inner.name
            } onChange: {
                innerChanged.set()
            }
            // Back in the outer scope, which Observation restored: a read here is the outer
            // scope's.
            _ = outer.name
        } onChange: {
            outerChanged.set()
        }
        outer.name = "Porto"
        #expect(outerChanged.isSet)
        #expect(!innerChanged.isSet)
        inner.name = "Faro"
        #expect(innerChanged.isSet)

        // A scope on this thread does not make reads on another thread observable.
        nonisolated(unsafe) let elsewhere = makeTrip()
        readObserved {
            let finished = DispatchSemaphore(value: 0)
            let thread = Thread {
                _ = elsewhere.name
                finished.signal()
            }
            thread.start()
            // A semaphore, not a poll of `isFinished`: what the thread did then happens before
            // what follows, for ThreadSanitizer too.
            finished.wait()
        }
        #expect(elsewhere._$observationRegistrar.isCreated)
    }

    @Test func aThreadThatReadOutsideAScopeStillSeesTheScopesItRunsLater() {
        // The first read on a thread keeps where Observation's variable lives for that thread;
        // scopes that start later on the same thread must still be seen, and ending them too.
        nonisolated(unsafe) let before = makeTrip()
        nonisolated(unsafe) let inside = makeTrip()
        nonisolated(unsafe) let after = makeTrip()
        let changed = Flag()
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            _ = before.name
            withObservationTracking {
                _ = inside.name
            } onChange: {
                changed.set()
            }
            _ = after.name
            finished.signal()
        }
        thread.start()
        finished.wait()
        #expect(before._$observationRegistrar.isCreated)
        #expect(inside._$observationRegistrar.isCreated)
        #expect(after._$observationRegistrar.isCreated)
        inside.name = "Braga"
        #expect(changed.isSet)
    }

    @Test func everyObserverOfAModelFirstObservedLateIsTold() {
        let trip = makeTrip()
        trip.name = "Porto"  // before any registrar: nobody to tell
        let first = Flag()
        let second = Flag()
        withObservationTracking {
            _ = trip.name
        } onChange: {
            first.set()
        }
        withObservationTracking {
            _ = trip.destination
        } onChange: {
            second.set()
        }
        trip.name = "Faro"
        #expect(first.isSet)
        #expect(!second.isSet)
        trip.destination = "Algarve"
        #expect(second.isSet)
    }

    @Test func anObserverMayReadTheModelWhileItChanges() {
        let trip = makeTrip()
        // The callback runs synchronously on this thread, inside the mutation (willSet).
        nonisolated(unsafe) let observed = trip
        let seen = Flag()
        withObservationTracking {
            _ = trip.name
        } onChange: {
            // Reading the model again from inside its mutation must be safe.
            if !observed.destination.isEmpty { seen.set() }
        }
        trip.name = "Faro"
        #expect(seen.isSet)
        #expect(trip.name == "Faro")
    }

    @Test func fetchedModelsMakeTheirRegistrarOnlyWhenRead() throws {
        let container = try ModelContainer(
            for: Trip.self,
            configurations: ModelConfiguration(isStoredInMemoryOnly: true)
        )
        let writer = ModelContext(container)
        let trip = makeTrip()
        writer.insert(trip)
        trip.bucketList?.append(BucketListItem(title: "Tram 28", details: "", hasReservation: false, isInPlan: true))
        try writer.save()

        let reader = ModelContext(container)
        let fetched = try #require(try reader.fetch(FetchDescriptor<Trip>()).first)
        #expect(!fetched._$observationRegistrar.isCreated)
        #expect(fetched.bucketList?.first?.title == "Tram 28")
        #expect(fetched._$observationRegistrar.isCreated)
        nonisolated(unsafe) var read: BucketListItem?
        readObserved {
            read = fetched.bucketList?.first
        }
        let item = try #require(read)
        #expect(fetched._$observationRegistrar.isCreated)
        #expect(item._$observationRegistrar.isCreated)

        let changed = Flag()
        withObservationTracking {
            _ = item.title
        } onChange: {
            changed.set()
        }
        reader.rollback()
        #expect(!changed.isSet)
        item.title = "Elevador de Santa Justa"
        #expect(changed.isSet)
        #expect(item.title == "Elevador de Santa Justa")
    }
}

/// A flag that an observation callback may set from any thread.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }

    func set() { lock.withLock { value = true } }
}
