import Foundation
import SampleTrips
import Testing

@testable import Logbook

/// `fetchHistory`: every save a transaction with its token, author, time and changes with values.
struct HistoryTests {
    private func ticketStore() -> TestStore { TestStore(.disk, models: [HistoryTicket.self]) }

    private func all(_ context: ModelContext) throws -> [DefaultHistoryTransaction] {
        try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
    }

    @Test func eachSaveIsATransactionWithItsTokenAuthorAndTimeAfterReopening() throws {
        let store = ticketStore()
        let before = Date()
        do {
            let context = ModelContext(try store.container())
            context.author = "alice"
            context.insert(HistoryTicket(code: "A1", seat: "1A", price: 10))
            try context.save()
            context.author = nil
            context.insert(HistoryTicket(code: "B2", seat: "2B", price: nil))
            try context.save()
            context.author = "bob"
            context.insert(HistoryTicket(code: "C3", seat: "3C", price: 30))
            try context.save()
        }
        let after = Date()
        let history = try all(try store.reopenedContext())
        #expect(history.count == 3)
        #expect(history.map(\.author) == ["alice", nil, "bob"])
        #expect(history.map(\.token) == history.map(\.token).sorted())
        #expect(Set(history.map(\.token)).count == 3)
        #expect(history.allSatisfy { $0.timestamp >= before.addingTimeInterval(-1) && $0.timestamp <= after })
        #expect(history.map(\.timestamp) == history.map(\.timestamp).sorted())
        #expect(history.allSatisfy { $0.storeIdentifier == store.url.path })
        #expect(history.allSatisfy { $0.transactionIdentifier == $0.token })
        // The first save also recorded the schema: its token is its last event, the insert.
        #expect(history[0].token.sequence == 2)
        #expect(history[1].token.sequence == 3)
    }

