import Foundation
import Logbook

/// Deterministic SampleTrips data, shared by the demo, the tests and the benchmarks.
public enum SampleData {
    /// One trip as plain values, independent of any schema version.
    public struct TripRecord: Sendable, Hashable {
        public var name: String
        public var destination: String
        public var startDate: Date
        public var endDate: Date
        public var bucketList: [BucketListRecord]
        public var accommodation: AccommodationRecord?

        /// Creates a trip record; the bucket list and accommodation are optional.
        public init(
            name: String,
            destination: String,
            startDate: Date,
            endDate: Date,
            bucketList: [BucketListRecord] = [],
            accommodation: AccommodationRecord? = nil
        ) {
            self.name = name
            self.destination = destination
            self.startDate = startDate
            self.endDate = endDate
            self.bucketList = bucketList
            self.accommodation = accommodation
        }
    }

    public struct BucketListRecord: Sendable, Hashable {
        public var title: String
        public var details: String
        public var hasReservation: Bool
        public var isInPlan: Bool

        /// Creates a bucket-list item record.
        public init(title: String, details: String, hasReservation: Bool, isInPlan: Bool) {
            self.title = title
            self.details = details
            self.hasReservation = hasReservation
            self.isInPlan = isInPlan
        }
    }

    public struct AccommodationRecord: Sendable, Hashable {
        public var address: String
        public var placeName: String

        /// Creates an accommodation record.
        public init(address: String, placeName: String) {
            self.address = address
            self.placeName = placeName
        }
    }

    /// The demo's trips at version 1: three names are shared by two trips each (one of them
    /// differing only by a trailing space), as in the talk's first release, which had no unique
    /// constraint.
    public static let demoTrips: [TripRecord] = {
        func date(_ day: Int) -> Date { Date(timeIntervalSince1970: 1_780_272_000 + Double(day) * 86_400) }
        func items(_ titles: [String]) -> [BucketListRecord] {
            titles.enumerated().map { index, title in
                BucketListRecord(title: title, details: "", hasReservation: index == 0, isInPlan: true)
            }
        }
        return [
            TripRecord(
                name: "Summer in Lisbon",
                destination: "Lisbon",
                startDate: date(0),
                endDate: date(7),
                bucketList: items(["Ride tram 28", "Pastéis de Belém"]),
                accommodation: AccommodationRecord(address: "Rua da Saudade 12", placeName: "Casa Alfama")
            ),
            TripRecord(
                name: "Kyoto in autumn",
                destination: "Kyoto",
                startDate: date(120),
                endDate: date(130),
                bucketList: items(["Fushimi Inari at dawn", "Philosopher's Path"]),
                accommodation: AccommodationRecord(address: "Gion 4-2", placeName: "Ryokan Hanami")
            ),
            TripRecord(
                name: "Summer in Lisbon",
                destination: "Lisbon and Sintra",
                startDate: date(2),
                endDate: date(10),
                bucketList: items(["Pena Palace"]),
                accommodation: nil
            ),
            TripRecord(
                name: "Iceland ring road",
                destination: "Reykjavík",
                startDate: date(60),
                endDate: date(74),
                bucketList: items(["Jökulsárlón", "Hot pot in Mývatn", "Puffins"]),
                accommodation: AccommodationRecord(address: "Laugavegur 8", placeName: "Guesthouse Sól")
            ),
            TripRecord(
                name: "Kyoto in autumn ",
                destination: "Kyoto and Nara",
                startDate: date(121),
                endDate: date(131),
                bucketList: items(["Deer park in Nara"]),
                accommodation: AccommodationRecord(address: "Sanjo 7", placeName: "Machiya Sanjo")
            ),
            TripRecord(
                name: "Iceland ring road",
                destination: "Iceland",
                startDate: date(61),
                endDate: date(75),
                bucketList: [],
                accommodation: nil
            ),
        ]
    }()

