import Dispatch
import Logbook
import Logging
import NIOCore
import NIOPosix
import PostgresNIO

/// A `PostgresClient` run for synchronous callers: Logbook's saves and fetches are synchronous,
/// postgres-nio is asynchronous.
///
/// The client runs (`run()`) in a task, and each call runs in a task of its own, both on an
/// event loop of SwiftNIO's group (``EventLoopExecutor``), while the calling thread waits on a
/// semaphore. No thread of Swift's cooperative pool is needed for the work, so a caller that
/// blocks one (a save in an `async` function or an actor) cannot starve it. The caller must not
/// be one of SwiftNIO's event loop threads, whose work it would wait for: that is a
/// precondition.
final class PostgresConnector: Sendable {
    /// The client, whose connections the pool opens as queries need them.
    let client: PostgresClient
    private let executor: EventLoopExecutor
    /// The task that runs the client, until ``shutDown()`` cancels it.
    private let running: Locked<Task<Void, Never>?>

    init(configuration: PostgresClient.Configuration, logger: Logger) {
        let group = MultiThreadedEventLoopGroup.singleton
        let client = PostgresClient(configuration: configuration, eventLoopGroup: group, backgroundLogger: logger)
        let executor = EventLoopExecutor(group.next())
        self.client = client
        self.executor = executor
        self.running = Locked<Task<Void, Never>?>(Task(executorPreference: executor) { await client.run() })
    }

    /// Runs `body` on the event loop and waits for its result.
    ///
    /// - Parameter timeout: How long to wait; forever when `nil`. A call that takes longer
    ///   throws ``PostgresTimeout`` while `body` goes on, its result unread.
    /// - Precondition: The calling thread is not one of SwiftNIO's event loops.
    func blocking<T: Sendable>(
        timeout: Duration? = nil,
        _ body: @escaping @Sendable (PostgresClient) async throws -> T
    ) throws -> T {
        precondition(
            MultiThreadedEventLoopGroup.currentEventLoop == nil,
            "a store kept in PostgreSQL is read and saved synchronously: not on a SwiftNIO event loop thread, whose work the call would wait for"
        )
        let outcome = Locked<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let client = client
        Task(executorPreference: executor) {
            let result: Result<T, any Error>
            do {
                result = .success(try await body(client))
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        if let timeout {
            let (seconds, attoseconds) = timeout.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            if done.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .timedOut {
                throw PostgresTimeout(timeout: timeout)
            }
        } else {
            done.wait()
        }
        guard let result = outcome.withLock({ $0 }) else {
            preconditionFailure("a blocking call was signalled without a result")
        }
        return try result.get()
    }

    /// Starts `body` on the event loop without waiting for it: the listener of notifications.
    func start(_ body: @escaping @Sendable (PostgresClient) async -> Void) -> Task<Void, Never> {
        let client = client
        return Task(executorPreference: executor) { await body(client) }
    }

    /// Stops the client: its connections close in the background. It does not wait for them,
    /// since ending `run()` awaits work that may need a thread of the cooperative pool, which
    /// the closing thread may be holding.
    func shutDown() {
        running.withLock { running in running.take() }?.cancel()
    }
}

/// A call to the server that did not finish in time.
struct PostgresTimeout: Error, CustomStringConvertible {
    let timeout: Duration
    var description: String { "no answer from the server within \(timeout)" }
}
