import Foundation
import SampleTrips
import Testing

@testable import Logbook

struct ModelRegistryTests {
    @Test func objectsAreFoundByNumberNearAndFarAndForgotten() {
        var registry = ModelRegistry()
        let numbers: [UInt64] = [1, 2, 63, 64, 65, 5_000, 1 << 40, UInt64(Int64.max)]
        var models: [UInt64: Trip] = [:]
        for number in numbers {
            let trip = makeTrip("Trip \(number)")
            models[number] = trip
            registry[number] = trip
        }
        #expect(registry.count == numbers.count)
        for number in numbers {
            #expect(registry[number] === models[number], "number \(number)")
        }
        #expect(registry[3] == nil && registry[66] == nil && registry[(1 << 40) + 1] == nil)
        #expect(Set(registry.values.map { ObjectIdentifier($0) }) == Set(models.values.map { ObjectIdentifier($0) }))
        // `forEachModel` visits the same models, those in pages and those far beyond them, once each.
        var visited: [ObjectIdentifier] = []
        registry.forEachModel { visited.append(ObjectIdentifier($0)) }
        #expect(visited.count == numbers.count)
        #expect(Set(visited) == Set(models.values.map { ObjectIdentifier($0) }))

        registry[64] = nil
        registry[1 << 40] = nil
        registry[12_345] = nil
        #expect(registry.count == numbers.count - 2)
        #expect(registry[64] == nil && registry[1 << 40] == nil)
        #expect(registry[63] === models[63] && registry[65] === models[65])
    }

    /// Draining hands every model over once, a group of pages at a time, each model seen by
    /// `prepare` before its group is handed over; a group holds its models until it is let go.
    @Test func drainingHandsEveryModelOverOnceAGroupAtATime() {
        var registry = ModelRegistry()
        // Pages 0 to 3 (64 numbers each), and one number far beyond them, kept aside.
        let numbers: [UInt64] = [1, 2, 63, 64, 130, 200, 255, 1 << 40]
        var weakModels: [UInt64: WeakTrip] = [:]
        do {
            for number in numbers {
                let trip = makeTrip("Trip \(number)")
                registry[number] = trip
                weakModels[number] = WeakTrip(trip: trip)
            }
        }
        var prepared: [String] = []
        var groups: [(models: Any, preparedBefore: Int)] = []
        registry.drain(pagesPerGroup: 2) { model in
            prepared.append((model as? Trip)?.name ?? "?")
        } handOver: { group in
            groups.append((group, prepared.count))
        }
        #expect(registry.count == 0 && registry[1] == nil && registry[1 << 40] == nil)
        #expect(prepared == numbers.map { "Trip \($0)" })
        // Pages 0–1 (numbers 1 to 127), pages 2–3 (128 to 255), then the number far beyond.
        #expect(groups.map(\.preparedBefore) == [4, 7, 8])
        #expect(numbers.allSatisfy { weakModels[$0]?.trip != nil }, "the groups hold the models")
        groups.removeFirst()
        #expect(
            [1, 2, 63, 64].allSatisfy { weakModels[UInt64($0)]?.trip == nil },
            "the first group's models are freed"
        )
        #expect([130, 200, 255, 1 << 40].allSatisfy { weakModels[UInt64($0)]?.trip != nil })
        groups.removeAll()
        #expect(numbers.allSatisfy { weakModels[$0]?.trip == nil })
    }

    @Test func droppingTheRegistryOrAnEntryReleasesTheModels() {
        var registry = ModelRegistry()
        let (kept, forgotten) = registerTrips(("Kept", 7), ("Forgotten", 8), in: &registry)
        #expect(kept.trip != nil && forgotten.trip != nil, "the registry holds its models")
        registry[8] = nil
        #expect(forgotten.trip == nil, "a model set to nil is released")
        #expect(kept.trip != nil)
        registry = ModelRegistry()
        #expect(kept.trip == nil, "the registry's pages release their models")
    }

    @Test func numbersFarAheadMoveIntoPagesOnceThePagesReachThem() {
        var registry = ModelRegistry()
        let far = makeTrip("Far")
        // Far beyond the first pages: kept aside at first.
        registry[1_000_000] = far
        // Registering numbers in ascending order grows the pages past it.
        var near: [Trip] = []
        for number in stride(from: UInt64(1), through: 1_100_000, by: 997) {
            let trip = makeTrip("Trip \(number)")
            near.append(trip)
            registry[number] = trip
        }
        #expect(registry[1_000_000] === far)
        #expect(registry.count == near.count + 1)
        #expect(registry[1 + 997 * 500] === near[500])
    }

    @Test func aCopyOfTheRegistryChangesIndependentlyAndBothReleaseTheirModels() {
        var original = ModelRegistry()
        let (shared, replaced) = registerTrips(("Shared", 3), ("Replaced", 70), in: &original)
        let added = makeTrip("Added")
        var copy = original
        copy[70] = nil
        copy[4] = added
        #expect(original[70] === replaced.trip && original[4] == nil, "the original keeps its entries")
        #expect(copy[70] == nil && copy[4] === added && copy[3] === shared.trip, "the copy has its own")
        #expect((original.count, copy.count) == (2, 2))
        original = ModelRegistry()
        #expect(replaced.trip == nil, "a model only the original held goes with it")
        #expect(shared.trip != nil, "a model the copy holds stays")
        copy = ModelRegistry()
        #expect(shared.trip == nil)
    }

    /// A trip that only something else holds.
    private struct WeakTrip {
        weak var trip: Trip?
    }

    /// Registers two new trips, which nothing but the registry holds.
    private func registerTrips(
        _ first: (name: String, number: UInt64),
        _ second: (name: String, number: UInt64),
        in registry: inout ModelRegistry
    ) -> (WeakTrip, WeakTrip) {
        let trips = (makeTrip(first.name), makeTrip(second.name))
        registry[first.number] = trips.0
        registry[second.number] = trips.1
        return (WeakTrip(trip: trips.0), WeakTrip(trip: trips.1))
    }
}
