import Foundation
import Testing

@testable import Logbook

struct AttributeValueConversionTests {
    // MARK: - Scalars

    private func roundTrip<Value: AttributeValueConvertible & Equatable>(
        _ value: Value,
        as stored: AttributeValue,
        type: Schema.AttributeType
    ) throws {
        #expect(value.attributeValue == stored)
        #expect(try Value(attributeValue: stored) == value)
        #expect(Value.attributeType == type)
    }

    @Test func scalarsConvertWithoutCodable() throws {
        try roundTrip(true, as: .bool(true), type: .bool)
        try roundTrip(Int.min, as: .int(Int64.min), type: .int)
        try roundTrip(Int8.min, as: .int(-128), type: .int8)
        try roundTrip(Int16.max, as: .int(32767), type: .int16)
        try roundTrip(Int32.min, as: .int(-2_147_483_648), type: .int32)
        try roundTrip(Int64.max, as: .int(Int64.max), type: .int64)
        try roundTrip(UInt.max, as: .uint(UInt64.max), type: .uint)
        try roundTrip(UInt8.max, as: .uint(255), type: .uint8)
        try roundTrip(UInt16.max, as: .uint(65535), type: .uint16)
        try roundTrip(UInt32.max, as: .uint(4_294_967_295), type: .uint32)
        try roundTrip(UInt64.max, as: .uint(UInt64.max), type: .uint64)
        try roundTrip(Double.pi, as: .double(Double.pi), type: .double)
        try roundTrip(Float(1.5), as: .float(1.5), type: .float)
        let decimal = try #require(Decimal(string: "12345.6789"))
        try roundTrip(decimal, as: .decimal(decimal), type: .decimal)
        try roundTrip("Lisbon", as: .string("Lisbon"), type: .string)
        let date = Date(timeIntervalSinceReferenceDate: 123.5)
        try roundTrip(date, as: .date(date), type: .date)
        let uuid = UUID()
        try roundTrip(uuid, as: .uuid(uuid), type: .uuid)
        let url = try #require(URL(string: "https://example.com/trips?id=1"))
        try roundTrip(url, as: .url(url), type: .url)
        try roundTrip(Data([0, 1, 255]), as: .data(Data([0, 1, 255])), type: .data)
    }

    @Test func optionalsAndArraysNest() throws {
        try roundTrip(String?.none, as: .null, type: .optional(.string))
        try roundTrip(String?.some("x"), as: .string("x"), type: .optional(.string))
        try roundTrip([1, 2, 3], as: .array([.int(1), .int(2), .int(3)]), type: .array(.int))
        try roundTrip([Int]?.none, as: .null, type: .optional(.array(.int)))
        try roundTrip([[UInt8(1)], []], as: .array([.array([.uint(1)]), .array([])]), type: .array(.array(.uint8)))
        try roundTrip([String?.none, "a"], as: .array([.null, .string("a")]), type: .array(.optional(.string)))
    }

    @Test func integersReadAcrossSignednessWhenTheyFit() throws {
        #expect(try Int8(attributeValue: .uint(127)) == 127)
        #expect(try UInt16(attributeValue: .int(65535)) == 65535)
        #expect(try Double(attributeValue: .float(0.5)) == 0.5)
    }

