import Foundation

/// The deterministic SampleTrips-N data set: N trips, each with five bucket-list items and one
/// accommodation.
///
/// Every trip is a pure function of `(seed, index)`, so any trip, name or query argument can be
/// computed on its own, in any process, without generating the others; two processes given the
/// same count and seed see byte-identical data.
///
/// ```swift
/// let dataSet = SampleTripsDataSet(tripCount: 100_000)
/// let trips = dataSet.trips()            // 100,000 trips, 700,000 objects
/// let v1 = dataSet.tripsV1()              // the same trips, V1 spelling, 10% duplicate names
/// ```
///
/// Names are unique in the current schema (`"<destination> <theme> <index + 1>"`). The V1
/// variant gives every tenth trip (indices 9, 19, 29, …) the name of a pseudo-randomly chosen
/// earlier trip that is not itself a duplicate, so exactly `tripCount / 10` trips collide with an
/// earlier one and ``v1DistinctNameCount`` names remain after de-duplication.
public struct SampleTripsDataSet: Hashable, Sendable {
    /// The trip count of SampleTrips-100k.
    public static let defaultTripCount = 100_000
    /// The seed every published figure was measured with.
    public static let defaultSeed: UInt64 = 0x5354_5249_5053_0001
    /// Bucket-list items per trip.
    public static let bucketListItemsPerTrip = 5
    /// Trips per save (Logbook) or per transaction (GRDB).
    public static let tripsPerSave = 1_000

    /// The number of trips.
    public var tripCount: Int
    /// The seed of the whole data set.
    public var seed: UInt64

    /// Creates the description of a data set; nothing is generated until asked for.
    ///
    /// - Precondition: `tripCount >= 0`.
    public init(tripCount: Int = defaultTripCount, seed: UInt64 = defaultSeed) {
        precondition(tripCount >= 0, "a data set cannot have a negative number of trips")
        self.tripCount = tripCount
        self.seed = seed
    }

    /// Trips, bucket-list items and accommodations together.
    public var objectCount: Int { tripCount * (2 + Self.bucketListItemsPerTrip) }

    /// Bucket-list items in the whole data set.
    public var bucketListItemCount: Int { tripCount * Self.bucketListItemsPerTrip }

    // MARK: - Current schema

    /// The trip at `index`.
    ///
    /// - Precondition: `0 <= index < tripCount`.
    public func trip(at index: Int) -> TripData {
        precondition(index >= 0 && index < tripCount, "trip index \(index) is outside 0..<\(tripCount)")
        var random = SplitMix64.forElement(index, of: seed)
        let destination = random.pick(Vocabulary.destinations)
        let theme = random.pick(Vocabulary.themes)
        let startDay = random.next(below: 3 * 365)
        let startHour = 6 + random.next(below: 14)
        let nights = 1 + random.next(below: 21)
        let start = Vocabulary.firstStartDate + TimeInterval(startDay * 86_400 + startHour * 3_600)
        let end = start + TimeInterval(nights * 86_400)
        var bucketList: [BucketListItemData] = []
        bucketList.reserveCapacity(Self.bucketListItemsPerTrip)
        for _ in 0..<Self.bucketListItemsPerTrip {
            bucketList.append(Self.bucketListItem(destination: destination, random: &random))
        }
        return TripData(
            name: Self.name(destination: destination, theme: theme, index: index),
            destination: destination,
            startDate: start,
            endDate: end,
            bucketList: bucketList,
            livingAccommodation: Self.accommodation(destination: destination, random: &random)
        )
    }

    /// The name of the trip at `index`, without generating the rest of the trip.
    public func name(at index: Int) -> String {
        precondition(index >= 0 && index < tripCount, "trip index \(index) is outside 0..<\(tripCount)")
        var random = SplitMix64.forElement(index, of: seed)
        let destination = random.pick(Vocabulary.destinations)
        let theme = random.pick(Vocabulary.themes)
        return Self.name(destination: destination, theme: theme, index: index)
    }

