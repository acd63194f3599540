import Foundation
import SampleTripsData
import Testing

struct SampleTripsDataSetTests {
    @Test func theSameCountAndSeedGiveTheSameTrips() {
        let first = SampleTripsDataSet(tripCount: 500).trips()
        let second = SampleTripsDataSet(tripCount: 500).trips()
        #expect(first == second)
        #expect(first != SampleTripsDataSet(tripCount: 500, seed: 1).trips())
    }

    @Test func aTripDoesNotDependOnTheSizeOfItsDataSet() {
        #expect(SampleTripsDataSet(tripCount: 10).trip(at: 7) == SampleTripsDataSet(tripCount: 100_000).trip(at: 7))
    }

    @Test func everyTripHasFiveBucketListItemsAndAnAccommodation() {
        for trip in SampleTripsDataSet(tripCount: 200).trips() {
            #expect(trip.bucketList.count == SampleTripsDataSet.bucketListItemsPerTrip)
            #expect(trip.livingAccommodation != nil)
            #expect(trip.endDate > trip.startDate)
        }
    }

    @Test func namesAreUniqueAndMatchTheirTrips() {
        let dataSet = SampleTripsDataSet(tripCount: 2_000)
        let trips = dataSet.trips()
        #expect(Set(trips.map(\.name)).count == trips.count)
        for index in [0, 1, 999, 1_999] {
            #expect(dataSet.name(at: index) == trips[index].name)
        }
    }

    @Test func exactlyOneV1TripInTenReusesAnEarlierUniqueName() {
        let dataSet = SampleTripsDataSet(tripCount: 2_345)
        let v1 = dataSet.tripsV1()
        let duplicates = (0..<v1.count).filter(dataSet.isV1Duplicate(at:))
        #expect(duplicates.count == 234)
        for index in duplicates {
            let source = dataSet.v1NameSource(at: index)
            #expect(source < index)
            #expect(!dataSet.isV1Duplicate(at: source))
            #expect(v1[index].name == v1[source].name)
        }
        #expect(Set(v1.map(\.name)).count == dataSet.v1DistinctNameCount)
    }

    @Test func aV1TripIsItsCurrentTripSpelledTheOldWay() {
        let dataSet = SampleTripsDataSet(tripCount: 20)
        let current = dataSet.trip(at: 19)
        let old = dataSet.tripV1(at: 19)
        #expect(old.start_date == current.startDate)
        #expect(old.end_date == current.endDate)
        #expect(old.bucketList == current.bucketList)
        #expect(old.name != current.name)
    }

    @Test func lookupNamesAllExist() {
        let dataSet = SampleTripsDataSet(tripCount: 300)
        let names = Set(dataSet.trips().map(\.name))
        let lookups = dataSet.lookupNames(count: 1_000)
        #expect(lookups.count == 1_000)
        #expect(lookups.allSatisfy(names.contains))
        #expect(lookups == dataSet.lookupNames(count: 1_000))
    }

    @Test func boundedDrawsStayInRange() {
        var random = SplitMix64(seed: 42)
        for bound in [1, 2, 3, 7, 100, 1_000_003] {
            for _ in 0..<1_000 {
                let value = random.next(below: bound)
                #expect(value >= 0 && value < bound)
            }
        }
    }

    @Test func splitMix64MatchesTheReferenceSequence() {
        // The first outputs for seed 0 of the reference C implementation (Vigna, splitmix64.c).
        var random = SplitMix64(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(random.next() == 0x06C4_5D18_8009_454F)
    }
}
