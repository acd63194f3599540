import Foundation
import SampleTrips
import Testing

@testable import Logbook

struct ModelStringFieldsTests {
    /// The strings stored in an object at the offsets found, in the order found.
    private func strings(in model: AnyObject, at offsets: [Int]) -> [String?] {
        let object = UnsafeRawPointer(Unmanaged.passUnretained(model).toOpaque())
        return withExtendedLifetime(model) {
            offsets.map { (object + $0).load(as: String?.self) }
        }
    }

    @Test func theOffsetsFoundHoldEachModelsStrings() {
        let trip = makeTrip("A trip whose name is long enough for the heap", destination: "Lisbon, Portugal, Europe")
        let item = BucketListItem(
            title: "A title longer than fifteen bytes",
            details: "Details",
            hasReservation: false,
            isInPlan: true
        )
        let stay = LivingAccommodation(address: "1 Rua Augusta, Lisbon", placeName: "Casa")
        #expect(
            strings(in: trip, at: ModelStringFields.stringFieldOffsets(of: Trip.self))
                == ["A trip whose name is long enough for the heap", "Lisbon, Portugal, Europe"]
        )
        #expect(
            strings(in: item, at: ModelStringFields.stringFieldOffsets(of: BucketListItem.self))
                == ["A title longer than fifteen bytes", "Details"]
        )
        #expect(
            strings(in: stay, at: ModelStringFields.stringFieldOffsets(of: LivingAccommodation.self))
                == ["1 Rua Augusta, Lisbon", "Casa"]
        )
    }

    /// `String?` counts as a string, and the model's other fields (arrays of strings, URLs,
    /// data) do not.
    @Test func optionalStringsAreFoundAndOtherTypesAreNot() {
        let model = EveryType()
        model.string = "a string of more than fifteen bytes"
        model.optionalString = "an optional string, as long"
        model.strings = ["in an array"]
        let offsets = ModelStringFields.stringFieldOffsets(of: EveryType.self)
        #expect(
            strings(in: model, at: offsets) == ["a string of more than fifteen bytes", "an optional string, as long"]
        )
        model.optionalString = nil
        #expect(strings(in: model, at: offsets) == ["a string of more than fifteen bytes", nil])
    }

    /// A group drained with the string fields releases its models, in pages and out of them,
    /// asking for objects and strings ahead, and leaves every string that others hold intact.
    @Test func aGroupReleasedWithStringHintsFreesEveryModelAndKeepsSharedStrings() {
        var registry = ModelRegistry()
        // Five pages of 64 numbers, with gaps, and one number far beyond them.
        let numbers = Array(stride(from: UInt64(1), to: 320, by: 3)) + [1 << 40]
        let names = numbers.map { "A trip with a name long enough for the heap, number \($0)" }
        var watched: [WeakModel] = []
        do {
            for (number, name) in zip(numbers, names) {
                let trip = makeTrip(name, destination: "A destination long enough too, \(number)")
                registry[number] = trip
                watched.append(WeakModel(model: trip))
            }
            let item = BucketListItem(title: names[0], details: "", hasReservation: false, isInPlan: false)
            registry[400] = item
            watched.append(WeakModel(model: item))
        }
        let fields = ModelStringFields([Trip.self, BucketListItem.self])
        #expect(!fields.isEmpty)
        var groups: [Any] = []
        registry.drain(pagesPerGroup: 4, strings: fields) { _ in
        } handOver: {
            groups.append($0)
        }
        #expect(groups.count == 3, "pages 0–3, pages 4–6, the number kept aside")
        #expect(watched.allSatisfy { $0.model != nil })
        groups.removeAll()
        #expect(watched.allSatisfy { $0.model == nil }, "every model is freed")
        #expect(
            names.enumerated().allSatisfy { $1 == "A trip with a name long enough for the heap, number \(numbers[$0])" }
        )
    }

    /// A type whose objects hold no string gets no entry, and a table of none asks for nothing.
    @Test func typesWithoutStringsLeaveTheTableEmpty() {
        #expect(ModelStringFields.stringFieldOffsets(of: NoStrings.self).isEmpty)
        #expect(ModelStringFields([NoStrings.self]).isEmpty)
        #expect(ModelStringFields([]).isEmpty)
    }

    /// A reference in an array of models leads to its object, the first word a reader loads;
    /// past the end there is none.
    @Test func aReferenceInAnArrayOfModelsLeadsToItsObject() throws {
        let models: [any PersistentModel] = [
            makeTrip("One"), BucketListItem(title: "Two", details: "", hasReservation: false, isInPlan: false),
        ]
        try models.withUnsafeBufferPointer { buffer in
            for index in buffer.indices {
                let reference = try #require(ModelStringFields.reference(in: buffer, at: index))
                #expect(reference.load(as: UInt.self) == UInt(bitPattern: ObjectIdentifier(buffer[index])))
            }
            #expect(ModelStringFields.reference(in: buffer, at: buffer.count) == nil)
            #expect(ModelStringFields.reference(in: buffer, at: buffer.count + 16) == nil)
        }
    }

    /// A save asks for each model and its strings ahead: every value of a large save, made of
    /// strings the app still holds and strings only the models hold, reads back after reopening,
    /// and the app's strings are intact.
    @Test(arguments: StoreKind.allCases)
    func aLargeSaveStoresEveryStringItAskedForAhead(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let held = (0..<300).map { "A name the app keeps, long enough for the heap, number \($0)" }
        do {
            let context = ModelContext(try store.container())
            for (index, name) in held.enumerated() {
                let trip = makeTrip(name, destination: "A destination only the model holds, \(index)")
                context.insert(trip)
                trip.bucketList?.append(
                    BucketListItem(
                        title: "An item title of more than fifteen bytes, \(index)",
                        details: "",
                        hasReservation: false,
                        isInPlan: true
                    )
                )
            }
            try context.save()
        }
        let context = try store.reopenedContext()
        let trips = try context.fetch(FetchDescriptor<Trip>())
        #expect(trips.count == held.count)
        for trip in trips {
            let index = try #require(held.firstIndex(of: trip.name))
            #expect(trip.destination == "A destination only the model holds, \(index)")
            #expect(trip.bucketList?.map(\.title) == ["An item title of more than fifteen bytes, \(index)"])
        }
        #expect(held.enumerated().allSatisfy { $1 == "A name the app keeps, long enough for the heap, number \($0)" })
    }

    private struct WeakModel {
        weak var model: AnyObject?
    }
}

@Model
final class NoStrings {
    var count: Int = 0
    var when: Date = Date(timeIntervalSinceReferenceDate: 0)
}
