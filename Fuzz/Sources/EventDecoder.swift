import Foundation

@testable import Logbook

/// Fuzzes the event codec: the validator that `logbook verify` runs and the full decoder that
/// replay and `logbook dump` run, and the projection that applies what they decode.
///
/// The first input byte picks a mode: even, the rest is one event; odd, the rest is a batch
/// payload, each event behind its varint length, so that sequences of events reach the
/// projection (upserts, links, deletes of what earlier events made).
///
/// Invariants: the validator accepts exactly what the decoder accepts; a decoded event encodes to
/// bytes that decode to the same event; applying and upcasting decoded events never traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEventDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let mode = data[0]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let events: [ArraySlice<UInt8>]
    if mode & 1 == 1 {
        guard let framed = FuzzSupport.framedEvents(bytes) else { return 0 }
        events = framed
    } else {
        events = [bytes[...]]
    }
    let schemas = FuzzSupport.sampleTripsSchemas
    var projection = Projection(schema: schemas[schemas.count - 1], history: Array(schemas.dropLast()))
    let upcaster = Upcaster(to: schemas[schemas.count - 1], history: Array(schemas.dropLast()))
    for event in events {
        let verdict = EventCodec.validate(event)
        let envelope: EventEnvelope
        do {
            envelope = try EventCodec.decode(event)
        } catch {
            guard verdict != nil else {
                FuzzSupport.failure("the validator accepts an event the decoder rejects: \(error)")
            }
            continue
        }
        if let verdict {
            FuzzSupport.failure("the validator rejects an event the decoder accepts: \(verdict)")
        }
        let encoded = EventCodec.encode(envelope)
        do {
            let again = try EventCodec.decode(encoded)
            guard EventCodec.encode(again) == encoded else {
                FuzzSupport.failure("a decoded event does not survive encoding: \(envelope)")
            }
        } catch {
            FuzzSupport.failure("a decoded event encodes to bytes that do not decode: \(error)")
        }
        _ = upcaster.upcast(envelope.event)
        // It throws only when the memory for a table cannot be had: a refusal, not a finding.
        _ = try? projection.apply(envelope.event)
    }
    return 0
}
