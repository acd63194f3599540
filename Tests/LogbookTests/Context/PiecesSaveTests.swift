import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// A large save of inserts is compressed on the appending thread while the saving thread
/// encodes it, into LZ4 pieces (format version 3); every other batch is stored whole.
struct PiecesSaveTests {
    /// Each batch of a store's log: its header, and the lengths of its pieces when it has some.
    static func batches(of store: TestStore) throws -> [(header: BatchHeader, pieces: [Int])] {
        var cursor = LogReader(directory: store.url.path).batches()
        var found: [(header: BatchHeader, pieces: [Int])] = []
        while let batch = try cursor.next() {
            guard batch.header.isInPieces else {
                found.append((batch.header, []))
                continue
            }
            let segment = URL(fileURLWithPath: batch.segment)
            let bytes = [UInt8](try Data(contentsOf: segment))
            var offset = Int(batch.offset) + LogFormat.headerSize
            let end = offset + Int(batch.header.storedLength)
            var pieces: [Int] = []
            while offset < end {
                let length = bytes[offset..<(offset + 4)].reversed().reduce(0) { $0 << 8 | Int($1) }
                pieces.append(length)
                offset += 4 + length
            }
            #expect(offset == end, "the pieces account for the stored bytes")
            found.append((batch.header, pieces))
        }
        return found
    }

    @Test func aLargeSaveIsStoredInPiecesAndReadsBackWhole() throws {
        let store = TestStore(.disk)
        do {
            let context = ModelContext(try store.container())
            for number in 0..<1_500 {
                let trip = makeTrip("Trip \(number)", destination: "Destination \(number % 40)", offset: Double(number))
                context.insert(trip)
                for item in 0..<5 { trip.bucketList?.append(makeItem("Item \(item) of trip \(number)")) }
            }
            try context.save()
            // An update alone: a small batch, stored whole.
            let first = try #require(
                try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Trip 0" })).first
            )
            first.destination = "Porto"
            try context.save()
        }
        store.close()

        let batches = try Self.batches(of: store)
        let large = try #require(batches.first { $0.header.eventCount > 1_000 })
        // Version 4: a save's batch begins with its transaction record, in pieces or not.
        #expect(large.header.version == 4)
        #expect(large.header.flags & LogFormat.flagTransaction != 0)
        #expect(large.header.isCompressed && large.header.isInPieces)
        #expect(large.header.uncompressedLength > 3 * UInt32(PayloadFeed.pieceBytes))
        #expect(large.pieces.count >= 3, "one piece per 64 KiB encoded, and the rest")
        #expect(large.header.storedLength < large.header.uncompressedLength / 2)
        let update = try #require(batches.last)
        #expect(update.header.version == 4 && !update.header.isInPieces)

        let reopened = try store.reopenedContext()
        #expect(try reopened.fetchCount(FetchDescriptor<Trip>()) == 1_500)
        #expect(try reopened.fetchCount(FetchDescriptor<BucketListItem>()) == 7_500)
        let trip = try #require(
            try reopened.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Trip 1234" })).first
        )
        #expect(trip.destination == "Destination 34")
        #expect(trip.startDate == baseDate + 1_234 * day)
        #expect(Set(trip.bucketList?.map(\.title) ?? []) == Set((0..<5).map { "Item \($0) of trip 1234" }))
        let updated = try reopened.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Trip 0" }))
        #expect(updated.map(\.destination) == ["Porto"])
    }
}
