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
    }

    public struct BucketListRecord: Sendable, Hashable {
        public var title: String
        public var details: String
        public var hasReservation: Bool
        public var isInPlan: Bool
    }

    public struct AccommodationRecord: Sendable, Hashable {
        public var address: String
        public var placeName: String
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

    /// Inserts trips as SampleTrips version 1 models.
    public static func insertV1(_ trips: [TripRecord], into context: ModelContext) {
        for record in trips {
            let trip = SampleTripsSchemaV1.Trip(
                name: record.name,
                destination: record.destination,
                start_date: record.startDate,
                end_date: record.endDate
            )
            context.insert(trip)
            for item in record.bucketList {
                trip.bucketList?.append(
                    SampleTripsSchemaV1.BucketListItem(
                        title: item.title,
                        details: item.details,
                        hasReservation: item.hasReservation,
                        isInPlan: item.isInPlan
                    )
                )
            }
            if let stay = record.accommodation {
                trip.livingAccommodation = SampleTripsSchemaV1.LivingAccommodation(
                    address: stay.address,
                    placeName: stay.placeName
                )
            }
        }
    }
}
