import Foundation
import PropertyBased
import SampleTrips
import Testing

@testable import Logbook

struct EventCodecTests {
    /// Encodes `value` as an insert's attribute, decodes it, and checks that the value and the
    /// bytes survive (bytes, so that NaN and negative zero are compared exactly).
    private func roundTrip(_ value: AttributeValue, sourceLocation: SourceLocation = #_sourceLocation) {
        let envelope = EventEnvelope(
            schemaNumber: 3,
            event: .insert(.init(entity: "Trip", id: 42, attributes: [.init("value", value)], toOne: []))
        )
        let bytes = EventCodec.encode(envelope)
        do {
            let decoded = try EventCodec.decode(bytes)
            #expect(EventCodec.encode(decoded) == bytes, sourceLocation: sourceLocation)
            if case .insert(let insert) = decoded.event, case .double(let d) = insert.attributes[0].value, d.isNaN {
                return
            }
            if case .insert(let insert) = decoded.event, case .float(let f) = insert.attributes[0].value, f.isNaN {
                return
            }
            #expect(decoded == envelope, sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(value) did not decode: \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func integersRoundTrip() async {
        await propertyCheck(input: Gen.int64()) { roundTrip(.int($0)) }
        await propertyCheck(input: Gen.uint64()) { roundTrip(.uint($0)) }
        for edge: Int64 in [.min, .max, 0, -1] { roundTrip(.int(edge)) }
        roundTrip(.uint(.max))
    }

    @Test func floatingPointRoundTripsBitForBit() async {
        await propertyCheck(input: Gen.double(in: -1e300...1e300)) { roundTrip(.double($0)) }
        await propertyCheck(input: Gen.float(in: -1e30...1e30)) { roundTrip(.float($0)) }
        for edge in [Double.nan, .infinity, -.infinity, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude] {
            roundTrip(.double(edge))
        }
        roundTrip(.float(.nan))
        roundTrip(.float(-0.0))
    }

    @Test func decimalsRoundTrip() async {
        await propertyCheck(input: Gen.int64(), Gen.int(in: -20...20)) { mantissa, exponent in
            roundTrip(
                .decimal(
                    Decimal(
                        sign: mantissa < 0 ? .minus : .plus,
                        exponent: exponent,
                        significand: Decimal(mantissa.magnitude)
                    )
                )
            )
        }
        roundTrip(.decimal(Decimal(string: "3.141592653589793238462643383279")!))
    }

    @Test func stringsRoundTripIncludingAnyUnicode() async {
        await propertyCheck(input: Gen.uint32(in: 0...0x10_FFFF).compactMap(Unicode.Scalar.init).array(of: 0...40)) {
            scalars in
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars)
            roundTrip(.string(text))
        }
        roundTrip(.string(""))
        roundTrip(.string("Lisbon – Tromsø 🇵🇹"))
    }

    @Test func datesUUIDsURLsAndDataRoundTrip() async {
        await propertyCheck(input: Gen.dateTime) { roundTrip(.date($0)) }
        await propertyCheck(input: Gen.double(in: -1e12...1e12)) {
            roundTrip(.date(Date(timeIntervalSinceReferenceDate: $0)))
        }
        await propertyCheck(input: Gen.uint8().array(of: 16)) { bytes in
            roundTrip(
                .uuid(
                    UUID(
                        uuid: (
                            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
                            bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                        )
                    )
                )
            )
        }
        await propertyCheck(input: Gen.letterOrNumber.string(of: 1...20)) { path in
            roundTrip(.url(URL(string: "https://example.com/\(path)?q=1#x")!))
        }
        roundTrip(.url(URL(fileURLWithPath: "/tmp/a b/ç.txt")))
        await propertyCheck(input: Gen.uint8().array(of: 0...300)) { roundTrip(.data(Data($0))) }
        await propertyCheck(input: Gen.uint8().array(of: 0...300)) { roundTrip(.composite(Data($0))) }
        roundTrip(.null)
        roundTrip(.bool(true))
        roundTrip(.bool(false))
    }

    @Test func arraysRoundTripNested() async {
        await propertyCheck(input: Gen.int64().array(of: 0...20), Gen.letter.string(of: 0...5).array(of: 0...5)) {
            numbers,
            words in
            roundTrip(.array(numbers.map(AttributeValue.int)))
            roundTrip(.array([.array(words.map(AttributeValue.string)), .null, .array([])]))
        }
    }