    /// All trips, in index order.
    public func trips() -> [TripData] {
        (0..<tripCount).map(trip(at:))
    }

    // MARK: - V1 variant

    /// Whether the V1 trip at `index` reuses an earlier trip's name.
    public func isV1Duplicate(at index: Int) -> Bool {
        index % 10 == 9
    }

    /// The index of the trip whose name the V1 trip at `index` carries (itself unless a duplicate).
    public func v1NameSource(at index: Int) -> Int {
        guard isV1Duplicate(at: index) else { return index }
        var random = SplitMix64.forElement(index, of: ~seed)
        let candidate = random.next(below: index)
        // The candidate's predecessor is never a duplicate: duplicates are nine apart at least.
        return isV1Duplicate(at: candidate) ? candidate - 1 : candidate
    }

    /// Distinct names among the V1 trips: the trip count after the V2 de-duplication.
    public var v1DistinctNameCount: Int { tripCount - tripCount / 10 }

    /// The trip at `index` as the V1 schema stores it.
    public func tripV1(at index: Int) -> TripDataV1 {
        let trip = trip(at: index)
        let source = v1NameSource(at: index)
        return TripDataV1(
            name: source == index ? trip.name : name(at: source),
            destination: trip.destination,
            start_date: trip.startDate,
            end_date: trip.endDate,
            bucketList: trip.bucketList,
            livingAccommodation: trip.livingAccommodation
        )
    }

    /// All V1 trips, in index order.
    public func tripsV1() -> [TripDataV1] {
        (0..<tripCount).map(tripV1(at:))
    }

    // MARK: - Query arguments

    /// `count` names of existing trips, drawn uniformly with replacement, for point lookups.
    public func lookupNames(count: Int) -> [String] {
        guard tripCount > 0 else { return [] }
        var random = SplitMix64(seed: seed ^ 0x4C4F_4F4B_5550)
        return (0..<count).map { _ in name(at: random.next(below: tripCount)) }
    }

    /// `count` destinations for "destination == X sorted by startDate", cycling through the
    /// vocabulary in a fixed shuffled order.
    public func queryDestinations(count: Int) -> [String] {
        var order = Vocabulary.destinations
        var random = SplitMix64(seed: seed ^ 0x5155_4552_59)
        for index in stride(from: order.count - 1, to: 0, by: -1) {
            order.swapAt(index, random.next(below: index + 1))
        }
        return (0..<count).map { order[$0 % order.count] }
    }

    /// Every destination a trip can have.
    public static var destinations: [String] { Vocabulary.destinations }

    // MARK: - Internals

    static func name(destination: String, theme: String, index: Int) -> String {
        "\(destination) \(theme) \(index + 1)"
    }

    static func bucketListItem(destination: String, random: inout SplitMix64) -> BucketListItemData {
        let activity = random.pick(Vocabulary.activities)
        let title = random.chance(percent: 40) ? "\(activity) in \(destination)" : activity
        var details = "\(random.pick(Vocabulary.detailOpeners)) \(random.pick(Vocabulary.detailMiddles))."
        if random.chance(percent: 60) {
            details += " \(random.pick(Vocabulary.detailClosers))"
        }
        return BucketListItemData(
            title: title,
            details: details,
            hasReservation: random.chance(percent: 35),
            isInPlan: random.chance(percent: 70)
        )
    }

    static func accommodation(destination: String, random: inout SplitMix64) -> LivingAccommodationData {
        let number = 1 + random.next(below: 240)
        let street = random.pick(Vocabulary.streets)
        let streetKind = random.pick(Vocabulary.streetKinds)
        let place = "\(random.pick(Vocabulary.placeKinds)) \(random.pick(Vocabulary.placeNames))"
        return LivingAccommodationData(address: "\(number) \(street) \(streetKind), \(destination)", placeName: place)
    }
}
