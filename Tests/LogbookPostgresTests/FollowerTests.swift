import Foundation
import Logbook
import LogbookPostgres
import SampleTrips
import Testing

/// Containers that follow the saves of another host: woken by the server's notifications,
/// their change feeds and history carry the other host's saves.
struct FollowerTests {
    private func insertedNames(_ transaction: DefaultHistoryTransaction) -> [String] {
        transaction.changes.compactMap { change in
            guard case .insert(let insert) = change else { return nil }
            return (insert as? DefaultHistoryInsert<Trip>)?.value(for: \.name)
        }
    }

    /// Saves on a thread of its own, as another host would.
    private func save(_ names: [String], author: String, in container: ModelContainer) async throws {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            Thread.detachNewThread {
                do {
                    let context = ModelContext(container)
                    context.author = author
                    for name in names {
                        context.insert(Trip(name: name, destination: "", startDate: Date(), endDate: Date()))
                        try context.save()
                    }
                    done.resume()
                } catch {
                    done.resume(throwing: error)
                }
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func theChangeFeedOfAnIdleHostDeliversAnotherHostsSaves() async throws {
        let store = TestServer.uniqueStore()
        let (writer, follower) = (try host(store), try host(store))
        try await save(["First"], author: "writer", in: writer)
        // The follower has read nothing since it opened, and fetches nothing: the notification
        // brings the rows.
        var feed = follower.changes(after: nil).makeAsyncIterator()
        let first = try #require(try await feed.next())
        #expect(insertedNames(first) == ["First"])
        let later = Task { try await save(["Second", "Third"], author: "writer", in: writer) }
        let second = try #require(try await feed.next())
        let third = try #require(try await feed.next())
        try await later.value
        #expect(insertedNames(second) == ["Second"])
        #expect(insertedNames(third) == ["Third"])
        #expect(third.author == "writer")
        #expect([first.token, second.token, third.token] == [first.token, second.token, third.token].sorted())
        // The follower's objects followed too.
        let context = ModelContext(follower)
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 3)
    }

    @Test func fetchHistoryOnAnotherHostListsTheWritersSaves() async throws {
        let store = TestServer.uniqueStore()
        let (writer, reader) = (try host(store), try host(store))
        try await save(["One", "Two"], author: "alice", in: writer)
        let context = ModelContext(reader)
        // A fetch brings the rows the reader does not have yet.
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 2)
        let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(history.map(\.author) == ["alice", "alice"])
        #expect(history.flatMap(insertedNames) == ["One", "Two"])
    }
}
