import ArgumentParser
import Dispatch
import Foundation
import Logbook
import SampleTrips

#if canImport(Glibc)
import Glibc
#endif

extension LogbookCommand {
    /// Measures the change feed across processes: how long after a durable `save()` returns in
    /// this process its transaction arrives through `changes(after:)` in a read-only follower
    /// process, against the save's own time. Development figures, like `_measure-trips`.
    struct MeasureFeed: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "_measure-feed",
            abstract: "Measure the change feed's latency between processes (for development).",
            shouldDisplay: false
        )

        @Argument(help: "A scratch directory; the store is created in it and removed afterwards.")
        var scratch: String

        @Option(help: "Saves to make, one trip each.")
        var saves = 10_000

        @Option(help: "Instead, time a read-only container reading this SampleTrips store's feed from its first token.")
        var catchUp: String?

        func run() throws {
            if let catchUp {
                try measureCatchUp(URL(fileURLWithPath: catchUp))
                return
            }
            let url = URL(fileURLWithPath: scratch).appendingPathComponent("feed-\(getpid()).store")
            defer { try? FileManager.default.removeItem(at: url) }
            let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url))
            let context = ModelContext(container)
            context.insert(Trip(name: "first", destination: "d", startDate: Date(), endDate: Date()))
            try context.save()
            guard let start = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last?.token
            else { throw ValidationError("the first save left no history") }

            let follower = try FollowerProcess(store: url.path, after: start, count: saves)
            try follower.waitUntilReady()
            var returned: [UInt64] = []
            var saveTimes: [UInt64] = []
            returned.reserveCapacity(saves)
            saveTimes.reserveCapacity(saves)
            for number in 0..<saves {
                context.insert(Trip(name: "trip \(number)", destination: "d", startDate: Date(), endDate: Date()))
                let before = FeedClock.now()
                try context.save()
                let after = FeedClock.now()
                returned.append(after)
                saveTimes.append(after - before)
            }
            let arrivals = try follower.arrivals()
            guard arrivals.count == saves else {
                throw ValidationError("the follower received \(arrivals.count) of \(saves) transactions")
            }
            let latencies = zip(arrivals, returned).map { arrival, returned in
                arrival > returned ? arrival - returned : 0
            }
            print("\(saves) durable saves of one trip, each followed by a read-only container in another process")
            print("  save:         \(FeedClock.describe(saveTimes))")
            print("  feed latency: \(FeedClock.describe(latencies))  (from save() returning to arrival)")
            print("  poll interval across processes: \(HistoryChanges.pollInterval)")
        }

        /// Reads the whole feed of `store` in a read-only container, from the first token to the
        /// last transaction there is.
        func measureCatchUp(_ store: URL) throws {
            let container = try ModelContainer(
                for: Trip.self,
                configurations: ModelConfiguration(url: store, allowsSave: false)
            )
            let context = ModelContext(container)
            guard let last = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last?.token
            else { throw ValidationError("the store has no history") }
            let done = DispatchSemaphore(value: 0)
            let outcome = FailureBox()
            let start = FeedClock.now()
            Task.detached {
                do {
                    var transactions = 0
                    var changes = 0
                    for try await transaction in container.changes(after: nil) {
                        transactions += 1
                        changes += transaction.changes.count
                        if transaction.token >= last { break }
                    }
                    let seconds = Double(FeedClock.now() - start) / 1e9
                    outcome.set(
                        "\(transactions) transactions, \(changes) changes in \(String(format: "%.2f", seconds)) s: "
                            + "\(Int(Double(transactions) / seconds)) transactions/s, \(Int(Double(changes) / seconds)) changes/s"
                    )
                } catch {
                    outcome.set("failed: \(error)")
                }
                done.signal()
            }
            done.wait()
            print(outcome.message ?? "nothing read")
        }
    }

    /// The follower side of `_measure-feed`: a read-only container that prints the arrival
    /// time of each transaction of the feed.
    struct FeedFollower: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "_feed-follower",
            abstract: "Follow a store's change feed and print arrival times (for measuring).",
            shouldDisplay: false
        )

        @OptionGroup var options: StoreOptions

        @Option(help: "The token to follow after, as JSON.")
        var after: String

        @Option(help: "Transactions to wait for.")
        var count: Int

        func run() throws {
            let token = try JSONDecoder().decode(DefaultHistoryToken.self, from: Data(after.utf8))
            let container = try ModelContainer(
                for: Trip.self,
                configurations: ModelConfiguration(url: URL(fileURLWithPath: options.store), allowsSave: false)
            )
            let count = self.count
            let done = DispatchSemaphore(value: 0)
            let failure = FailureBox()
            Task.detached {
                do {
                    FileHandle.standardOutput.write(Data("ready\n".utf8))
                    var received = 0
                    for try await transaction in container.changes(after: token) {
                        let now = FeedClock.now()
                        _ = transaction
                        FileHandle.standardOutput.write(Data("\(now)\n".utf8))
                        received += 1
                        if received == count { break }
                    }
                } catch {
                    failure.set("\(error)")
                }
                done.signal()
            }
            done.wait()
            if let message = failure.message { throw ValidationError(message) }
        }
    }
}

/// A child process running `_feed-follower`, whose output lines are collected as they come.
private final class FollowerProcess: @unchecked Sendable {
    private let process = Process()
    private let output = Pipe()
    private let lines = NSCondition()
    private var received: [String] = []
    private var buffer = Data()

    init(store: String, after token: DefaultHistoryToken, count: Int) throws {
        let argument = String(decoding: try JSONEncoder().encode(token), as: UTF8.self)
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["_feed-follower", store, "--after", argument, "--count", "\(count)"]
        process.standardOutput = output
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            self?.take(handle.availableData)
        }
        try process.run()
    }

    private func take(_ data: Data) {
        lines.lock()
        buffer.append(data)
        while let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            received.append(String(decoding: buffer[buffer.startIndex..<end], as: UTF8.self))
            buffer.removeSubrange(buffer.startIndex...end)
        }
        lines.broadcast()
        lines.unlock()
    }

    func waitUntilReady() throws {
        lines.lock()
        defer { lines.unlock() }
        while !received.contains("ready") {
            guard process.isRunning else { throw ValidationError("the follower process ended before it was ready") }
            _ = lines.wait(until: Date().addingTimeInterval(0.1))
        }
    }

    /// The arrival times, once the follower has exited.
    func arrivals() throws -> [UInt64] {
        process.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil
        take(output.fileHandleForReading.readDataToEndOfFile())
        guard process.terminationStatus == 0 else {
            throw ValidationError("the follower process exited with status \(process.terminationStatus)")
        }
        lines.lock()
        defer { lines.unlock() }
        return received.compactMap { UInt64($0) }
    }
}

private final class FailureBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String?

    var message: String? { lock.withLock { stored } }

    func set(_ message: String) { lock.withLock { stored = message } }
}

/// Wall-clock nanoseconds, comparable between processes on one machine.
private enum FeedClock {
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    static func describe(_ nanoseconds: [UInt64]) -> String {
        let sorted = nanoseconds.sorted()
        guard !sorted.isEmpty else { return "none" }
        func at(_ fraction: Double) -> String {
            let value = sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction))]
            return String(format: "%.2f ms", Double(value) / 1_000_000)
        }
        return "p50 \(at(0.5)), p99 \(at(0.99)), max \(at(1))"
    }
}
