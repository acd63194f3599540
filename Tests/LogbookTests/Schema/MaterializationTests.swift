import Foundation
import SampleTrips
import Testing

@testable import Logbook

struct MaterializationTests {
    private let start = Date(timeIntervalSinceReferenceDate: 1000)
    private let end = Date(timeIntervalSinceReferenceDate: 2000)

    /// The stored values of a V3 trip, in the binding's order.
    private func tripValues(name: String = "Lisbon") -> [AttributeValue] {
        Trip._$binding.properties.map { property in
            switch property.name {
            case "name": .string(name)
            case "destination": .string("Portugal")
            case "startDate": .date(start)
            case "endDate": .date(end)
            default: .null
            }
        }
    }

    @Test func createsAModelFromStoredValuesWithoutTheUsersInitializer() throws {
        let identifier = PersistentIdentifier(entityName: "Trip", number: 42)
        let trip = try Trip(_$storage: _$ModelStorage(number: 42, link: nil), copying: tripValues())
        #expect(trip.name == "Lisbon")
        #expect(trip.destination == "Portugal")
        #expect(trip.startDate == start)
        #expect(trip.endDate == end)
        #expect(trip.persistentModelID == identifier)
        #expect(!trip.hasChanges)
    }

    @Test func theInitializerTakesTheStringsOutOfTheValuesItIsGiven() throws {
        var values = tripValues()
        let trip = try Trip(_$storage: _$ModelStorage(), values: &values)
        #expect(trip.name == "Lisbon")
        #expect(trip.destination == "Portugal")
        // The model holds the only reference to each string; other values stay where they were.
        #expect(values[Trip._$binding.requiredIndex(of: "name")] == .null)
        #expect(values[Trip._$binding.requiredIndex(of: "destination")] == .null)
        #expect(values[Trip._$binding.requiredIndex(of: "startDate")] == .date(start))
        #expect(values[Trip._$binding.requiredIndex(of: "endDate")] == .date(end))
    }

    @Test func transientPropertiesTakeTheirDeclaredDefaults() throws {
        let made = Viewed(title: "Lisbon", views: 99)
        #expect(made.views == 99)
        let values = try Viewed._$binding.properties.map { property -> AttributeValue in
            guard case .attribute(let access) = property.kind else { return .null }
            return try access.read(made)
        }
        let fetched = try Viewed(_$storage: _$ModelStorage(), copying: values)
        #expect(fetched.title == "Lisbon")
        #expect(fetched.views == 7)

        let trip = try Trip(_$storage: _$ModelStorage(), copying: tripValues())
        #expect(trip.tripViews == 0)
    }

    @Test func relationshipsStartEmpty() throws {
        let trip = try Trip(_$storage: _$ModelStorage(), copying: tripValues())
        #expect(trip.bucketList == nil)
        #expect(trip.livingAccommodation == nil)
    }

    @Test func aFaultedRelationshipIsLoadedOnFirstRead() throws {
        let observer = RecordingObserver()
        let item = BucketListItem(title: "Tram 28", details: "", hasReservation: false, isInPlan: true)
        let bucketList = Trip._$binding.requiredIndex(of: "bucketList")
        observer.resolve = { model, index in
            guard case .relationship(let access) = Trip._$binding.properties[index].kind, let trip = model as? Trip
            else { return }
            access.write(trip, [item], false)
        }
        let storage = _$ModelStorage(number: 1, link: ContextLink(observer), faulted: PropertySet([bucketList]))
        let trip = try Trip(_$storage: storage, copying: tripValues())

        #expect(trip.bucketList == [item])
        #expect(trip.bucketList == [item])
        #expect(observer.resolvedFaults == [bucketList])
        #expect(!trip.hasChanges)
        #expect(observer.relationshipChanges.isEmpty)
    }

