import NIOCore

/// Runs the jobs of the tasks that prefer it on one of SwiftNIO's event loops, so that the
/// asynchronous work of a blocking call (``PostgresConnector/blocking(_:)``) never needs a
/// thread of Swift's cooperative pool, which the blocked caller may be holding.
final class EventLoopExecutor: TaskExecutor {
    private let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
