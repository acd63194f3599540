import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// Replaying an insert straight from its bytes (``Projection/applyInsert(_:)``) gives exactly
/// what decoding it and applying the event gives, whatever the log holds.
struct InsertBytesTests {
    /// Random events over SampleTrips V3: trips whose names repeat (upserts), some written with
    /// the V1 name `start_date` or with an attribute the schema no longer has, some with a value
    /// the shortcut declines; items and accommodations pointing at earlier identifiers, at
    /// unknown ones or at none; re-inserted identifiers, an unknown entity, identifier 0;
    /// updates, deletes and links in between.
    private static func events(seed: UInt64, count: Int) -> [Event] {
        var random = SeededGenerator(seed: seed)
        var events: [Event] = []
        var next: UInt64 = 1
        func earlier() -> UInt64 { UInt64.random(in: 0...(next + 2), using: &random) }
        for _ in 0..<count {
            let id: UInt64 = Int.random(in: 0..<20, using: &random) == 0 ? earlier() : next
            next += 1
            switch Int.random(in: 0..<14, using: &random) {
            case 0..<4:
                var fields: [Event.Field] = [
                    .init("name", .string("Trip \(Int.random(in: 0..<40, using: &random))")),
                    .init("destination", .string("Lisbon and a long way beyond \(id)")),
                ]
                switch Int.random(in: 0..<4, using: &random) {
                case 0: fields.append(.init("start_date", .date(Date(timeIntervalSinceReferenceDate: Double(id)))))
                case 1: fields.append(.init("retired", .int(7)))
                case 2: fields.append(.init("endDate", .data(Data([1, 2, 3]))))
                default: fields.append(.init("startDate", .date(Date(timeIntervalSinceReferenceDate: 1))))
                }
                events.append(
                    .insert(.init(entity: "Trip", id: id, attributes: fields.shuffled(using: &random), toOne: []))
                )
            case 4..<8:
                let target: UInt64? = Bool.random(using: &random) ? earlier() : nil
                events.append(
                    .insert(
                        .init(
                            entity: "BucketListItem",
                            id: id,
                            attributes: [
                                .init("title", .string("item \(id)")),
                                .init("hasReservation", .bool(Bool.random(using: &random))),
                                .init("isInPlan", .null),
                            ],
                            toOne: [.init("trip", target)]
                        )
                    )
                )
            case 8..<10:
                events.append(
                    .insert(
                        .init(
                            entity: "LivingAccommodation",
                            id: id,
                            attributes: [.init("address", .string("\(id) Rua Augusta")), .init("placeName", .null)],
                            toOne: [.init("trip", earlier())]
                        )
                    )
                )
            case 10:
                events.append(
                    .insert(.init(entity: "Ghost", id: id, attributes: [.init("name", .string("boo"))], toOne: []))
                )
            case 11:
                events.append(
                    .update(
                        .init(
                            entity: "Trip",
                            id: earlier(),
                            attributes: [.init("name", .string("Trip \(Int.random(in: 0..<40, using: &random))"))],
                            toOne: []
                        )
                    )
                )
            case 12:
                events.append(.delete(entity: Bool.random(using: &random) ? "Trip" : "BucketListItem", id: earlier()))
            default:
                events.append(
                    .link(
                        .init(
                            entity: "Trip",
                            id: earlier(),
                            relationship: "bucketList",
                            targets: [earlier(), earlier()]
                        )
                    )
                )
            }
        }
        return events
    }

    /// What differs between two projections, briefly; empty when they are the same.
    static func differences(_ left: Projection, _ right: Projection) -> [String] {
        var found: [String] = []
        if left.aliases != right.aliases { found.append("aliases") }
        if left.foldCounts != right.foldCounts { found.append("fold counts \(left.foldCounts) \(right.foldCounts)") }
        if left.nextIdentifier != right.nextIdentifier { found.append("next identifier") }
        for (index, table) in left.tables.enumerated() {
            let other = right.tables[index]
            let (rows, otherRows) = (table.rowsByIdentifier, other.rowsByIdentifier)
            if let id = Set(rows.keys).union(otherRows.keys).sorted().first(where: { rows[$0] != otherRows[$0] }) {
                found.append(
                    "\(table.entity.name) \(id): \(String(describing: rows[id])) against \(String(describing: otherRows[id]))"
                )
            }
            if table.uniqueIndexContents != other.uniqueIndexContents {
                found.append("\(table.entity.name) unique index")
            }
        }
        return found
    }