    @Test func aValueOfTheWrongKindThrowsNamingEntityAndProperty() throws {
        var values = tripValues()
        values[Trip._$binding.requiredIndex(of: "startDate")] = .string("yesterday")
        let error = try #require(throws: SchemaError.self) {
            try Trip(_$storage: _$ModelStorage(), copying: values)
        }
        #expect(error.code == .typeMismatch)
        #expect(error.entity == "Trip")
        #expect(error.property == "startDate")
        #expect(!error.description.contains("yesterday"))
    }

    /// Values already of a property's type are taken as they are; values of another kind still
    /// go through the type's conversion, which widens or throws.
    @Test func valuesOfTheTypeAndValuesToConvertBothMaterialize() throws {
        var values = try EveryType.storedValues(of: EveryType())
        func set(_ name: String, _ value: AttributeValue) {
            values[EveryType._$binding.requiredIndex(of: name)] = value
        }
        let uuid = UUID()
        set("flag", .bool(true))
        set("int", .int(-7))
        set("double", .double(2.5))
        set("string", .string("Tram 28"))
        set("date", .date(end))
        set("uuid", .uuid(uuid))
        let direct = try EveryType(_$storage: _$ModelStorage(), copying: values)
        #expect(direct.flag && direct.int == -7 && direct.double == 2.5)
        #expect(direct.string == "Tram 28" && direct.date == end && direct.uuid == uuid)

        set("int", .uint(9))
        set("double", .float(1.5))
        let converted = try EveryType(_$storage: _$ModelStorage(), copying: values)
        #expect(converted.int == 9 && converted.double == 1.5)

        set("int", .uint(UInt64.max))
        let tooLarge = try #require(throws: SchemaError.self) {
            try EveryType(_$storage: _$ModelStorage(), copying: values)
        }
        #expect(tooLarge.code == .valueOutOfRange && tooLarge.property == "int")
        set("int", .int(1))
        set("flag", .int(1))
        let mismatch = try #require(throws: SchemaError.self) {
            try EveryType(_$storage: _$ModelStorage(), copying: values)
        }
        #expect(mismatch.code == .typeMismatch && mismatch.property == "flag" && mismatch.entity == "EveryType")
    }

    @Test func tooFewValuesThrow() throws {
        let error = try #require(throws: SchemaError.self) {
            try Trip(_$storage: _$ModelStorage(), copying: [.string("Lisbon")])
        }
        #expect(error.code == .valueCountMismatch)
        #expect(error.entity == "Trip")
    }

    @Test func aStoredRawValueWithNoCaseThrows() throws {
        let model = EveryType()
        var values = try EveryType.storedValues(of: model)
        values[EveryType._$binding.requiredIndex(of: "palette")] = .string("purple")
        let error = try #require(throws: SchemaError.self) {
            try EveryType(_$storage: _$ModelStorage(), copying: values)
        }
        #expect(error.code == .invalidRawValue)
        #expect(error.property == "palette")
    }

    @Test func theBindingWritesValuesWithoutRecordingChangesAndNotifiesObservers() throws {
        let trip = Trip(name: "Lisbon", destination: "Portugal", startDate: start, endDate: end)
        guard case .attribute(let name) = Trip._$binding.properties[Trip._$binding.requiredIndex(of: "name")].kind
        else {
            Issue.record("name is an attribute")
            return
        }
        #expect(try name.read(trip) == .string("Lisbon"))

        let changed = Flag()
        withObservationTracking {
            _ = trip.name
        } onChange: {
            changed.set()
        }
        try name.write(trip, .string("Porto"))
        #expect(trip.name == "Porto")
        #expect(!changed.isSet)

        try name.observedWrite(trip, .string("Faro"))
        #expect(trip.name == "Faro")
        #expect(changed.isSet)
        #expect(!trip.hasChanges)
    }

    @Test func temporaryIdentifiersAreStableAndDistinct() {
        let first = Trip(name: "A", destination: "", startDate: start, endDate: end)
        let second = Trip(name: "B", destination: "", startDate: start, endDate: end)
        #expect(first.persistentModelID == first.id)
        #expect(first.persistentModelID.isTemporary)
        #expect(first.persistentModelID.entityName == "Trip")
        #expect(first.persistentModelID != second.persistentModelID)
        #expect(first != second)
        #expect(first == first)
    }
}

extension EveryType {
    /// Every persisted value of a model, read through its binding.
    static func storedValues(of model: EveryType) throws -> [AttributeValue] {
        try _$binding.properties.map { property in
            guard case .attribute(let access) = property.kind else { return .null }
            return try access.read(model)
        }
    }
}
