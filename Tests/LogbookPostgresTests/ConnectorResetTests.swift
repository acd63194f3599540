import Dispatch
import Foundation
import Logbook
import Logging
import PostgresNIO
import Testing

@testable import LogbookPostgres

/// A store's log shares one connector among its callers; a call whose connection fails lets
/// go of it, and the next call connects afresh. A read that was on the connector then must not
/// fail for it.
struct ConnectorResetTests {
    private func log(_ store: String) throws -> PostgresLog {
        PostgresLog(
            store: store,
            client: try TestServer.configuration().client,
            inDoubtTimeout: .seconds(15),
            migrationLockTimeout: .seconds(60),
            ownedDirectory: nil,
            logger: Logger(label: "test")
        )
    }

    @Test(.timeLimit(.minutes(1))) func aReadWhoseConnectorAnotherCallLetsGoOfRunsAgainOnAFreshOne() async throws {
        let log = try log(TestServer.uniqueStore())
        defer { log.close() }
        let first = try await onThread { try log.connected() }
        let runs = Locked(0)
        // The read waits on the server long enough for the other call to let go of the
        // connector under it.
        let reading = Task {
            try await onThread {
                try log.run("reading the server's answer failed") { client in
                    runs.withLock { $0 += 1 }
                    var answer = ""
                    for try await (text) in try await client.query("SELECT pg_sleep(0.4)::text || 'done'")
                        .decode(String.self)
                    {
                        answer = text
                    }
                    return answer
                }
            }
        }
        try await Task.sleep(for: .milliseconds(150))
        await onThreadQuietly { log.reset(first) }
        #expect(try await reading.value == "done")
        #expect(runs.withLock { $0 } == 2, "the read ran once more, on a fresh connector")
        let second = try await onThread { try log.connected() }
        #expect(second !== first)
    }

    @Test(.timeLimit(.minutes(1))) func aReadThatFailsOnItsOwnConnectorIsNotRunAgain() async throws {
        let log = try log(TestServer.uniqueStore())
        defer { log.close() }
        let runs = Locked(0)
        let error = try await onThread {
            Result {
                try log.run("reading a table that is not there failed") { client in
                    runs.withLock { $0 += 1 }
                    for try await _ in try await client.query("SELECT * FROM no_such_table") {}
                    return 0
                }
            }
        }
        let failure = try #require(throws: LogbookError.self) { try error.get() }
        #expect(failure.message.contains("reading a table that is not there failed"))
        #expect(failure.message.contains("no_such_table"))
        #expect(runs.withLock { $0 } == 1)
    }
}

/// Runs `work`, which does not throw, on a thread of its own.
private func onThreadQuietly(_ work: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        Thread.detachNewThread {
            work()
            done.resume()
        }
    }
}
