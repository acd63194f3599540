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

    @Test func aReadOnlyContainerReadsTheServersRowsAndRefusesSaves() async throws {
        let store = TestServer.uniqueStore()
        let writer = try host(store)
        try await save(["One"], author: "alice", in: writer)
        let reader = try ModelContainer(
            for: Trip.self,
            configurations: ModelConfiguration(
                postgres: try TestServer.configuration(),
                store: store,
                allowsSave: false
            )
        )
        let context = ModelContext(reader)
        #expect(try context.fetch(FetchDescriptor<Trip>()).map(\.name) == ["One"])
        // A save on the writer's host reaches the read-only container's next fetch.
        try await save(["Two"], author: "alice", in: writer)
        #expect(
            try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name) == ["One", "Two"]
        )
        #expect(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).count == 2)
        context.insert(Trip(name: "Refused", destination: "", startDate: Date(), endDate: Date()))
        let error = try #require(throws: LogbookError.self) { try context.save() }
        #expect(error.code == .saveNotAllowed)
        context.rollback()
        // Nothing reached the server.
        #expect(try ModelContext(writer).fetchCount(FetchDescriptor<Trip>()) == 2)
    }

    @Test func aContainerAsOfATokenOfAServersStoreIsRefusedWithAMessage() async throws {
        let store = TestServer.uniqueStore()
        let writer = try host(store)
        try await save(["One"], author: "alice", in: writer)
        let token = try #require(
            try ModelContext(writer).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last?.token
        )
        var configuration = ModelConfiguration(postgres: try TestServer.configuration(), store: store)
        configuration.asOf = token
        let error = try #require(throws: LogbookError.self) {
            try ModelContainer(for: Trip.self, configurations: configuration)
        }
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains("cannot be opened as of the token"))
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