    @Test func integersThatDoNotFitThrow() throws {
        let tooBig = try #require(throws: SchemaError.self) { try Int8(attributeValue: .int(128)) }
        #expect(tooBig.code == .valueOutOfRange)
        let tooSmall = try #require(throws: SchemaError.self) { try UInt(attributeValue: .int(-1)) }
        #expect(tooSmall.code == .valueOutOfRange)
        let unsigned = try #require(throws: SchemaError.self) {
            try Int64(attributeValue: .uint(UInt64(Int64.max) + 1))
        }
        #expect(unsigned.code == .valueOutOfRange)
    }

    @Test func aValueOfAnotherKindThrows() throws {
        let error = try #require(throws: SchemaError.self) { try String(attributeValue: .int(1)) }
        #expect(error.code == .typeMismatch)
        #expect(throws: SchemaError.self) { try Bool(attributeValue: .null) }
        #expect(throws: SchemaError.self) { try [Int](attributeValue: .int(1)) }
        #expect(throws: SchemaError.self) { try Float(attributeValue: .double(1)) }
    }

    // MARK: - Codecs chosen at run time

    @Test func rawRepresentableTypesStoreTheirRawValue() throws {
        let codec = try #require(AttributeCodec<Palette>.detect(Palette.self))
        #expect(codec.type == .rawRepresentable(typeName: "Palette", rawType: .string))
        #expect(try codec.encode(.green) == .string("green"))
        #expect(try codec.decode(.string("blue")) == .blue)
        let error = try #require(throws: SchemaError.self) { try codec.decode(.string("purple")) }
        #expect(error.code == .invalidRawValue)
    }

    @Test func codableStructsAreCompositesOfSortedJSON() throws {
        let codec = try #require(AttributeCodec<Address>.detect(Address.self))
        #expect(codec.type == .composite(typeName: "Address"))
        let stored = try codec.encode(Address(street: "Rua Augusta", city: "Lisbon"))
        #expect(stored == .composite(Data(#"{"city":"Lisbon","street":"Rua Augusta"}"#.utf8)))
        #expect(try codec.decode(stored) == Address(street: "Rua Augusta", city: "Lisbon"))
        let error = try #require(throws: SchemaError.self) { try codec.decode(.composite(Data("{}".utf8))) }
        #expect(error.code == .compositeCoding)
    }

    @Test func optionalsAndArraysOfEnumsAndCompositesAreDetected() throws {
        let optional = try #require(AttributeCodec<Palette?>.detect(Palette?.self))
        #expect(optional.type == .optional(.rawRepresentable(typeName: "Palette", rawType: .string)))
        #expect(try optional.encode(nil) == .null)
        #expect(try optional.decode(.null) == nil)
        let addresses = try #require(AttributeCodec<[Address]>.detect([Address].self))
        #expect(addresses.type == .array(.composite(typeName: "Address")))
    }

    @Test func typesThatAreNeitherConvertibleNorCodableAreNotDetected() {
        #expect(AttributeCodec<Color>.detect(Color.self) == nil)
    }

    // MARK: - Every attribute type, through a model

    @Test func everyAttributeTypeIsRecordedInTheSchema() throws {
        let entity = try #require(Schema([EveryType.self]).entity(named: "EveryType"))
        let types = Dictionary(uniqueKeysWithValues: entity.attributes.map { ($0.name, $0.type) })
        #expect(
            types == [
                "flag": .bool, "int": .int, "int8": .int8, "int16": .int16, "int32": .int32, "int64": .int64,
                "uint": .uint, "uint8": .uint8, "uint16": .uint16, "uint32": .uint32, "uint64": .uint64,
                "double": .double, "float": .float, "decimal": .decimal, "string": .string, "date": .date,
                "uuid": .uuid, "url": .url, "data": .data,
                "optionalString": .optional(.string), "optionalDate": .optional(.date),
                "strings": .array(.string), "optionalInts": .optional(.array(.int)),
                "palette": .rawRepresentable(typeName: "Palette", rawType: .string),
                "priority": .rawRepresentable(typeName: "Priority", rawType: .int),
                "optionalPriority": .optional(.rawRepresentable(typeName: "Priority", rawType: .int)),
                "priorities": .array(.rawRepresentable(typeName: "Priority", rawType: .int)),
                "optionalPalette": .optional(.rawRepresentable(typeName: "Palette", rawType: .string)),
                "palettes": .array(.rawRepresentable(typeName: "Palette", rawType: .string)),
                "address": .composite(typeName: "Address"),
                "optionalAddress": .optional(.composite(typeName: "Address")),
                "addresses": .array(.composite(typeName: "Address")),
                "scores": .composite(typeName: "Dictionary<String, Int>"),
                "color": .transformable(transformerName: "ColorTransformer"),
                "optionalColor": .optional(.transformable(transformerName: "ColorTransformer")),
            ]
        )
        #expect(entity.relationships.isEmpty)
        #expect(entity.attribute(named: "color")?.options == [.transformable(by: ColorTransformer.self)])
    }

    @Test func everyAttributeTypeSurvivesARoundTripThroughStoredValues() throws {
        let model = EveryType()
        model.flag = true
        model.int = -1
        model.int8 = -8
        model.int16 = -16
        model.int32 = -32
        model.int64 = -64
        model.uint = 1
        model.uint8 = 8
        model.uint16 = 16
        model.uint32 = 32
        model.uint64 = 64
        model.double = 2.5
        model.float = 3.5
        model.decimal = try #require(Decimal(string: "9.99"))
        model.string = "text"
        model.date = Date(timeIntervalSinceReferenceDate: 86400)
        model.url = try #require(URL(string: "https://example.com"))
        model.data = Data([1, 2, 3])
        model.optionalString = "maybe"
        model.optionalDate = nil
        model.strings = ["a", "b"]
        model.optionalInts = [1, 2]
        model.palette = .blue
        model.priority = .high
        model.optionalPriority = .low
        model.priorities = [.high, .low]
        model.optionalPalette = .green
        model.palettes = [.red, .blue]
        model.address = Address(street: "Rua Augusta", city: "Lisbon")
        model.optionalAddress = Address(street: "Main", city: "Porto")
        model.addresses = [Address(street: "A", city: "B")]
        model.scores = ["x": 1, "y": 2]
        model.color = Color(red: 1, green: 2, blue: 3)
        model.optionalColor = nil

        let values = try EveryType.storedValues(of: model)
        #expect(values[EveryType._$binding.requiredIndex(of: "priority")] == .int(2))
        #expect(values[EveryType._$binding.requiredIndex(of: "priorities")] == .array([.int(2), .int(1)]))
        #expect(values[EveryType._$binding.requiredIndex(of: "color")] == .data(Data([1, 2, 3])))
        #expect(values[EveryType._$binding.requiredIndex(of: "optionalColor")] == .null)

        let copy = try EveryType(_$storage: _$ModelStorage(), copying: values)
        #expect(copy.flag == model.flag)
        #expect(copy.int == model.int && copy.int8 == model.int8 && copy.int16 == model.int16)
        #expect(copy.int32 == model.int32 && copy.int64 == model.int64)
        #expect(copy.uint == model.uint && copy.uint8 == model.uint8 && copy.uint16 == model.uint16)
        #expect(copy.uint32 == model.uint32 && copy.uint64 == model.uint64)
        #expect(copy.double == model.double && copy.float == model.float && copy.decimal == model.decimal)
        #expect(copy.string == model.string && copy.date == model.date && copy.uuid == model.uuid)
        #expect(copy.url == model.url && copy.data == model.data)
        #expect(copy.optionalString == model.optionalString && copy.optionalDate == model.optionalDate)
        #expect(copy.strings == model.strings && copy.optionalInts == model.optionalInts)
        #expect(copy.palette == model.palette && copy.priority == model.priority)
        #expect(copy.optionalPriority == model.optionalPriority && copy.priorities == model.priorities)
        #expect(copy.optionalPalette == model.optionalPalette && copy.palettes == model.palettes)
        #expect(copy.address == model.address && copy.optionalAddress == model.optionalAddress)
        #expect(copy.addresses == model.addresses && copy.scores == model.scores)
        #expect(copy.color == model.color && copy.optionalColor == model.optionalColor)
        #expect(try EveryType.storedValues(of: copy) == values)
    }

    @Test func aTransformerThatFailsThrowsTransformerFailed() throws {
        var values = try EveryType.storedValues(of: EveryType())
        values[EveryType._$binding.requiredIndex(of: "color")] = .data(Data([1]))
        let error = try #require(throws: SchemaError.self) {
            try EveryType(_$storage: _$ModelStorage(), copying: values)
        }
        #expect(error.code == .transformerFailed)
        #expect(error.property == "color")
        #expect(error.cause is MalformedColor)
    }
}
