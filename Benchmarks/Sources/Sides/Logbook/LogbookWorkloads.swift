import BenchmarkHarness
import Foundation
@_spi(Measurement) import Logbook
import SampleTrips
import SampleTripsData

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The SampleTrips workloads done with Logbook's public API, as an app written for SwiftData
/// would: the `SampleTrips` models, a `ModelContainer` opened through
/// `SampleTripsMigrationPlan`, one `ModelContext`, `insert` and `save()` (durable), and
/// `FetchDescriptor`s with `#Predicate` and `SortDescriptor`.
///
/// A store directory of the harness is the Logbook store itself (its `url`). The dump is the
/// `logbook` tool's, run as a separate process (see ``w5DumpNDJSON(store:output:)``).
public struct LogbookWorkloads: Workloads {
    public static let side = Side.logbook

    public static var versionDescription: String {
        "Logbook (this checkout): SampleTrips models, ModelContainer with SampleTripsMigrationPlan, "
            + "one ModelContext, durable saves; dump by the logbook tool"
    }

    public init() {}

    // MARK: - W1

    /// Inserts the trips with their bucket lists and accommodations, saving every
    /// `tripsPerSave` trips, twice: with the default durability (each `save()` returns once its
    /// batch is on disk; the headline, and the store the later workloads read), then with
    /// `.relaxed` durability into a scratch store that is removed afterwards.
    ///
    /// The time runs from opening the container to releasing it, after the last save. The
    /// context then hands its 700,000 models to another thread to free (see `ModelContext`),
    /// which the time of "durable" and "relaxed" leaves out. A third row, "durable, models
    /// freed", adds the wait until that thread has freed them: the same work as GRDB's side,
    /// which keeps no objects. Each run starts once the one before has freed its models.
    public func w1DurableAppend(_ trips: [TripData], tripsPerSave: Int, store: URL) throws -> [WorkloadResult] {
        let events = trips.reduce(0) { $0 + 1 + $1.bucketList.count + ($1.livingAccommodation == nil ? 0 : 1) }
        let durable = try Self.append(trips, tripsPerSave: tripsPerSave, store: store, durability: .durable)
        let freeing = Stopwatch.time { ModelContext._waitForReleasesElsewhere() }.timing
        let scratch = store.appendingPathComponent("relaxed", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let relaxed = try Self.append(trips, tripsPerSave: tripsPerSave, store: scratch, durability: .relaxed)
        ModelContext._waitForReleasesElsewhere()
        let freed = Timing(
            seconds: durable.seconds + freeing.seconds,
            cpuSeconds: durable.cpuSeconds + freeing.cpuSeconds
        )
        return [
            WorkloadResult(variant: "durable", timing: durable, items: events, unit: "objects"),
            WorkloadResult(variant: "relaxed", timing: relaxed, items: events, unit: "objects"),
            WorkloadResult(variant: WorkloadID.w1ModelsFreed, timing: freed, items: events, unit: "objects"),
        ]
    }

    // MARK: - W2

    public static let w2Variants = [openFetchTouch, openOnly]
    static let openFetchTouch = "open, fetch, touch"
    static let openOnly = "open only"

    /// Opens the container (which replays the log), fetches every trip, and touches every
    /// trip, bucket-list item and accommodation through the trips' relationships: the headline.
    ///
    /// The variant "open only" times the container's creation alone (a V3 open, which W4's
    /// target compares the migration with); the fetch and the touching follow untimed, so that
    /// its counts are checked too.
    public func w2OpenAndLoad(store: URL, variant: String?) throws -> WorkloadResult {
        let timing: Timing
        let loaded: Loaded
        if variant == Self.openOnly {
            let opened = try Stopwatch.time { try Self.container(store) }
            timing = opened.timing
            loaded = try Self.load(ModelContext(opened.result))
        } else {
            let timed = try Stopwatch.time {
                let container = try Self.container(store)
                return try Self.load(ModelContext(container))
            }
            timing = timed.timing
            loaded = timed.result
        }
        // Taken while the context and its models are alive, as the peak is.
        let resident = ProcessMemory.residentSplit()
        withExtendedLifetime(loaded) {}
        var result = WorkloadResult(
            variant: variant,
            timing: timing,
            items: loaded.counts.total,
            unit: "objects",
            observed: loaded.counts,
            digest: loaded.digest
        )
        result.residentAtEnd = resident
        return result
    }

    // MARK: - W7 and W8

    public static let w8Variants = [replay, fromCheckpoint]
    static let replay = "replay"
    static let fromCheckpoint = "from a checkpoint"

    /// Opens the container and fetches the first screen with one `FetchDescriptor`: sorted by
    /// start date then name, `fetchLimit` 20; then touches each trip and its bucket list.
    public func w7FirstScreen(store: URL) throws -> WorkloadResult {
        let timed = try Stopwatch.time {
            let container = try Self.container(store)
            let context = ModelContext(container)
            var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate), SortDescriptor(\.name)])
            descriptor.fetchLimit = WorkloadID.firstScreenTrips
            let trips = try context.fetch(descriptor)
            let (counts, digest) = Self.touchFirstScreen(trips)
            return (container: container, trips: trips, counts: counts, digest: digest)
        }
        let shown = timed.result
        withExtendedLifetime(shown.trips) {}
        return WorkloadResult(
            timing: timed.timing,
            items: shown.counts.total,
            unit: "objects",
            observed: shown.counts,
            digest: shown.digest
        )
    }

    /// Changes every trip's destination `rounds` times through one context, saving every 1,000
    /// trips. For "from a checkpoint", then writes a checkpoint with `container.checkpoint()`,
    /// as an app with a ``ModelConfiguration/checkpointInterval`` would have.
    public func w8PrepareEdits(store: URL, rounds: Int, variant: String?) throws -> WorkloadResult {
        let container = try Self.container(store)
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<Trip>())
        let edits = try Stopwatch.time {
            for round in 1...max(1, rounds) {
                for (index, trip) in trips.enumerated() {
                    trip.destination = "\(trip.destination.prefix(24)) \(round)"
                    if (index + 1).isMultiple(of: SampleTripsDataSet.tripsPerSave) { try context.save() }
                }
                try context.save()
            }
        }
        if variant == Self.fromCheckpoint {
            try container.checkpoint()
        }
        return WorkloadResult(
            variant: variant,
            timing: edits.timing,
            items: trips.count * max(1, rounds),
            unit: "edits"
        )
    }

    /// Touches the first screen's trips and their bucket lists, not their accommodations.
    static func touchFirstScreen(_ trips: [Trip]) -> (ObjectCounts, UInt64) {
        var counts = ObjectCounts(trips: 0, bucketListItems: 0, livingAccommodations: 0)
        var digest = Digest()
        for trip in trips {
            counts.trips += 1
            digest.add(trip.name)
            digest.add(trip.destination)
            digest.add(trip.startDate)
            for item in trip.bucketList ?? [] {
                counts.bucketListItems += 1
                digest.add(item.title)
            }
        }
        return (counts, digest.value)
    }

    // MARK: - W3

    /// Looks each name up with `#Predicate { $0.name == name }`, which the unique index of
    /// `Trip.name` answers, in one context.
    public func w3PointLookups(store: URL, names: [String]) throws -> [WorkloadResult] {
        let container = try Self.container(store)
        let context = ModelContext(container)
        _ = try Self.lookUp(Array(names.prefix(1_000)), context)
        let timed = try Stopwatch.time { try Self.lookUp(names, context) }
        guard timed.result.count == names.count else {
            throw HarnessError("Logbook found \(timed.result.count) of \(names.count) trips by name")
        }
        _ = Self.describe(Array(names.prefix(1_000)))
        let described = Stopwatch.time { Self.describe(names) }
        return [
            WorkloadResult(
                variant: "#Predicate",
                timing: timed.timing,
                items: names.count,
                unit: "lookups",
                digest: timed.result.digest
            ),
            // What the lookups cost before any store is asked: Foundation making the predicate
            // and the descriptor. No store can look up faster than this.
            WorkloadResult(
                variant: "descriptors alone",
                timing: described.timing,
                items: names.count,
                unit: "descriptors"
            ),
        ]
    }

    /// Makes the descriptor of each lookup, as ``lookUp(_:_:)`` does, without fetching.
    ///
    /// - Returns: The number of descriptors made with a predicate, so that none is left out.
    static func describe(_ names: [String]) -> Int {
        var made = 0
        for name in names {
            let descriptor = FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name })
            if descriptor.predicate != nil { made += 1 }
        }
        return made
    }

    /// `FetchDescriptor(predicate: #Predicate { $0.destination == destination },
    /// sortBy: [SortDescriptor(\.startDate)])` for each destination, in one context.
    public func w3PredicateFetch(store: URL, destinations: [String]) throws -> WorkloadResult {
        let container = try Self.container(store)
        let context = ModelContext(container)
        let timed = try Stopwatch.time {
            var digest = Digest()
            for destination in destinations {
                let trips = try context.fetch(
                    FetchDescriptor<Trip>(
                        predicate: #Predicate { $0.destination == destination },
                        sortBy: [SortDescriptor(\.startDate)]
                    )
                )
                var tripsDigest = Digest()
                tripsDigest.add(trips.count)
                for trip in trips {
                    tripsDigest.add(trip.startDate)
                }
                digest.add(Int(truncatingIfNeeded: tripsDigest.value))
            }
            return digest.value
        }
        return WorkloadResult(timing: timed.timing, items: destinations.count, unit: "queries", digest: timed.result)
    }

    // MARK: - W4

    /// Writes the V1 trips with the `SampleTripsSchemaV1` models in a container without a
    /// migration plan, as the first release of the app did.
    public func w4PrepareV1(_ trips: [TripDataV1], tripsPerSave: Int, store: URL) throws {
        let container = try ModelContainer(
            for: SampleTripsSchemaV1.Trip.self,
            configurations: ModelConfiguration(url: store)
        )
        let context = ModelContext(container)
        for (index, data) in trips.enumerated() {
            let trip = SampleTripsSchemaV1.Trip(
                name: data.name,
                destination: data.destination,
                start_date: data.start_date,
                end_date: data.end_date
            )
            context.insert(trip)
            for item in data.bucketList {
                trip.bucketList?.append(
                    SampleTripsSchemaV1.BucketListItem(
                        title: item.title,
                        details: item.details,
                        hasReservation: item.hasReservation,
                        isInPlan: item.isInPlan
                    )
                )
            }
            if let accommodation = data.livingAccommodation {
                trip.livingAccommodation = SampleTripsSchemaV1.LivingAccommodation(
                    address: accommodation.address,
                    placeName: accommodation.placeName
                )
            }
            if (index + 1) % tripsPerSave == 0 { try context.save() }
        }
        try context.save()
    }

    /// Opens the V1 store with the V3 models through `SampleTripsMigrationPlan` (the custom
    /// V1 → V2 stage, whose `willMigrate` fetches every V1 trip and trims its name, then the
    /// lightweight V2 → V3 stage), then, as a second row, opens the migrated store again in
    /// the same process, which only replays.
    ///
    /// Each row's object counts are taken after its timed open: the trips, and the bucket-list
    /// items and accommodations reachable from them. Reachable, because the store keeps more:
    /// when a duplicate trip is folded into the survivor, the survivor's former accommodation is
    /// unlinked but not deleted (the V1 relationships have no cascade), so N / 10
    /// accommodations without a trip remain, where GRDB's `v2` migration deletes them.
    public func w4OpenThroughMigration(store: URL) throws -> [WorkloadResult] {
        let v1Objects = try Self.v1ObjectCount(store)
        return try ["V1 → V3 migration", "reopen, migrated"].map { variant in
            try Self.openAndCount(store, variant: variant, items: v1Objects)
        }
    }

    /// Times opening the store, then counts what the container holds. The container is
    /// released on return, with the store's writer lock, so that the store can be opened again.
    static func openAndCount(_ store: URL, variant: String, items: Int) throws -> WorkloadResult {
        let timed = try Stopwatch.time { try container(store) }
        return WorkloadResult(
            variant: variant,
            timing: timed.timing,
            items: items,
            unit: "objects",
            observed: try reachableCounts(ModelContext(timed.result))
        )
    }

    // MARK: - W5

    /// Runs `logbook dump STORE --format json` with its standard output in `output`: one JSON
    /// object per event and line, the events upcast to the newest schema.
    ///
    /// The tool is built by `swift build -c release --product logbook` in the benchmark
    /// package before the time starts (a no-op when it is up to date), so that it comes from
    /// the same sources as the library measured; `LOGBOOK_TOOL=/path/to/logbook` uses another
    /// build instead.
    public func w5DumpNDJSON(store: URL, output: URL) throws -> WorkloadResult {
        let tool = try Self.logbookTool()
        guard FileManager.default.createFile(atPath: output.path, contents: nil) else {
            throw HarnessError("cannot create the dump file", path: output.path)
        }
        let destination = try FileHandle(forWritingTo: output)
        defer { try? destination.close() }
        let childrenBefore = Self.childrenProcessorSeconds()
        var timed = try Stopwatch.time {
            try Self.run(tool, ["dump", store.path, "--format", "json"], standardOutput: destination)
        }
        // The work happens in the child: its processor time is what "CPU" means here.
        timed.timing.cpuSeconds += Self.childrenProcessorSeconds() - childrenBefore
        return WorkloadResult(timing: timed.timing, items: try Self.lineCount(output), unit: "events")
    }

    // MARK: - Building blocks

    /// Opens the store with the current models, as the app does at every launch.
    static func container(_ store: URL, durability: ModelConfiguration.Durability = .durable) throws -> ModelContainer {
        try ModelContainer(
            for: Trip.self,
            migrationPlan: SampleTripsMigrationPlan.self,
            configurations: ModelConfiguration(url: store, durability: durability)
        )
    }

    /// Creates a store in `store` and inserts `trips`, one save per `tripsPerSave`.
    ///
    /// - Returns: The time from opening the container to releasing it.
    static func append(
        _ trips: [TripData],
        tripsPerSave: Int,
        store: URL,
        durability: ModelConfiguration.Durability
    ) throws -> Timing {
        try Stopwatch.time {
            let container = try container(store, durability: durability)
            let context = ModelContext(container)
            for (index, data) in trips.enumerated() {
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
                if (index + 1) % tripsPerSave == 0 { try context.save() }
            }
            try context.save()
        }.timing
    }

    struct LookupResult {
        var count = 0
        var digest: UInt64 = 0
    }

    static func lookUp(_ names: [String], _ context: ModelContext) throws -> LookupResult {
        var result = LookupResult()
        var digest = Digest()
        for name in names {
            if let trip = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name })).first {
                result.count += 1
                digest.add(trip.startDate)
            }
        }
        result.digest = digest.value
        return result
    }

    /// Every trip of a context, with what touching them counted.
    struct Loaded {
        var context: ModelContext
        var trips: [Trip]
        var counts: ObjectCounts
        var digest: UInt64
    }

    /// Fetches every trip and touches it, its bucket-list items and its accommodation. The
    /// result keeps the context and the models alive, as a program would while it uses them.
    static func load(_ context: ModelContext) throws -> Loaded {
        let trips = try context.fetch(FetchDescriptor<Trip>())
        let (counts, digest) = touch(trips)
        return Loaded(context: context, trips: trips, counts: counts, digest: digest)
    }

    static func touch(_ trips: [Trip]) -> (ObjectCounts, UInt64) {
        var counts = ObjectCounts(trips: 0, bucketListItems: 0, livingAccommodations: 0)
        var digest = Digest()
        for trip in trips {
            counts.trips += 1
            digest.add(trip.name)
            digest.add(trip.destination)
            digest.add(trip.startDate)
            digest.add(trip.endDate)
            for item in trip.bucketList ?? [] {
                counts.bucketListItems += 1
                digest.add(item.title)
                digest.add(item.details)
                digest.add(item.hasReservation)
                digest.add(item.isInPlan)
            }
            if let accommodation = trip.livingAccommodation {
                counts.livingAccommodations += 1
                digest.add(accommodation.address)
                digest.add(accommodation.placeName)
            }
        }
        return (counts, digest.value)
    }

    /// The trips of a context, with the bucket-list items and accommodations they reach.
    static func reachableCounts(_ context: ModelContext) throws -> ObjectCounts {
        touch(try context.fetch(FetchDescriptor<Trip>())).0
    }

    /// The objects of the V1 store, counted with the V1 models before the time starts.
    static func v1ObjectCount(_ store: URL) throws -> Int {
        let container = try ModelContainer(
            for: SampleTripsSchemaV1.Trip.self,
            configurations: ModelConfiguration(url: store, allowsSave: false)
        )
        let context = ModelContext(container)
        return try context.fetchCount(FetchDescriptor<SampleTripsSchemaV1.Trip>())
            + context.fetchCount(FetchDescriptor<SampleTripsSchemaV1.BucketListItem>())
            + context.fetchCount(FetchDescriptor<SampleTripsSchemaV1.LivingAccommodation>())
    }

    // MARK: - The logbook tool

    /// The benchmark package's directory, from this file's place in it.
    static var benchmarksDirectory: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Logbook
            .deletingLastPathComponent()  // Sides
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()
    }

    /// The `logbook` executable: `LOGBOOK_TOOL`, or the product built in the benchmark
    /// package's release build (built now if needed; not timed).
    static func logbookTool() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["LOGBOOK_TOOL"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let package = benchmarksDirectory
        FileHandle.standardError.write(Data("Logbook: swift build -c release --product logbook (not timed)…\n".utf8))
        try run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["swift", "build", "-c", "release", "--product", "logbook", "--package-path", package.path],
            standardOutput: FileHandle.standardError
        )
        let tool = package.appendingPathComponent(".build/release/logbook")
        guard FileManager.default.isExecutableFile(atPath: tool.path) else {
            throw HarnessError("swift build did not leave an executable logbook", path: tool.path)
        }
        return tool
    }

    /// Runs a program to its end; its standard error is this process's.
    static func run(_ executable: URL, _ arguments: [String], standardOutput: FileHandle) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = standardOutput
        process.standardError = FileHandle.standardError
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw HarnessError(
                "\(([executable.lastPathComponent] + arguments).joined(separator: " ")) failed with status "
                    + "\(process.terminationStatus)"
            )
        }
    }

    /// The processor time of this process's waited-for children so far, in seconds.
    static func childrenProcessorSeconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        let who = __rusage_who_t(RUSAGE_CHILDREN.rawValue)
        #else
        let who = RUSAGE_CHILDREN
        #endif
        guard getrusage(who, &usage) == 0 else { return 0 }
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return user + system
    }

    /// The number of lines of a file.
    static func lineCount(_ file: URL) throws -> Int {
        let data = try Data(contentsOf: file, options: .alwaysMapped)
        return data.withUnsafeBytes { bytes in bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) } }
    }
}
