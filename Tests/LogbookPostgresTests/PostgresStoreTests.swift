import Foundation
import Logbook
import LogbookPostgres
import SampleTrips
import Testing

/// A store kept in PostgreSQL, from one container: what a save writes to the tables, and what
/// another container reads back.
struct PostgresStoreTests {
    private func trips(_ context: ModelContext) throws -> [Trip] {
        try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
    }

    @Test func savedTripsReadBackInAContainerOpenedAfterwards() throws {
        let store = TestServer.uniqueStore()
        do {
            let context = ModelContext(try host(store))
            let paris = Trip(
                name: "Paris",
                destination: "France",
                startDate: Date(timeIntervalSince1970: 1000),
                endDate: Date(timeIntervalSince1970: 2000)
            )
            paris.bucketList = [
                BucketListItem(title: "Louvre", details: "Mona Lisa", hasReservation: true, isInPlan: true),
                BucketListItem(title: "Seine", details: "A boat", hasReservation: false, isInPlan: true),
            ]
            paris.livingAccommodation = LivingAccommodation(address: "1 Rue", placeName: "Hotel")
            context.insert(paris)
            context.insert(
                Trip(
                    name: "Oslo",
                    destination: "Norway",
                    startDate: Date(timeIntervalSince1970: 3000),
                    endDate: Date(timeIntervalSince1970: 4000)
                )
            )
            try context.save()
            let oslo = try #require(try trips(context).first)
            oslo.destination = "Norge"
            try context.save()
        }
        // Another container, with a new copy of the rows: what it reads came from the server.
        let context = ModelContext(try host(store))
        let read = try trips(context)
        #expect(read.map(\.name) == ["Oslo", "Paris"])
        #expect(read.map(\.destination) == ["Norge", "France"])
        #expect(read[1].startDate == Date(timeIntervalSince1970: 1000))
        #expect(Set(read[1].bucketList?.map(\.title) ?? []) == ["Louvre", "Seine"])
        #expect(read[1].livingAccommodation?.placeName == "Hotel")
        #expect(try context.fetchCount(FetchDescriptor<BucketListItem>()) == 2)
    }

    @Test func eachSaveIsOneRowHoldingTheBatchAsTheLogEncodesIt() async throws {
        let store = TestServer.uniqueStore()
        let container = try host(store)
        let context = ModelContext(container)
        for name in ["A", "B", "C"] {
            context.insert(Trip(name: name, destination: "X", startDate: Date(), endDate: Date()))
            try context.save()
        }
        let rows = try await TestServer.rows(of: store)
        #expect(rows.count == 3)
        // Numbered with no gaps: each row starts after the one before.
        #expect(rows.first?.first == 1)
        for (earlier, later) in zip(rows, rows.dropFirst()) { #expect(later.first == earlier.last + 1) }
        // Each frame is a whole batch whose header and checksum hold.
        for row in rows {
            let header = try #require(row.frame.withUnsafeBytes { BatchHeader.read(from: $0) })
            #expect(Int64(header.firstSequence) == row.first)
            #expect(Int64(header.lastSequence) == row.last)
            #expect(header.frameSize == row.frame.count)
            // The header is 32 bytes, as in a segment file.
            #expect(row.frame.count - Int(header.storedLength) == 32)
            let checksum = row.frame.withUnsafeBytes { bytes in
                BatchHeader.checksum(
                    header: UnsafeRawBufferPointer(rebasing: bytes[..<32]),
                    payload: UnsafeRawBufferPointer(rebasing: bytes[32...])
                )
            }
            #expect(checksum == header.checksum)
        }
    }

    @Test func historyListsEverySaveWithItsAuthor() throws {
        let store = TestServer.uniqueStore()
        do {
            let context = ModelContext(try host(store))
            context.author = "alice"
            context.insert(Trip(name: "Rome", destination: "Italy", startDate: Date(), endDate: Date()))
            try context.save()
            context.author = "bob"
            try #require(try trips(context).first).destination = "Lazio"
            try context.save()
        }
        let context = ModelContext(try host(store))
        let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(history.map(\.author) == ["alice", "bob"])
        #expect(history.map(\.token) == history.map(\.token).sorted())
    }

    @Test func deletingTheHistoryOfASharedStoreIsRefusedAndKeepsEveryRow() async throws {
        let store = TestServer.uniqueStore()
        let context = ModelContext(try host(store))
        for name in ["A", "B"] {
            context.insert(Trip(name: name, destination: "X", startDate: Date(), endDate: Date()))
            try context.save()
        }
        let error = try #require(throws: LogbookError.self) {
            try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        }
        #expect(error.code == .unsupported)
        #expect(error.message.contains("store '\(store)'"))
        #expect(error.message.hasSuffix("is the shared log of its hosts and cannot be deleted"))
        #expect(try await TestServer.rows(of: store).count == 2)
        let reopened = ModelContext(try host(store))
        #expect(try reopened.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).count == 2)
        #expect(try trips(reopened).map(\.name) == ["A", "B"])
    }

    @Test func aStoreWhoseTablesANewerFormatWroteIsRefusedNamingTheVersions() async throws {
        let store = TestServer.uniqueStore()
        do {
            let context = ModelContext(try host(store))
            context.insert(Trip(name: "Lima", destination: "Peru", startDate: Date(), endDate: Date()))
            try context.save()
        }
        try await TestServer.withClient { client in
            try await client.query("UPDATE logbook_stores SET format_version = 2 WHERE store = \(store)")
        }
        let error = try #require(throws: LogbookError.self) { try host(store) }
        #expect(error.code == .unsupportedFormat)
        #expect(error.message.contains("format version 2"))
        #expect(error.message.contains("format version 1 and earlier"))
        #expect(error.path?.contains(store) == true)
        // Left as it was: back at version 1 it opens with its trip.
        try await TestServer.withClient { client in
            try await client.query("UPDATE logbook_stores SET format_version = 1 WHERE store = \(store)")
        }
        let context = ModelContext(try host(store))
        #expect(try trips(context).map(\.name) == ["Lima"])
    }

    @Test func aDamagedRowIsReportedAsCorruptionNamingTheStoreAndSequence() async throws {
        let store = TestServer.uniqueStore()
        do {
            let context = ModelContext(try host(store))
            context.insert(Trip(name: "Kyiv", destination: "Ukraine", startDate: Date(), endDate: Date()))
            try context.save()
        }
        // One bit of the payload flipped, behind the store's back.
        try await TestServer.withClient { client in
            try await client.query(
                "UPDATE logbook_batches SET frame = set_byte(frame, length(frame) - 1, get_byte(frame, length(frame) - 1) # 1) WHERE store = \(store)"
            )
        }
        let error = try #require(throws: LogbookError.self) { try host(store) }
        #expect(error.code == .corruption)
        #expect(error.message.contains("checksum"))
        #expect(error.sequence == 1)
        #expect(error.path?.contains(store) == true)
    }
}
