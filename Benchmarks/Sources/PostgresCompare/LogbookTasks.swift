import BenchmarkHarness
import Foundation
import Logbook
import LogbookPostgres
import SampleTrips
import SampleTripsData

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The tasks done through Logbook, as an app would: the `SampleTrips` models, a
/// `ModelContainer` opened through `SampleTripsMigrationPlan`, one `ModelContext`.
enum LogbookTasks {
    /// A container of the task's store: kept in PostgreSQL when the task names a store (its
    /// copy in the task's directory, or a new temporary one), in the task's directory otherwise.
    static func container(_ task: ChildTask) throws -> ModelContainer {
        let configuration: ModelConfiguration
        if let store = task.store, let socket = task.socket {
            configuration = ModelConfiguration(
                postgres: PostgresStoreConfiguration(socketDirectory: socket, database: task.database),
                store: store,
                cacheDirectory: task.directory.map { URL(fileURLWithPath: $0, isDirectory: true) }
            )
        } else if let directory = task.directory {
            configuration = ModelConfiguration(url: URL(fileURLWithPath: directory, isDirectory: true))
        } else {
            throw HarnessError("the task names neither a store on the server nor a directory")
        }
        return try ModelContainer(
            for: Trip.self,
            migrationPlan: SampleTripsMigrationPlan.self,
            configurations: configuration
        )
    }

    /// Inserts one trip with its bucket list and accommodation.
    static func insert(_ data: TripData, into context: ModelContext) {
        let trip = Trip(
            name: data.name,
            destination: data.destination,
            startDate: data.startDate,
            endDate: data.endDate
        )
        context.insert(trip)
        for item in data.bucketList {
            trip.bucketList?.append(
                BucketListItem(
                    title: item.title,
                    details: item.details,
                    hasReservation: item.hasReservation,
                    isInPlan: item.isInPlan
                )
            )
        }
        if let accommodation = data.livingAccommodation {
            trip.livingAccommodation = LivingAccommodation(
                address: accommodation.address,
                placeName: accommodation.placeName
            )
        }
    }

    /// Appends the task's trips, one save per `tripsPerSave`; timed from the start line to
    /// the last save's return (the container is open before).
    static func write(_ task: ChildTask) throws -> ChildAnswer {
        let dataSet = SampleTripsDataSet(tripCount: task.tripCount, seed: task.seed)
        let trips = (task.firstTrip..<task.endTrip).map { dataSet.trip(at: $0) }
        let container = try container(task)
        let context = ModelContext(container)
        ChildCommand.waitForStart(task)
        var answer = ChildAnswer()
        let cpu = processorSeconds()
        answer.startNanoseconds = WallClock.nanoseconds()
        var saveStart = ContinuousClock.now
        for (index, data) in trips.enumerated() {
            insert(data, into: context)
            answer.objects += 1 + data.bucketList.count + (data.livingAccommodation == nil ? 0 : 1)
            if (index + 1).isMultiple(of: task.tripsPerSave) || index == trips.count - 1 {
                try context.save()
                let now = ContinuousClock.now
                answer.saveSeconds.append(Stopwatch.seconds(saveStart.duration(to: now)))
                answer.saves += 1
                saveStart = now
            }
        }
        answer.endNanoseconds = WallClock.nanoseconds()
        answer.cpuSeconds = processorSeconds() - cpu
        withExtendedLifetime(container) {}
        return answer
    }

    /// The author of the lag writer's save number `index`.
    static func lagAuthor(_ index: Int) -> String { "lag \(index)" }

    /// Saves one trip (with its bucket list and accommodation) at a time, `saves` times, and
    /// notes the `CLOCK_REALTIME` instant each save returns. Each save's context author names
    /// its index, which the follower reads from the change feed.
    static func lagWriter(_ task: ChildTask) throws -> ChildAnswer {
        let dataSet = SampleTripsDataSet(tripCount: task.tripCount, seed: task.seed)
        let container = try container(task)
        let context = ModelContext(container)
        ChildCommand.waitForStart(task)
        var answer = ChildAnswer()
        answer.startNanoseconds = WallClock.nanoseconds()
        for index in 0..<task.saves {
            let data = dataSet.trip(at: index % dataSet.tripCount)
            insert(data, into: context)
            context.author = lagAuthor(index)
            let before = ContinuousClock.now
            try context.save()
            answer.instants.append(WallClock.nanoseconds())
            answer.saveSeconds.append(Stopwatch.seconds(before.duration(to: .now)))
            answer.saves += 1
            if task.pauseMicroseconds > 0 { usleep(UInt32(task.pauseMicroseconds)) }
        }
        answer.endNanoseconds = WallClock.nanoseconds()
        return answer
    }