    private static func expectSame(_ left: Projection, _ right: Projection) {
        #expect(differences(left, right) == [])
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func theShortcutAndTheDecodedEventAgree(seed: UInt64) throws {
        let schema = Schema(versionedSchema: SampleTripsSchemaV3.self)
        var decoded = Projection(schema: schema)
        var shortcut = Projection(schema: schema)
        var taken = 0
        let events = Self.events(seed: seed, count: 3_000)
        for (position, event) in events.enumerated() {
            let bytes = EventCodec.encode(EventEnvelope(schemaNumber: 1, event: event))
            try decoded.apply(try EventCodec.decode(bytes).event)
            if bytes.withUnsafeBytes({ shortcut.applyInsert($0) }) {
                taken += 1
            } else {
                try shortcut.apply(try EventCodec.decode(bytes).event)
            }
            // Compared every 100 events, so that a difference is found near where it arose.
            guard position % 100 == 99 || position == events.count - 1 else { continue }
            let differences = Self.differences(decoded, shortcut)
            guard differences.isEmpty else {
                Issue.record("by event \(position), \(event): \(differences)")
                return
            }
        }
        #expect(taken > events.count / 3, "the shortcut took \(taken) of \(events.count) events")
        #expect(decoded.foldCounts[0] + decoded.foldCounts[1] + decoded.foldCounts[2] > 0, "upserts happened")
        Self.expectSame(decoded, shortcut)
    }

    /// The log of `count` random events in batches of 97, over several segments, and the
    /// projection of applying every event decoded.
    private static func logAndProjection(
        seed: UInt64,
        count: Int,
        in directory: TemporaryDirectory
    ) throws -> Projection {
        let schema = Schema(versionedSchema: SampleTripsSchemaV3.self)
        let events = Self.events(seed: seed, count: count)
        let log = try EventLog(directory: directory.path, configuration: testConfiguration(segmentSize: 8 << 10))
        var decoded = Projection(schema: schema)
        for start in stride(from: 0, to: events.count, by: 97) {
            let batch = events[start..<min(start + 97, events.count)].map {
                EventCodec.encode(EventEnvelope(schemaNumber: 1, event: $0))
            }
            _ = try log.append(batch)
            for bytes in batch { try decoded.apply(try EventCodec.decode(bytes).event) }
        }
        log.close()
        #expect(try segmentPaths(directory.path).count > 1)
        return decoded
    }

    /// A replay decodes the inserts it can on the thread that reads the batches
    /// (``InsertPredecoder``) and applies the rest in order: the same projection as decoding and
    /// applying every event. The predecoder hashes each trip's unique name for the index, as the
    /// index itself would hash the value the slot ends up with, and nothing else.
    ///
    /// With `yielding`, the predecoder stops whenever the replaying thread waits for its batch,
    /// which then decodes the rest itself: how far each batch got depends on the threads' pace,
    /// and the projection must not.
    @Test(arguments: [(7, false), (8, false), (9, false), (10, true), (11, true), (12, true)] as [(UInt64, Bool)])
    func aReplayThatDecodesInsertsAheadAgreesWithTheDecodedEvents(seed: UInt64, yielding: Bool) throws {
        let directory = TemporaryDirectory()
        let count = 3_000
        let decoded = try Self.logAndProjection(seed: seed, count: count, in: directory)

        var replayed = Projection(schema: Schema(versionedSchema: SampleTripsSchemaV3.self))
        let trips = try #require(replayed.table(named: "Trip"))
        let name = try #require(replayed.tables[trips].attributeIndex["name"])
        var ahead = 0
        var hashed = 0
        var wrongHashes: [String] = []
        try EventStream.forEach(
            LogReader(directory: directory.path),
            predecoder: InsertPredecoder(replayed),
            yieldingToTheReplay: yielding,
            predecoded: { sequence, inserts, index in
                ahead += 1
                let head = inserts.heads[index]
                let names = head.attributes.filter { inserts.attributeIndexes[$0] == name }.map { inserts.values[$0] }
                let expected =
                    head.table == trips ? names.last.flatMap { $0 == .null ? nil : UniqueIndex.hash($0) } : nil
                if inserts.uniqueHash(at: index) != expected { wrongHashes.append("event \(sequence)") }
                if expected != nil { hashed += 1 }
                return replayed.applyInsert(inserts, at: index, sequence: sequence, takingValues: true) != nil
            },
            shortcut: { replayed.applyInsert($1, sequence: $0) },
            { sequence, envelope in
                try replayed.apply(envelope.event)
                replayed.lastSequence = sequence
            }
        )
        if !yielding {
            #expect(ahead > count / 3, "decoded ahead \(ahead) of \(count) events")
            #expect(hashed > 100, "hashed \(hashed) trips' names")
        }
        #expect(wrongHashes.isEmpty, "\(wrongHashes.prefix(5))")
        #expect(replayed.lastSequence == UInt64(count))
        Self.expectSame(decoded, replayed)
    }

    /// A predecoder told to stop part way through a batch leaves the events after that point to
    /// the replay, which decodes them in order: the same projection.
    @Test(arguments: [0, 1, 2, 5])
    func aBatchPredecodedPartWayReplaysAsAWholeOne(looks: Int) throws {
        let directory = TemporaryDirectory()
        let count = 900
        let schema = Schema(versionedSchema: SampleTripsSchemaV3.self)
        let events = Self.events(seed: 13, count: count).map {
            EventCodec.encode(EventEnvelope(schemaNumber: 1, event: $0))
        }
        let log = try EventLog(directory: directory.path, configuration: testConfiguration())
        _ = try log.append(events)
        log.close()
        var decoded = Projection(schema: schema)
        for bytes in events { try decoded.apply(try EventCodec.decode(bytes).event) }

        var cursor = LogReader(directory: directory.path).batches()
        let batch = try #require(try cursor.next())
        #expect(batch.count == count)
        var replayed = Projection(schema: schema)
        var asked = 0
        let predecoded = InsertPredecoder(replayed).predecode(batch) {
            asked += 1
            return asked > looks
        }
        let stop = looks * InsertPredecoder.eventsBetweenLooks
        #expect(asked == looks + 1)
        #expect(predecoded.positions[stop...].allSatisfy { $0 == -1 })
        #expect(predecoded.positions[..<stop].filter { $0 >= 0 }.count == predecoded.inserts.heads.count)
        if looks > 0 { #expect(predecoded.inserts.heads.count > stop / 3) }
        for index in 0..<batch.count {
            let sequence = batch.firstSequence + UInt64(index)
            let position = predecoded.positions[index]
            if position >= 0,
                replayed.applyInsert(predecoded.inserts, at: position, sequence: sequence, takingValues: true) != nil
            {
                continue
            }
            try replayed.apply(try EventCodec.decode(batch.event(at: index)).event)
            replayed.lastSequence = sequence
        }
        Self.expectSame(decoded, replayed)
    }

    /// A replay, and a save once its batch is encoded, move the values out of the recorded
    /// inserts, which are dropped after; applying without taking them leaves them there.
    @Test(arguments: [true, false])
    func aReplayTakesTheRecordedValuesAndASaveLeavesThem(takingValues: Bool) throws {
        var projection = Projection(schema: Schema(versionedSchema: SampleTripsSchemaV3.self))
        let trips = try #require(projection.table(named: "Trip"))
        let name = try #require(projection.tables[trips].attributeIndex["name"])
        let text = "Lisbon in spring, a name longer than fifteen bytes"
        let inserts = DirectInserts()
        inserts.begin(table: trips, id: 7)
        inserts.attribute(name, .string(text))
        inserts.end()

        #expect(projection.applyInsert(inserts, at: 0, sequence: 1, takingValues: takingValues) == 7)

        #expect(projection.row(trips, 7)?.values[name] == .string(text), "the projection holds the value")
        #expect(inserts.values[0] == (takingValues ? .null : .string(text)))
    }

    @Test func aDeclinedInsertLeavesTheProjectionAsItWas() throws {
        var projection = Projection(schema: Schema(versionedSchema: SampleTripsSchemaV3.self))
        let first = Event.insert(
            .init(entity: "Trip", id: 1, attributes: [.init("name", .string("Lisbon"))], toOne: [])
        )
        #expect(
            EventCodec.encode(EventEnvelope(schemaNumber: 1, event: first)).withUnsafeBytes {
                projection.applyInsert($0)
            }
        )
        let before = projection
        // A value the shortcut does not read (bytes), an unknown entity, an update, identifier 0.
        let declined: [Event] = [
            .insert(.init(entity: "Trip", id: 2, attributes: [.init("destination", .data(Data([9])))], toOne: [])),
            .insert(.init(entity: "Ghost", id: 3, attributes: [], toOne: [])),
            .update(.init(entity: "Trip", id: 1, attributes: [.init("name", .string("Kyoto"))], toOne: [])),
            .insert(.init(entity: "Trip", id: 0, attributes: [.init("name", .string("Oslo"))], toOne: [])),
        ]
        for event in declined {
            let bytes = EventCodec.encode(EventEnvelope(schemaNumber: 1, event: event))
            #expect(!bytes.withUnsafeBytes { projection.applyInsert($0) }, "\(event)")
        }
        Self.expectSame(before, projection)
        // Truncated inside its attribute values: declined too, for the full decode to report.
        let cut = EventCodec.encode(
            EventEnvelope(
                schemaNumber: 1,
                event: .insert(.init(entity: "Trip", id: 4, attributes: [.init("name", .string("Porto"))], toOne: []))
            )
        ).dropLast(3)
        #expect(!Array(cut).withUnsafeBytes { projection.applyInsert($0) })
        #expect(throws: LogbookError.self) { try EventCodec.decode(cut) }
        Self.expectSame(before, projection)
    }

    @Test func stringsOfEveryLengthAreCheckedForUTF8WhereverTheirOddByteIs() throws {
        let schema = Schema(versionedSchema: SampleTripsSchemaV3.self)
        var projection = Projection(schema: schema)
        let trips = try #require(projection.tables.firstIndex { $0.entity.name == "Trip" })
        let nameAttribute = try #require(projection.tables[trips].entity.attributes.firstIndex { $0.name == "name" })
        var id: UInt64 = 1
        func encoded(_ name: String) -> [UInt8] {
            EventCodec.encode(
                EventEnvelope(
                    schemaNumber: 1,
                    event: .insert(.init(entity: "Trip", id: id, attributes: [.init("name", .string(name))], toOne: []))
                )
            )
        }
        for length in 0...24 {
            for position in 0..<max(length, 1) {
                // ASCII, and a two-byte character at `position`: taken, and read back as written.
                var characters = Array(repeating: Character("a"), count: length)
                if length > 0 { characters[position] = "à" }
                for name in [String(repeating: "b", count: length), String(characters)] {
                    id += 1
                    #expect(encoded(name).withUnsafeBytes { projection.applyInsert($0) }, "\(name)")
                    // Equal names fold into the first trip that had the name: read the survivor.
                    let stored = projection.row(trips, id)?.values[nameAttribute]
                    #expect(stored == .string(name), "\(name)")
                }
                guard length > 0 else { continue }
                // A byte that is not UTF-8 at `position`: declined, for the full decode to report.
                id += 1
                let placeholder = String(repeating: "z", count: length)
                var bytes = encoded(placeholder)
                let start = try #require(
                    (0...(bytes.count - length)).first { bytes[$0..<($0 + length)].elementsEqual(placeholder.utf8) }
                )
                bytes[start + position] = 0xFF
                let before = projection
                #expect(!bytes.withUnsafeBytes { projection.applyInsert($0) }, "length \(length), byte \(position)")
                #expect(throws: LogbookError.self) { try EventCodec.decode(bytes) }
                Self.expectSame(before, projection)
            }
        }
    }

    @Test func namesAreComparedByteForByte() {
        let cases: [(String, [UInt8], Bool)] = [
            ("", [], true),
            ("", Array("a".utf8), false),
            ("name", Array("name".utf8), true),
            ("name", Array("names".utf8), false),
            ("name", Array("nam".utf8), false),
            ("namE", Array("name".utf8), false),
            ("startDat", Array("startDat".utf8), true),
            ("startDat", Array("startDay".utf8), false),
            ("startDate", Array("startDate".utf8), true),
            ("startDate", Array("startDatf".utf8), false),
            ("startDate", Array("xtartDate".utf8), false),
            ("a\u{0}", Array("a".utf8) + [0], true),
            ("a\u{0}", Array("a".utf8), false),
            ("Lisboa à noite", Array("Lisboa à noite".utf8), true),
            ("Lisboa à noite", Array("Lisboa a noite".utf8), false),
            (String(repeating: "long name ", count: 10), Array(String(repeating: "long name ", count: 10).utf8), true),
        ]
        for (string, bytes, expected) in cases {
            #expect(bytes.withUnsafeBytes { NameBytes(string).matches($0) } == expected, "\(string)")
        }
    }
}