    /// Trip `n` of SampleTrips-N, the measured workload: 5 bucket-list items and 1
    /// accommodation each.
    ///
    /// - Parameter duplicateNames: Whether every tenth trip repeats the name of the trip nine
    ///   before it, as in the first release, which had no unique constraint.
    public static func generatedTrip(_ n: Int, duplicateNames: Bool = false) -> TripRecord {
        TripRecord(
            name: duplicateNames && n % 10 == 9 ? "Trip \(n - 9)" : "Trip \(n)",
            destination: "Place \(n % 100)",
            startDate: Date(timeIntervalSince1970: 1_780_272_000 + Double(n) * 3_600),
            endDate: Date(timeIntervalSince1970: 1_780_272_000 + Double(n) * 3_600 + 7 * 86_400),
            bucketList: (0..<5).map { item in
                BucketListRecord(
                    title: "Item \(item)",
                    details: "Details \(n)-\(item)",
                    hasReservation: item % 2 == 0,
                    isInPlan: true
                )
            },
            accommodation: AccommodationRecord(address: "\(n) Main St", placeName: "Hotel \(n % 50)")
        )
    }

    /// Inserts trips as SampleTrips version 1 models, saving every `tripsPerSave` trips and at
    /// the end.
    public static func insertV1(
        _ trips: some Sequence<TripRecord>,
        into context: ModelContext,
        tripsPerSave: Int
    ) throws {
        try insert(trips, into: context, tripsPerSave: tripsPerSave) { record in
            let trip = SampleTripsSchemaV1.Trip(
                name: record.name,
                destination: record.destination,
                start_date: record.startDate,
                end_date: record.endDate
            )
            context.insert(trip)
            trip.bucketList = record.bucketList.map {
                SampleTripsSchemaV1.BucketListItem(
                    title: $0.title,
                    details: $0.details,
                    hasReservation: $0.hasReservation,
                    isInPlan: $0.isInPlan
                )
            }
            trip.livingAccommodation = record.accommodation.map {
                SampleTripsSchemaV1.LivingAccommodation(address: $0.address, placeName: $0.placeName)
            }
        }
    }

    /// Inserts trips as SampleTrips version 2 models; a repeated name is an upsert.
    public static func insertV2(
        _ trips: some Sequence<TripRecord>,
        into context: ModelContext,
        tripsPerSave: Int
    ) throws {
        try insert(trips, into: context, tripsPerSave: tripsPerSave) { record in
            let trip = SampleTripsSchemaV2.Trip(
                name: record.name,
                destination: record.destination,
                start_date: record.startDate,
                end_date: record.endDate
            )
            context.insert(trip)
            trip.bucketList = record.bucketList.map {
                SampleTripsSchemaV2.BucketListItem(
                    title: $0.title,
                    details: $0.details,
                    hasReservation: $0.hasReservation,
                    isInPlan: $0.isInPlan
                )
            }
            trip.livingAccommodation = record.accommodation.map {
                SampleTripsSchemaV2.LivingAccommodation(address: $0.address, placeName: $0.placeName)
            }
        }
    }

    /// Inserts trips as current (version 3) models.
    ///
    /// - Parameter appendingItems: Whether each bucket-list item is appended on its own
    ///   (`trip.bucketList?.append(item)`, as an app adds them one by one) rather than the list
    ///   set at once.
    public static func insertV3(
        _ trips: some Sequence<TripRecord>,
        into context: ModelContext,
        tripsPerSave: Int,
        appendingItems: Bool = false
    ) throws {
        try insert(trips, into: context, tripsPerSave: tripsPerSave) { record in
            let trip = Trip(
                name: record.name,
                destination: record.destination,
                startDate: record.startDate,
                endDate: record.endDate
            )
            context.insert(trip)
            let items = record.bucketList.map {
                BucketListItem(
                    title: $0.title,
                    details: $0.details,
                    hasReservation: $0.hasReservation,
                    isInPlan: $0.isInPlan
                )
            }
            if appendingItems {
                for item in items { trip.bucketList?.append(item) }
            } else {
                trip.bucketList = items
            }
            trip.livingAccommodation = record.accommodation.map {
                LivingAccommodation(address: $0.address, placeName: $0.placeName)
            }
        }
    }

    private static func insert(
        _ trips: some Sequence<TripRecord>,
        into context: ModelContext,
        tripsPerSave: Int,
        _ insertOne: (TripRecord) -> Void
    ) throws {
        var pending = 0
        for record in trips {
            insertOne(record)
            pending += 1
            if pending == tripsPerSave {
                try context.save()
                pending = 0
            }
        }
        try context.save()
    }
}
