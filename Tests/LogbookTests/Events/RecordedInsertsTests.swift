import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// A save records its inserts from the models and encodes them from those values, on another
/// thread for a large batch: the bytes must be the canonical encoding of each event, in the
/// order a replay expects.
struct RecordedInsertsTests {
    private typealias Trip = SampleTripsSchemaV3.Trip
    private typealias BucketListItem = SampleTripsSchemaV3.BucketListItem
    private typealias LivingAccommodation = SampleTripsSchemaV3.LivingAccommodation

    /// A small save is encoded on the saving thread, a large one on another.
    @Test(arguments: [2, 150])
    func aSaveWritesEveryEventAsEncodingItWouldAndReopensToTheSameModels(trips: Int) throws {
        #expect((trips * 4 >= Store.overlappedAppendInserts) == (trips > 2))
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("store"))
        let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
        do {
            let context = ModelContext(try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url)))
            for number in 0..<trips {
                let trip = Trip(
                    name: "Trip \(number)",
                    destination: number % 2 == 0 ? "Lisbon" : "Kyōto",
                    startDate: start.addingTimeInterval(Double(number) * 86_400),
                    endDate: start.addingTimeInterval(Double(number) * 86_400 + 3_600)
                )
                context.insert(trip)
                trip.bucketList = [
                    BucketListItem(title: "Walk \(number)", details: "", hasReservation: false, isInPlan: true),
                    BucketListItem(title: "Eat \(number)", details: "late", hasReservation: true, isInPlan: false),
                ]
                trip.livingAccommodation = LivingAccommodation(address: "Street \(number)", placeName: "Inn")
            }
            try context.save()
        }

        let events = try readAll(url.path)
        var kinds: [String] = []
        for (sequence, bytes) in events {
            let envelope = try EventCodec.decode(bytes[...])
            #expect(EventCodec.encode(envelope) == bytes, "event \(sequence) is not in its canonical encoding")
            switch envelope.event {
            case .schema: kinds.append("schema")
            case .insert(let insert): kinds.append("insert \(insert.entity)")
            case .link: kinds.append("link")
            default: kinds.append("other")
            }
        }
        // The schema record, then every insert, then the links that need all of them.
        #expect(kinds.first == "schema")
        #expect(kinds.filter { $0 == "insert Trip" }.count == trips)
        #expect(kinds.filter { $0 == "insert BucketListItem" }.count == trips * 2)
        #expect(kinds.filter { $0 == "insert LivingAccommodation" }.count == trips)
        let lastInsert = try #require(kinds.lastIndex { $0.hasPrefix("insert") })
        #expect(kinds[1...lastInsert].allSatisfy { $0.hasPrefix("insert") })

        let reopened = ModelContext(try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url)))
        let found = try reopened.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)]))
        #expect(found.count == trips)
        let last = try #require(found.last)
        #expect(last.name == "Trip \(trips - 1)")
        #expect(last.destination == (trips % 2 == 1 ? "Lisbon" : "Kyōto"))
        #expect(last.endDate == start.addingTimeInterval(Double(trips - 1) * 86_400 + 3_600))
        #expect(Set((last.bucketList ?? []).map(\.title)) == ["Walk \(trips - 1)", "Eat \(trips - 1)"])
        #expect(last.bucketList?.first { $0.title.hasPrefix("Eat") }?.hasReservation == true)
        #expect(last.livingAccommodation?.address == "Street \(trips - 1)")
    }

    /// A large save moves its recorded values into the container's objects once they are
    /// encoded: another context of the container reads every one of them, the saved models keep
    /// their own, and an upsert within the batch keeps the later values.
    @Test func aLargeSaveMovesItsValuesIntoTheContainerWithoutTakingThemFromItsModels() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("store"))
        let trips = 150
        let long = String(repeating: "a long string stored out of line ", count: 3)
        let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        var saved: [Trip] = []
        for number in 0..<trips {
            let trip = Trip(
                name: "\(long)\(number)",
                destination: "\(long)destination \(number)",
                startDate: Date(timeIntervalSinceReferenceDate: Double(number)),
                endDate: Date(timeIntervalSinceReferenceDate: Double(number) + 60)
            )
            context.insert(trip)
            trip.bucketList?.append(
                BucketListItem(title: "\(long)item \(number)", details: long, hasReservation: false, isInPlan: true)
            )
            saved.append(trip)
        }
        // The same unique name again, later in the same batch: it is folded into the first.
        let again = Trip(
            name: "\(long)7",
            destination: "\(long)folded",
            startDate: Date(timeIntervalSinceReferenceDate: 7),
            endDate: Date(timeIntervalSinceReferenceDate: 67)
        )
        context.insert(again)
        #expect(trips * 2 >= Store.overlappedAppendInserts)
        try context.save()

        #expect(saved[3].name == "\(long)3")
        #expect(saved[3].destination == "\(long)destination 3")
        #expect(saved[3].bucketList?.first?.details == long)

        let second = ModelContext(container)
        let found = try second.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)]))
        #expect(found.count == trips)
        #expect(found.map(\.name) == (0..<trips).map { "\(long)\($0)" })
        #expect(found[7].destination == "\(long)folded")
        #expect(found[8].destination == "\(long)destination 8")
        #expect(found[149].bucketList?.map(\.title) == ["\(long)item 149"])
        #expect(found[149].bucketList?.first?.details == long)
    }

    /// Large saves one after another are encoded into the buffer of the save before, which is
    /// zeroed and written again, or replaced when the batch outgrows it: every batch still
    /// holds exactly its own events, and the store reopens to every model.
    @Test func largeSavesInARowEachWriteOnlyTheirOwnEvents() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("store"))
        // Trips per save: a first batch, a smaller one into its buffer, a much larger one that
        // needs a new buffer, and a small one into that.
        let saves = [150, 140, 600, 130]
        let start = Date(timeIntervalSinceReferenceDate: 700_000_000)
        do {
            let context = ModelContext(try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url)))
            var number = 0
            for (save, trips) in saves.enumerated() {
                for _ in 0..<trips {
                    let trip = Trip(
                        name: "Trip \(number) of save \(save)",
                        destination: String(repeating: "far away ", count: save + 1),
                        startDate: start.addingTimeInterval(Double(number) * 60),
                        endDate: start.addingTimeInterval(Double(number) * 60 + 30)
                    )
                    context.insert(trip)
                    trip.bucketList?.append(
                        BucketListItem(title: "Item \(number)", details: "", hasReservation: false, isInPlan: true)
                    )
                    number += 1
                }
                #expect(trips * 2 >= Store.overlappedAppendInserts)
                try context.save()
            }
        }

        var batches: [[String]] = []
        var cursor = LogReader(directory: url.path).batches(from: 1)
        while let batch = try cursor.next() {
            var names: [String] = []
            for (sequence, bytes) in batch.events {
                let event = [UInt8](bytes)
                let envelope = try EventCodec.decode(event[...])
                #expect(EventCodec.encode(envelope) == event, "event \(sequence) is not in its canonical encoding")
                if case .insert(let insert) = envelope.event, insert.entity == "Trip",
                    case .string(let name)? = insert.attributes.first(where: { $0.name == "name" })?.value
                {
                    names.append(name)
                }
            }
            batches.append(names)
        }
        #expect(batches.count == saves.count)
        for (save, names) in batches.enumerated() {
            #expect(names.count == saves[save], "save \(save)")
            #expect(names.allSatisfy { $0.hasSuffix("of save \(save)") }, "save \(save) holds another save's trips")
        }

        let reopened = ModelContext(try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url)))
        let found = try reopened.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)]))
        #expect(found.count == saves.reduce(0, +))
        #expect(found.last?.destination == String(repeating: "far away ", count: saves.count))
        #expect(found.last?.bucketList?.map(\.title) == ["Item \(found.count - 1)"])
    }

    /// Values whose size the save's writer does not judge (a decimal, a URL, data, arrays,
    /// composites) are written event by event, in the same encoding.
    @Test(arguments: [1, 130])
    func aSaveOfEveryAttributeTypeWritesEveryEventAsEncodingItWould(models: Int) throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("store"))
        do {
            let context = ModelContext(
                try ModelContainer(for: Schema([EveryType.self]), configurations: [ModelConfiguration(url: url)])
            )
            for number in 0..<models {
                let model = EveryType()
                model.int = number
                model.decimal = Decimal(number) / 4
                model.url = URL(string: "https://example.com/\(number)") ?? model.url
                model.data = Data([0, 1, UInt8(number % 256)])
                model.strings = ["a", "\(number)"]
                context.insert(model)
            }
            try context.save()
        }
        let events = try readAll(url.path)
        #expect(events.count == 1 + models)
        for (sequence, bytes) in events {
            #expect(EventCodec.encode(try EventCodec.decode(bytes[...])) == bytes, "event \(sequence)")
        }
        let reopened = ModelContext(
            try ModelContainer(for: Schema([EveryType.self]), configurations: [ModelConfiguration(url: url)])
        )
        let found = try reopened.fetch(FetchDescriptor<EveryType>(sortBy: [SortDescriptor(\.int)]))
        #expect(found.map(\.int) == Array(0..<models))
        #expect(found.last?.decimal == Decimal(models - 1) / 4)
        #expect(found.last?.strings == ["a", "\(models - 1)"])
    }
}