    @Test func insertsAndUpdatesCarryTheValuesTheyWrote() throws {
        let store = ticketStore()
        do {
            let context = ModelContext(try store.container())
            let ticket = HistoryTicket(code: "A1", seat: "1A", price: 10)
            context.insert(ticket)
            try context.save()
            ticket.seat = "12C"
            ticket.price = nil
            try context.save()
        }
        let history = try all(try store.reopenedContext())
        try #require(history.count == 2)
        let insert = try #require(
            history[0].changes.first.flatMap { change -> DefaultHistoryInsert<HistoryTicket>? in
                guard case .insert(let insert) = change else { return nil }
                return insert as? DefaultHistoryInsert<HistoryTicket>
            }
        )
        #expect(insert.value(for: \.code) == "A1")
        #expect(insert.value(for: \.price) == .some(10))
        #expect(history[1].changes.count == 1)
        guard case .update(let change) = try #require(history[1].changes.first),
            let update = change as? DefaultHistoryUpdate<HistoryTicket>
        else {
            Issue.record("the second save is an update of the ticket")
            return
        }
        #expect(update.changedPersistentIdentifier == insert.changedPersistentIdentifier)
        #expect(update.updatedAttributes == [\HistoryTicket.seat, \HistoryTicket.price])
        #expect(update.value(for: \.seat) == "12C")
        #expect(update.value(for: \.price) == .some(nil), "the update wrote nil")
        #expect(update.value(for: \.code) == nil, "the update left the code alone")
        #expect(update.transactionIdentifier == history[1].token)
    }

    @Test func aDeleteCarriesATombstoneWithThePreservedValuesOnly() throws {
        let store = ticketStore()
        do {
            let context = ModelContext(try store.container())
            let ticket = HistoryTicket(code: "A1", seat: "1A", price: 10)
            context.insert(ticket)
            try context.save()
            context.delete(ticket)
            try context.save()
        }
        let history = try all(try store.reopenedContext())
        try #require(history.count == 2)
        guard case .delete(let change) = try #require(history[1].changes.first),
            let delete = change as? DefaultHistoryDelete<HistoryTicket>
        else {
            Issue.record("the second save is a delete")
            return
        }
        #expect(delete.tombstone[\.code] == "A1")
        #expect(delete.tombstone[\.seat] == nil, "seat is not preserved on deletion")
        #expect(!delete.tombstone.isEmpty)
        #expect(history[1].changes.first?.changedPersistentIdentifier.entityName == "HistoryTicket")
    }

    @Test func anInsertWithItsRelationshipsIsOneChangePerObject() throws {
        let store = TestStore(.disk)
        do {
            let context = ModelContext(try store.container())
            let trip = makeTrip("Porto", destination: "Porto")
            context.insert(trip)
            trip.bucketList?.append(makeItem("Ribeira"))
            trip.livingAccommodation = LivingAccommodation(address: "Rua 1", placeName: "Casa")
            try context.save()
            trip.destination = "Gaia"
            try context.save()
        }
        let history = try all(try store.reopenedContext())
        try #require(history.count == 2)
        let kinds = history[0].changes.map { change -> String in
            switch change {
            case .insert: "insert \(change.changedPersistentIdentifier.entityName)"
            case .update: "update"
            case .delete: "delete"
            }
        }
        #expect(kinds.sorted() == ["insert BucketListItem", "insert LivingAccommodation", "insert Trip"])
        let update = try #require(
            history[1].changes.first.flatMap { change -> DefaultHistoryUpdate<Trip>? in
                guard case .update(let update) = change else { return nil }
                return update as? DefaultHistoryUpdate<Trip>
            }
        )
        #expect(update.value(for: \.destination) == "Gaia")
        #expect(update.updatedAttributes == [\Trip.destination])
    }

    @Test func updatesCarryTheObjectsTheirRelationshipsWereSetToGainedAndLost() throws {
        let store = TestStore(.disk, models: [HistoryPlaylist.self, HistorySong.self])
        let list: PersistentIdentifier
        let songs: [PersistentIdentifier]
        do {
            let context = ModelContext(try store.container())
            let playlist = HistoryPlaylist(name: "Road")
            let made = ["One", "Two", "Three"].map { HistorySong(title: $0) }
            context.insert(playlist)
            playlist.songs = [made[0], made[1]]
            try context.save()
            // One save drops a song, adds another and sets the opener.
            playlist.songs = [made[1], made[2]]
            playlist.opener = made[2]
            try context.save()
            playlist.opener = nil
            try context.save()
            list = playlist.persistentModelID
            songs = made.map(\.persistentModelID)
        }
        let history = try all(try store.reopenedContext())
        try #require(history.count == 3)
        func update(in transaction: Int) -> DefaultHistoryUpdate<HistoryPlaylist>? {
            for change in history[transaction].changes {
                if case .update(let update) = change, update.changedPersistentIdentifier == list {
                    return update as? DefaultHistoryUpdate<HistoryPlaylist>
                }
            }
            return nil
        }
        let changed = try #require(update(in: 1))
        #expect(changed.addedIdentifiers(for: \.songs) == [songs[2]])
        #expect(changed.removedIdentifiers(for: \.songs) == [songs[0]])
        #expect(changed.addedIdentifiers(for: \.songs).first?.entityName == "HistorySong")
        #expect(changed.relatedIdentifier(for: \.opener) == .some(.some(songs[2])))
        #expect(changed.updatedAttributes == [\HistoryPlaylist.songs, \HistoryPlaylist.opener])
        let cleared = try #require(update(in: 2))
        #expect(cleared.relatedIdentifier(for: \.opener) == .some(.none), "set to nil")
        #expect(cleared.addedIdentifiers(for: \.songs).isEmpty)
        #expect(cleared.removedIdentifiers(for: \.songs).isEmpty)
    }

    @Test func aMoveBetweenOneToManyOwnersIsTheUpdateOfTheToOneSide() throws {
        let store = TestStore(.disk)
        let ids: (lisbon: PersistentIdentifier, moved: PersistentIdentifier)
        do {
            let context = ModelContext(try store.container())
            let porto = makeTrip("Porto", destination: "Porto")
            let lisbon = makeTrip("Lisbon")
            let moved = makeItem("Tram 28")
            context.insert(porto)
            context.insert(lisbon)
            porto.bucketList?.append(moved)
            try context.save()
            lisbon.bucketList?.append(moved)
            try context.save()
            ids = (lisbon.persistentModelID, moved.persistentModelID)
        }
        let history = try all(try store.reopenedContext())
        try #require(history.count == 2)
        // The log records the item's to-one side; the trips' lists follow from it.
        #expect(history[1].changes.map(\.changedPersistentIdentifier) == [ids.moved])
        let update = try #require(
            history[1].changes.first.flatMap { change -> DefaultHistoryUpdate<BucketListItem>? in
                guard case .update(let update) = change else { return nil }
                return update as? DefaultHistoryUpdate<BucketListItem>
            }
        )
        #expect(update.relatedIdentifier(for: \.trip) == .some(.some(ids.lisbon)))
    }

    @Test func aPredicateSortAndLimitSelectTransactions() throws {
        let store = ticketStore()
        let context = ModelContext(try store.container())
        for (index, author) in ["a", "b", "a", "b", "a"].enumerated() {
            context.author = author
            context.insert(HistoryTicket(code: "T\(index)", seat: "S", price: nil))
            try context.save()
        }
        let byA = try context.fetchHistory(
            HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.author == "a" })
        )
        #expect(byA.count == 3)
        let second = try all(context)[1].token
        let after = try context.fetchHistory(
            HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > second })
        )
        #expect(after.map(\.author) == ["a", "b", "a"])
        var newestTwo = HistoryDescriptor<DefaultHistoryTransaction>(sortBy: [SortDescriptor(\.token, order: .reverse)])
        newestTwo.fetchLimit = 2
        let newest = try context.fetchHistory(newestTwo)
        #expect(newest.count == 2)
        #expect(newest[0].token > newest[1].token)
        var firstTwo = HistoryDescriptor<DefaultHistoryTransaction>()
        firstTwo.fetchLimit = 2
        #expect(try context.fetchHistory(firstTwo).map(\.author) == ["a", "b"])
    }

    @Test func aPredicateOnTheChangesIsRefusedNamingThem() throws {
        let store = ticketStore()
        let context = ModelContext(try store.container())
        context.insert(HistoryTicket(code: "A", seat: "S", price: nil))
        try context.save()
        let descriptor = HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.changes.isEmpty })
        #expect {
            try context.fetchHistory(descriptor)
        } throws: { error in
            guard let error = error as? LogbookError else { return false }
            return error.code == .invalidArgument && error.message.contains("not its changes")
                && error.path == store.url.path
        }
    }

    @Test func anInMemoryStoreKeepsNoHistory() throws {
        let context = ModelContext(try TestStore(.memory, models: [HistoryTicket.self]).container())
        #expect {
            try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        } throws: { error in
            (error as? LogbookError)?.code == .invalidArgument
                && (error as? LogbookError)?.message.contains("in-memory store keeps no history") == true
        }
    }

    @Test func eventsOfAnOlderSchemaAreReadUnderTheNewNames() throws {
        let directory = TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.child("v1.store"))
        do {
            let container = try ModelContainer(
                for: SampleTripsSchemaV1.Trip.self,
                configurations: ModelConfiguration(url: url)
            )
            try SampleData.insertV1(SampleData.demoTrips, into: ModelContext(container), tripsPerSave: .max)
        }
        let container = try ModelContainer(
            for: Trip.self,
            migrationPlan: SampleTripsMigrationPlan.self,
            configurations: ModelConfiguration(url: url)
        )
        let history = try ModelContext(container).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        let inserts = try #require(history.first).changes.compactMap { change -> DefaultHistoryInsert<Trip>? in
            guard case .insert(let insert) = change else { return nil }
            return insert as? DefaultHistoryInsert<Trip>
        }
        #expect(inserts.count == SampleData.demoTrips.count)
        // V1 wrote `start_date`; V3 calls it `startDate`.
        #expect(inserts.allSatisfy { $0.value(for: \.startDate) != nil })
        #expect(Set(inserts.compactMap { $0.value(for: \.name) }).contains("Summer in Lisbon"))
    }
}