    @Test func everyEventKindRoundTrips() throws {
        let schema = Schema(versionedSchema: SampleTripsSchemaV3.self)
        let events: [Event] = [
            .schema(
                .init(number: 1, version: schema.version, fingerprint: schema.fingerprint.hexString, schema: schema)
            ),
            .insert(
                .init(
                    entity: "Trip",
                    id: 1,
                    attributes: [.init("name", .string("Lisbon"))],
                    toOne: [.init("livingAccommodation", nil)]
                )
            ),
            .update(.init(entity: "BucketListItem", id: 9, attributes: [], toOne: [.init("trip", 1)])),
            .delete(entity: "Trip", id: 1),
            .link(.init(entity: "Trip", id: 1, relationship: "bucketList", targets: [2, 3, 300_000])),
            .unlink(.init(entity: "Trip", id: 1, relationship: "bucketList", targets: [])),
            .migration(
                .init(
                    fromVersion: .init(1, 0, 0),
                    toVersion: .init(2, 0, 0),
                    fromFingerprint: "a",
                    toFingerprint: "b",
                    isCustom: true
                )
            ),
        ]
        for event in events {
            let envelope = EventEnvelope(schemaNumber: 7, event: event)
            #expect(try EventCodec.decode(EventCodec.encode(envelope)) == envelope)
        }
    }

    @Test func truncatedOrCorruptEventsThrowWithTheOffset() throws {
        let bytes = EventCodec.encode(
            EventEnvelope(
                schemaNumber: 1,
                event: .insert(.init(entity: "Trip", id: 5, attributes: [.init("name", .string("Kyoto"))], toOne: []))
            )
        )
        for cut in 0..<bytes.count {
            #expect(throws: LogbookError.self) { try EventCodec.decode(Array(bytes[..<cut])) }
        }
        let error = #expect(throws: LogbookError.self) { try EventCodec.decode(bytes + [0]) }
        #expect(error?.description == "undecodable event: 1 bytes after the event at byte \(bytes.count) of the event")
        #expect(error?.code == .corruption)
        let unknown = #expect(throws: LogbookError.self) { try EventCodec.decode([99, 1]) }
        #expect(unknown?.description.contains("unknown event kind 99") == true)
        // An array claiming more elements than there are bytes is refused before allocating.
        var writer = BinaryWriter()
        writer.write(EventCodec.Kind.insert.rawValue)
        writer.writeVarint(1)
        writer.writeString("Trip")
        writer.writeVarint(1)
        writer.writeVarint(1)
        writer.writeString("tags")
        writer.write(EventCodec.ValueTag.array.rawValue)
        writer.writeVarint(UInt64.max >> 1)
        let huge = #expect(throws: LogbookError.self) { try EventCodec.decode(writer.bytes) }
        #expect(huge?.description.contains("exceeds the event") == true)
    }

    @Test func randomBytesNeverCrashTheDecoder() async {
        await propertyCheck(count: 2000, input: Gen.uint8().array(of: 0...64)) { bytes in
            _ = try? EventCodec.decode(bytes)
        }
    }
}

struct EventValidationTests {
    @Test func validationAgreesWithDecodingOnSoundAndDamagedEvents() async throws {
        let samples: [Event] = [
            .insert(
                .init(
                    entity: "Trip",
                    id: 7,
                    attributes: [
                        .init("name", .string("Tromsø")),
                        .init("tags", .array([.int(-3), .null, .decimal(1.5), .url(URL(fileURLWithPath: "/a"))])),
                    ],
                    toOne: [.init("stay", 3), .init("old", nil)]
                )
            ),
            .update(
                .init(
                    entity: "Trip",
                    id: 7,
                    attributes: [.init("when", .date(Date(timeIntervalSince1970: 0))), .init("id", .uuid(UUID()))],
                    toOne: []
                )
            ),
            .delete(entity: "Trip", id: 9),
            .link(.init(entity: "Trip", id: 1, relationship: "items", targets: [4, 5])),
            .unlink(.init(entity: "Trip", id: 1, relationship: "items", targets: [])),
        ]
        for event in samples {
            let bytes = EventCodec.encode(EventEnvelope(schemaNumber: 2, event: event))
            #expect(EventCodec.validate(bytes[...]) == nil)
            // Every truncation and every single-byte change is judged the same way by both.
            for cut in 0..<bytes.count {
                let truncated = Array(bytes[..<cut])
                #expect(EventCodec.validate(truncated[...]) != nil)
            }
            for index in bytes.indices {
                for flip: UInt8 in [0x01, 0x80, 0xFF] {
                    var damaged = bytes
                    damaged[index] ^= flip
                    let decodes = (try? EventCodec.decode(damaged)) != nil
                    #expect(
                        (EventCodec.validate(damaged[...]) == nil) == decodes,
                        "byte \(index) ^ \(flip) of \(event)"
                    )
                }
            }
        }
        await propertyCheck(count: 3000, input: Gen.uint8().array(of: 0...40)) { bytes in
            let decodes = (try? EventCodec.decode(bytes)) != nil
            #expect((EventCodec.validate(bytes[...]) == nil) == decodes)
        }
    }
}