    /// Follows `container.changes(after: nil)` and notes the `CLOCK_REALTIME` instant each of
    /// the lag writer's transactions arrives, by the index its author names. Ready once the
    /// feed is being read; done when every save arrived, or after a minute without one.
    static func lagFollower(_ task: ChildTask) throws -> ChildAnswer {
        let container = try container(task)
        let arrivals = Arrivals(count: task.saves)
        let feed = container.changes(after: nil)
        let reading = Task {
            do {
                for try await transaction in feed {
                    let now = WallClock.nanoseconds()
                    guard let author = transaction.author, author.hasPrefix("lag "),
                        let index = Int(author.dropFirst(4))
                    else { continue }
                    if arrivals.note(index, at: now) { return }
                }
            } catch {
                arrivals.fail("the change feed failed: \(error)")
            }
        }
        ChildCommand.waitForStart(task)
        var answer = ChildAnswer()
        answer.startNanoseconds = WallClock.nanoseconds()
        var lastCount = -1
        var lastProgress = ContinuousClock.now
        while !arrivals.isComplete {
            usleep(10_000)
            let count = arrivals.count
            if count != lastCount {
                lastCount = count
                lastProgress = .now
            } else if lastProgress.duration(to: .now) > .seconds(60) {
                answer.notes.append("the follower saw \(count) of \(task.saves) saves; none arrived for a minute")
                break
            }
        }
        reading.cancel()
        answer.endNanoseconds = WallClock.nanoseconds()
        answer.instants = arrivals.instants
        answer.saves = arrivals.count
        answer.notes += arrivals.failures
        withExtendedLifetime(container) {}
        return answer
    }

    /// Opens the store (which copies and replays it) and writes a checkpoint, which a store
    /// kept in PostgreSQL shares through `logbook_checkpoints`.
    static func checkpoint(_ task: ChildTask) throws -> ChildAnswer {
        var answer = ChildAnswer()
        answer.startNanoseconds = WallClock.nanoseconds()
        let container = try container(task)
        try container.checkpoint()
        answer.endNanoseconds = WallClock.nanoseconds()
        return answer
    }

    /// Opens the container and fetches the first screen: the 20 earliest trips by start date
    /// then name, each touched with its bucket list. Timed from before the container opens to
    /// the last item touched.
    static func firstScreen(_ task: ChildTask) throws -> ChildAnswer {
        var answer = ChildAnswer()
        let cpu = processorSeconds()
        answer.startNanoseconds = WallClock.nanoseconds()
        let container = try container(task)
        let context = ModelContext(container)
        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate), SortDescriptor(\.name)])
        descriptor.fetchLimit = WorkloadID.firstScreenTrips
        let trips = try context.fetch(descriptor)
        var digest = Digest()
        for trip in trips {
            answer.trips += 1
            digest.add(trip.name)
            digest.add(trip.destination)
            digest.add(trip.startDate)
            for item in trip.bucketList ?? [] {
                answer.bucketListItems += 1
                digest.add(item.title)
            }
        }
        answer.endNanoseconds = WallClock.nanoseconds()
        answer.cpuSeconds = processorSeconds() - cpu
        answer.digest = digest.value
        withExtendedLifetime((container, trips)) {}
        return answer
    }

    /// The processor time of this process so far, in seconds.
    static func processorSeconds() -> Double {
        var now = timespec()
        guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now) == 0 else { return 0 }
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

/// The lag follower's record of arrivals, shared between the feed's task and the main thread.
final class Arrivals: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Int64]
    private var seen = 0
    private var errors: [String] = []

    init(count: Int) { stored = Array(repeating: 0, count: count) }

    /// Notes that save `index` arrived at `instant`; returns whether every save has arrived.
    func note(_ index: Int, at instant: Int64) -> Bool {
        lock.withLock {
            if index >= 0, index < stored.count, stored[index] == 0 {
                stored[index] = instant
                seen += 1
            }
            return seen == stored.count
        }
    }

    func fail(_ message: String) { lock.withLock { errors.append(message) } }

    var count: Int { lock.withLock { seen } }
    var isComplete: Bool { lock.withLock { seen == stored.count || !errors.isEmpty } }
    var instants: [Int64] { lock.withLock { stored } }
    var failures: [String] { lock.withLock { errors } }
}
