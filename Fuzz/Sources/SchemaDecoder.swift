import Foundation

@testable import Logbook

/// Fuzzes the decoding of recorded schemas, which lets the tool read any store with no
/// application code, and what the tool builds from a decoded schema.
///
/// The first input byte picks a mode: even, the rest is a whole schema event; odd, the rest is
/// the JSON description alone, wrapped here in a schema event, so that mutations work on the JSON.
///
/// Invariants: decoding throws a `LogbookError` or gives a schema that encodes and decodes to
/// itself; its fingerprint, projections with the SampleTrips schemas before and after it, the
/// upcaster, and replaying the SampleTrips version 1 events through it never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSchemaDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let mode = data[0]
    let rest = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let bytes = mode & 1 == 1 ? SchemaFuzzing.wrap(json: rest) : rest
    guard bytes.first == EventCodec.Kind.schema.rawValue else { return 0 }
    let record: Event.SchemaRecord
    do {
        guard case .schema(let decoded) = try EventCodec.decode(bytes).event else {
            FuzzSupport.failure("an event with the schema tag decoded to another kind")
        }
        record = decoded
    } catch {
        return 0
    }
    let schema = record.schema
    _ = schema.fingerprint.hexString
    do {
        let again = try JSONDecoder().decode(Schema.self, from: Data(EventCodec.schemaJSON(schema)))
        guard again == schema else { FuzzSupport.failure("a decoded schema does not survive encoding") }
    } catch {
        FuzzSupport.failure("a decoded schema encodes to JSON that does not decode: \(error)")
    }
    let sampleTrips = FuzzSupport.sampleTripsSchemas
    _ = Projection(schema: schema, history: sampleTrips)
    _ = Projection(schema: sampleTrips[sampleTrips.count - 1], history: [schema])
    _ = Upcaster(to: sampleTrips[sampleTrips.count - 1], history: [schema, sampleTrips[0]])
    let upcaster = Upcaster(to: schema, history: sampleTrips)
    var projection = Projection(schema: schema, history: [sampleTrips[0], schema])
    for event in SchemaFuzzing.sampleTripsEvents {
        _ = upcaster.upcast(event)
        // It throws only when the memory for a table cannot be had: a refusal, not a finding.
        _ = try? projection.apply(event)
    }
    return 0
}

enum SchemaFuzzing {
    /// A schema event around a JSON description: schema number 1, record 1, version 1.0.0.
    static func wrap(json: [UInt8]) -> [UInt8] {
        var writer = BinaryWriter()
        writer.write(EventCodec.Kind.schema.rawValue)
        writer.writeVarint(1)
        writer.writeVarint(1)
        for number in [1, 0, 0] as [UInt64] { writer.writeVarint(number) }
        writer.writeString("")
        writer.writeLengthPrefixed(json)
        return writer.bytes
    }

    /// Every event of the SampleTrips version 1 golden store.
    static let sampleTripsEvents: [Event] = {
        var events: [Event] = []
        do {
            try EventStream.forEach(LogReader(directory: FuzzSupport.repositoryRoot + "/Fixtures/sampletrips-v1")) {
                events.append($1.event)
            }
        } catch {
            fatalError("the golden store sampletrips-v1 does not read: \(error)")
        }
        return events
    }()
}
