import Foundation
import Synchronization
import Testing

@testable import Logbook

/// `container.changes(after:)`: every save once, in order, resumable; and the save notifications.
struct ChangeFeedTests {
    private func save(_ code: String, author: String? = nil, in container: ModelContainer) throws {
        let context = ModelContext(container)
        context.author = author
        context.insert(HistoryTicket(code: code, seat: "S", price: nil))
        try context.save()
    }

    private func codes(_ transaction: DefaultHistoryTransaction) -> [String] {
        transaction.changes.compactMap { change in
            guard case .insert(let insert) = change else { return nil }
            return (insert as? DefaultHistoryInsert<HistoryTicket>)?.value(for: \.code)
        }
    }

    @Test func theFeedDeliversEverySaveOnceInOrderAndWakesOnANewSave() async throws {
        let store = TestStore(.disk, models: [HistoryTicket.self])
        let container = try store.container()
        try save("one", in: container)
        try save("two", in: container)
        var iterator = container.changes(after: nil).makeAsyncIterator()
        let first = try #require(try await iterator.next())
        let second = try #require(try await iterator.next())
        #expect(codes(first) == ["one"])
        #expect(codes(second) == ["two"])
        // The feed waits at the end of the log until a save of another task wakes it.
        let writer = Task {
            try await Task.sleep(for: .milliseconds(50))
            try save("three", author: "later", in: container)
        }
        let third = try #require(try await iterator.next())
        try await writer.value
        #expect(codes(third) == ["three"])
        #expect(third.author == "later")
        #expect([first.token, second.token, third.token] == [first.token, second.token, third.token].sorted())

        // Resumed from the first token: the second and third, and nothing twice.
        var resumed = container.changes(after: first.token).makeAsyncIterator()
        #expect(try await resumed.next()?.token == second.token)
        #expect(try await resumed.next()?.token == third.token)
    }

    @Test func manySavesWhileFollowingAreDeliveredWithoutGapsOrRepeats() async throws {
        let store = TestStore(.disk, models: [HistoryTicket.self])
        let container = try store.container()
        let writer = Task {
            for index in 0..<40 { try save("t\(index)", in: container) }
        }
        var seen: [String] = []
        var tokens: [DefaultHistoryToken] = []
        for try await transaction in container.changes(after: nil) {
            seen += codes(transaction)
            tokens.append(transaction.token)
            if seen.count == 40 { break }
        }
        try await writer.value
        #expect(seen == (0..<40).map { "t\($0)" })
        #expect(tokens == tokens.sorted() && Set(tokens).count == tokens.count)
    }

    @Test func aTokenPastTheEndIsRefusedNamingIt() async throws {
        let store = TestStore(.disk, models: [HistoryTicket.self])
        let container = try store.container()
        try save("one", in: container)
        var iterator = container.changes(after: DefaultHistoryToken(sequence: 999)).makeAsyncIterator()
        await #expect {
            _ = try await iterator.next()
        } throws: { error in
            guard let error = error as? LogbookError else { return false }
            return error.code == .invalidArgument && error.message.contains("history token 999 is past the end")
                && error.path == store.url.path
        }
    }

    @Test func aCancelledFollowerEnds() async throws {
        let store = TestStore(.disk, models: [HistoryTicket.self])
        let container = try store.container()
        try save("one", in: container)
        let follower = Task {
            var count = 0
            for try await _ in container.changes(after: nil) { count += 1 }
            return count
        }
        try await Task.sleep(for: .milliseconds(100))
        follower.cancel()
        #expect(try await follower.value == 1)
    }

    @Test func willSaveAndDidSaveArePostedWithTheIdentifiers() throws {
        let store = TestStore(.memory, models: [HistoryTicket.self])
        let context = ModelContext(try store.container())
        let kept = HistoryTicket(code: "K", seat: "1", price: nil)
        let gone = HistoryTicket(code: "G", seat: "2", price: nil)
        context.insert(kept)
        context.insert(gone)
        try context.save()
        let received = Mutex<[(Notification.Name, [String: [PersistentIdentifier]])]>([])
        let observers = [ModelContext.willSave, ModelContext.didSave].map { name in
            NotificationCenter.default.addObserver(forName: name, object: context, queue: nil) { note in
                let info = (note.userInfo as? [String: [PersistentIdentifier]]) ?? [:]
                received.withLock { $0.append((note.name, info)) }
            }
        }
        defer { observers.forEach(NotificationCenter.default.removeObserver) }
        let added = HistoryTicket(code: "N", seat: "3", price: nil)
        context.insert(added)
        kept.seat = "9"
        let goneID = gone.persistentModelID
        context.delete(gone)
        try context.save()
        let notes = received.withLock { $0 }
        try #require(notes.count == 2)
        #expect(notes[0].0 == ModelContext.willSave)
        #expect(notes[0].1.isEmpty)
        #expect(notes[1].0 == ModelContext.didSave)
        let info = notes[1].1
        #expect(info[ModelContext.NotificationKey.insertedIdentifiers.rawValue] == [added.persistentModelID])
        #expect(info[ModelContext.NotificationKey.updatedIdentifiers.rawValue] == [kept.persistentModelID])
        #expect(info[ModelContext.NotificationKey.deletedIdentifiers.rawValue] == [goneID])
    }
}
