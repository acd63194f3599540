import Dispatch

/// An executor that owns a model context: the jobs it runs are the only code that uses the
/// context and its models.
///
/// A ``ModelActor`` runs on its ``ModelActor/modelExecutor``, so that its methods use
/// ``ModelActor/modelContext`` in the actor's isolation domain. Use
/// ``DefaultSerialModelExecutor``, which `@ModelActor` creates, unless you need jobs to run
/// somewhere else.
///
/// ## Topics
///
/// ### The context
/// - ``modelContext``
public protocol ModelExecutor: Executor {
    /// The context the executor's jobs use.
    ///
    /// Use it only from a job this executor runs: from an isolated method of the actor whose
    /// executor this is.
    var modelContext: ModelContext { get }
}

/// A model executor that runs one job at a time, in order, so that it can be an actor's
/// executor.
public protocol SerialModelExecutor: ModelExecutor, SerialExecutor {}

/// The executor `@ModelActor` gives an actor: a serial queue of its own, and the context the
/// actor's methods use.
///
/// ```swift
/// let executor = DefaultSerialModelExecutor(modelContext: ModelContext(container))
/// ```
///
/// Jobs run on a serial dispatch queue, one after another, each on whatever thread the queue
/// takes; the actor's methods therefore never run at the same time, and the context, which is
/// not `Sendable`, is only used by one of them at a time.
///
/// ## Topics
///
/// ### Creating an executor
/// - ``init(modelContext:)``
///
/// ### Running jobs
/// - ``modelContext``
/// - ``enqueue(_:)``
/// - ``asUnownedSerialExecutor()``
// `@unchecked Sendable`: the context is not `Sendable`, and is only used by the jobs this
// executor runs, one at a time on its serial queue, which is what `ModelActor` isolation means.
public final class DefaultSerialModelExecutor: SerialModelExecutor, @unchecked Sendable {
    /// The context the executor's jobs use.
    public let modelContext: ModelContext
    /// The queue the jobs run on, one at a time.
    private let queue: DispatchQueue
    /// Marks ``queue``, so that ``isRunningJob`` can tell it is current.
    private let queueKey = DispatchSpecificKey<Bool>()

    /// Creates an executor that runs its jobs on a serial queue of its own, with a context.
    ///
    /// - Parameter modelContext: The context the jobs use; hand it over, and use it no more
    ///   outside the executor's jobs.
    public init(modelContext: ModelContext) {
        self.modelContext = modelContext
        self.queue = DispatchQueue(label: "Logbook.DefaultSerialModelExecutor")
        queue.setSpecific(key: queueKey, value: true)
    }

    /// Whether the caller runs on the executor's queue: in one of its jobs.
    var isRunningJob: Bool {
        DispatchQueue.getSpecific(key: queueKey) == true
    }

    /// Runs a job on the executor's queue, after the jobs enqueued before it.
    ///
    /// - Parameter job: The job, run once.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// The executor as the runtime refers to it.
    ///
    /// - Returns: A reference to this executor, which it does not retain.
    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
