import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// Replaying an update straight from its bytes (``Projection/applyUpdate(_:sequence:)``) gives
/// exactly what decoding it and applying the event gives, whatever the log holds.
struct UpdateBytesTests {
    /// Trips with unique names and items pointing at them, then random updates: destinations
    /// (no index holds them), names that another trip holds (folds) or nobody does, the V1 name
    /// `start_date`, an attribute the schema no longer has, values the shortcut declines, items
    /// moved to another trip (a to-one reference), identifiers that name nothing or an
    /// upsert's alias, an unknown entity; deletes in between.
    private static func events(seed: UInt64, count: Int) -> [Event] {
        var random = SeededGenerator(seed: seed)
        var events: [Event] = []
        let trips: UInt64 = 60
        for id in 1...trips {
            // Trips 51...60 repeat names of 1...10: upserts, whose identifiers become aliases.
            let name = id > 50 ? "Trip \(id - 50)" : "Trip \(id)"
            let fields: [Event.Field] = [
                .init("name", .string(name)), .init("destination", .string("Lisbon \(id)")),
                .init("startDate", .date(Date(timeIntervalSinceReferenceDate: Double(id)))),
            ]
            events.append(.insert(.init(entity: "Trip", id: id, attributes: fields, toOne: [])))
        }
        for id in (trips + 1)...(trips + 40) {
            let item: [Event.Field] = [.init("title", .string("item \(id)")), .init("hasReservation", .bool(false))]
            let trip = Event.Reference("trip", UInt64.random(in: 1...trips, using: &random))
            events.append(.insert(.init(entity: "BucketListItem", id: id, attributes: item, toOne: [trip])))
        }
        func trip() -> UInt64 { UInt64.random(in: 1...(trips + 3), using: &random) }
        for _ in 0..<count {
            let fields: [Event.Field]
            var entity = "Trip"
            var id = trip()
            var toOne: [Event.Reference] = []
            switch Int.random(in: 0..<12, using: &random) {
            case 0..<4:
                fields = [
                    .init("destination", .string("Porto, a long way from \(Int.random(in: 0..<99, using: &random))"))
                ]
            case 4:
                fields = [.init("name", .string("Trip \(Int.random(in: 1...70, using: &random))"))]
            case 5:
                fields = [
                    .init("start_date", .date(Date(timeIntervalSinceReferenceDate: Double(id)))),
                    .init("tripViews", .int(Int64.random(in: 0..<9, using: &random))),
                ]
            case 6:
                fields = [.init("retired", .int(7)), .init("destination", .string("Faro"))]
            case 7:
                fields = [.init("endDate", .data(Data([1, 2, 3])))]
            case 8:
                entity = "BucketListItem"
                id = UInt64.random(in: (trips + 1)...(trips + 40), using: &random)
                fields = [.init("hasReservation", .bool(Bool.random(using: &random)))]
                if Bool.random(using: &random) { toOne = [.init("trip", trip())] }
            case 9:
                entity = "Ghost"
                fields = [.init("name", .string("boo"))]
            case 10 where Int.random(in: 0..<20, using: &random) == 0:
                events.append(.delete(entity: "Trip", id: id))
                continue
            default:
                fields = [.init("destination", .null), .init("tripViews", .uint(3))]
            }
            events.append(.update(.init(entity: entity, id: id, attributes: fields, toOne: toOne)))
        }
        return events
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func theShortcutAndTheDecodedEventAgree(seed: UInt64) throws {
        let schema = Schema(versionedSchema: SampleTripsSchemaV3.self)
        var decoded = Projection(schema: schema)
        var shortcut = Projection(schema: schema)
        var taken = 0
        let events = Self.events(seed: seed, count: 2_000)
        for (position, event) in events.enumerated() {
            let bytes = EventCodec.encode(EventEnvelope(schemaNumber: 1, event: event))
            try decoded.apply(try EventCodec.decode(bytes).event)
            if bytes.withUnsafeBytes({ shortcut.applyUpdate($0, sequence: UInt64(position + 1)) }) {
                taken += 1
                #expect(shortcut.lastSequence == UInt64(position + 1))
            } else {
                try shortcut.apply(try EventCodec.decode(bytes).event)
            }
            guard position % 50 == 49 || position == events.count - 1 else { continue }
            let differences = InsertBytesTests.differences(decoded, shortcut)
            guard differences.isEmpty else {
                Issue.record("by event \(position), \(event): \(differences)")
                return
            }
        }
        #expect(taken > events.count / 3, "the shortcut took \(taken) of \(events.count) events")
        let trips = try #require(decoded.table(named: "Trip"))
        #expect(decoded.foldCounts[trips] > 10, "updates to a held name folded trips")
    }

    /// What the shortcut declines, having changed nothing: inserts, a value it does not read,
    /// a to-one reference, an object that is not there, and bytes cut short.
    @Test func theShortcutDeclinesWhatItDoesNotApply() throws {
        let schema = Schema(versionedSchema: SampleTripsSchemaV3.self)
        var projection = Projection(schema: schema)
        let setUp: [Event] = [
            .insert(.init(entity: "Trip", id: 1, attributes: [.init("name", .string("Lisbon"))], toOne: [])),
            .insert(.init(entity: "BucketListItem", id: 2, attributes: [.init("title", .string("tram"))], toOne: [])),
        ]
        for event in setUp { try projection.apply(event) }
        let before = projection
        let declined: [Event] = [
            .insert(.init(entity: "Trip", id: 3, attributes: [.init("name", .string("Porto"))], toOne: [])),
            .update(.init(entity: "Trip", id: 1, attributes: [.init("endDate", .data(Data([1])))], toOne: [])),
            .update(.init(entity: "BucketListItem", id: 2, attributes: [], toOne: [.init("trip", 1)])),
            .update(.init(entity: "Trip", id: 9, attributes: [.init("destination", .string("Faro"))], toOne: [])),
            .update(.init(entity: "Ghost", id: 1, attributes: [.init("destination", .string("Faro"))], toOne: [])),
        ]
        for event in declined {
            let bytes = EventCodec.encode(EventEnvelope(schemaNumber: 1, event: event))
            #expect(!bytes.withUnsafeBytes { projection.applyUpdate($0, sequence: 5) }, "\(event)")
        }
        let update = Event.update(
            .init(entity: "Trip", id: 1, attributes: [.init("destination", .string("Faro"))], toOne: [])
        )
        let bytes = EventCodec.encode(EventEnvelope(schemaNumber: 1, event: update))
        for length in 0..<bytes.count {
            #expect(!Array(bytes.prefix(length)).withUnsafeBytes { projection.applyUpdate($0, sequence: 5) })
        }
        #expect(InsertBytesTests.differences(before, projection) == [])
        #expect(projection.lastSequence == before.lastSequence)
        #expect(bytes.withUnsafeBytes { projection.applyUpdate($0, sequence: 5) })
        let trips = try #require(projection.table(named: "Trip"))
        let destination = try #require(projection.tables[trips].attributeIndex["destination"])
        let slot = try #require(projection.slot(trips, 1))
        #expect(projection.tables[trips].value(slot, destination) == .string("Faro"))
    }
}
