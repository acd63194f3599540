import Dispatch
import Foundation
import Logbook
import LogbookPostgres
import PostgresNIO
import SampleTrips
import Testing

/// Faults between a container and the server short of a restart: a statement the server
/// cancels for taking too long, and a listening connection the server drops. Each test has a
/// server of its own: it locks the whole table, or drops every listening connection.
struct ConnectionFaultTests {

    private func names(_ container: ModelContainer) throws -> [String] {
        try ModelContext(container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name)
    }

    @Test(.timeLimit(.minutes(1))) func aSaveTheServerCancelsForItsStatementTimeoutThrowsAndStaysPending() async throws
    {
        let privateServer = try ServerRestartTests.PrivateServer()
        let store = TestServer.uniqueStore()
        var server = privateServer.configuration
        server.client.options.additionalStartupParameters = [("statement_timeout", "300")]
        let container = try host(store, server)
        let (ready, locked, failed, released) = (
            DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0),
            DispatchSemaphore(value: 0)
        )
        // The container's saves, on a thread of their own.
        let saves = Task {
            try await onThread { () -> (error: LogbookError?, pending: Bool) in
                let context = ModelContext(container)
                context.insert(Trip(name: "First", destination: "", startDate: Date(), endDate: Date()))
                try context.save()
                ready.signal()
                locked.wait()
                context.insert(Trip(name: "Second", destination: "", startDate: Date(), endDate: Date()))
                var failure: LogbookError?
                do { try context.save() } catch let error as LogbookError { failure = error }
                let pending = context.hasChanges
                failed.signal()
                released.wait()
                // Once the table is free, the same save lands.
                try context.save()
                return (failure, pending)
            }
        }
        try await onThread { ready.wait() }
        let rowsWhileLocked = try await TestServer.withClient(socketDirectory: privateServer.directory) { client in
            try await client.withTransaction(logger: Logger(label: "test")) { connection in
                // Another session holds the table: the container's append waits, until the
                // server cancels it for its statement timeout.
                _ = try await connection.query(
                    "LOCK TABLE logbook_batches IN ACCESS EXCLUSIVE MODE",
                    logger: connection.logger
                )
                locked.signal()
                try await onThread { failed.wait() }
                let count = try await connection.query(
                    "SELECT count(*) FROM logbook_batches WHERE store = \(store)",
                    logger: connection.logger
                )
                return try await count.decode(Int64.self).reduce(into: Int64(0)) { $0 = $1 }
            }
        }
        released.signal()
        let outcome = try await saves.value
        let error = try #require(outcome.error, "the save waited on a locked table past its statement timeout")
        #expect(error.code == .io)
        #expect(error.message.hasPrefix("appending the batch at sequence 3 failed: the server said: "))
        #expect(error.message.hasSuffix("canceling statement due to statement timeout (SQLSTATE 57014)"))
        #expect(error.path?.contains(store) == true)
        #expect(outcome.pending, "the insert stayed pending")
        #expect(rowsWhileLocked == 1, "nothing landed")
        let rows = try await TestServer.withClient(socketDirectory: privateServer.directory) { client in
            try await client.query("SELECT count(*) FROM logbook_batches WHERE store = \(store)")
                .decode(Int64.self).reduce(into: Int64(0)) { $0 = $1 }
        }
        #expect(rows == 2, "the second save landed once")
        let reader = try host(store, privateServer.configuration)
        #expect(try await onThread { try names(reader) } == ["First", "Second"])
    }

    @Test(.timeLimit(.minutes(1))) func aFollowerWhoseListeningConnectionDropsCatchesUpWithTheSavesItMissed()
        async throws
    {
        let privateServer = try ServerRestartTests.PrivateServer()
        let store = TestServer.uniqueStore()
        let (writer, follower) = (
            try host(store, privateServer.configuration), try host(store, privateServer.configuration)
        )
        var feed = follower.changes(after: nil).makeAsyncIterator()
        try await onThread {
            let context = ModelContext(writer)
            context.insert(Trip(name: "Before", destination: "", startDate: Date(), endDate: Date()))
            try context.save()
        }
        #expect(try await feed.next() != nil)
        // The server drops every connection that listens, then the writer saves at once: the
        // notification of that save reaches no one, and the follower fetches nothing.
        try await TestServer.withClient(socketDirectory: privateServer.directory) { client in
            let rows = try await client.query(
                "SELECT pg_terminate_backend(pid)::text FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()"
            )
            for try await _ in rows {}
        }
        try await onThread {
            let context = ModelContext(writer)
            context.insert(Trip(name: "Missed", destination: "", startDate: Date(), endDate: Date()))
            try context.save()
        }
        let missed = try #require(try await feed.next())
        let inserted = missed.changes.compactMap { change -> String? in
            guard case .insert(let insert) = change else { return nil }
            return (insert as? DefaultHistoryInsert<Trip>)?.value(for: \.name)
        }
        #expect(inserted == ["Missed"])
    }
}
