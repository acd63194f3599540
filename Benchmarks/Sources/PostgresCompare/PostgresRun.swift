import BenchmarkHarness
import Foundation
import Logbook
import LogbookPostgres
import SampleTrips
import SampleTripsData

/// The workloads of one run against one server and one new database.
struct PostgresRun {
    let socket: String
    let database: String
    let scratch: URL
    let seed: UInt64
    let tripsPerSave: Int

    var server: PostgresStoreConfiguration {
        PostgresStoreConfiguration(socketDirectory: socket, database: database)
    }

    func task(_ kind: ChildTask.Kind, trips: Int) -> ChildTask {
        var task = ChildTask(kind: kind, tripCount: trips, seed: seed)
        task.socket = socket
        task.database = database
        task.tripsPerSave = tripsPerSave
        return task
    }

    func directory(_ name: String) -> String {
        scratch.appendingPathComponent(name, isDirectory: true).path
    }

    // MARK: - Writers

    /// SampleTrips-N appended to one store by each count of writer processes, each an equal
    /// share (a contiguous range of trips); then the ceiling and the directory store.
    func writers(trips: Int, counts: [Int]) throws -> [WriterRow] {
        var rows: [WriterRow] = []
        var firstStore: String?
        for count in counts {
            let store = "writers-\(count)"
            progress("\(count) writer process(es) appending SampleTrips-\(trips) to store '\(store)'")
            let tasks = (0..<count).map { writer in
                var task = task(.postgresWriter, trips: trips)
                task.store = store
                task.firstTrip = trips * writer / count
                task.endTrip = trips * (writer + 1) / count
                task.waitsForStart = true
                return task
            }
            try prepareStore(store)
            var row = WriterRow(title: "PostgreSQL, Logbook", writers: count, answers: try ChildProcesses.run(tasks))
            row.rows = try Server.integer(
                "SELECT count(*) FROM logbook_batches WHERE store = '\(store)'",
                socket: socket,
                database: database
            )
            row.check = try countTrips(ModelConfiguration(postgres: server, store: store), expected: trips)
            rows.append(row)
            if firstStore == nil { firstStore = store }
        }

        progress("the ceiling: prepared INSERTs, one row per object")
        var perObject = task(.ceilingPerObject, trips: trips)
        perObject.endTrip = trips
        perObject.waitsForStart = true
        var ceiling = WriterRow(
            title: "PostgreSQL, prepared INSERT, a row per object",
            writers: 1,
            answers: [try ChildProcesses.run(perObject)]
        )
        ceiling.rows = try Server.integer(
            "SELECT (SELECT count(*) FROM ceiling_trip) + (SELECT count(*) FROM ceiling_item) + (SELECT count(*) FROM ceiling_accommodation)",
            socket: socket,
            database: database
        )
        let objects = SampleTripsDataSet(tripCount: trips, seed: seed).objectCount
        if ceiling.rows != objects { ceiling.check = "\(ceiling.rows) rows, not \(objects)" }
        rows.append(ceiling)

        if let firstStore {
            progress("the ceiling: prepared INSERTs of the rows of store '\(firstStore)', one per save")
            var perSave = task(.ceilingPerSave, trips: trips)
            perSave.store = firstStore
            perSave.waitsForStart = true
            var row = WriterRow(
                title: "PostgreSQL, prepared INSERT, a row per save (same frames)",
                writers: 1,
                answers: [try ChildProcesses.run(perSave)]
            )
            row.rows = try Server.integer("SELECT count(*) FROM ceiling_batches", socket: socket, database: database)
            rows.append(row)
        }

        progress("a store in a directory, one process")
        var local = task(.directoryWriter, trips: trips)
        local.socket = nil
        local.directory = directory("writers-directory")
        local.endTrip = trips
        local.waitsForStart = true
        var row = WriterRow(
            title: "directory, Logbook (durable saves)",
            writers: 1,
            answers: [try ChildProcesses.run(local)]
        )
        row.check = try countTrips(
            ModelConfiguration(url: URL(fileURLWithPath: directory("writers-directory"), isDirectory: true)),
            expected: trips
        )
        rows.append(row)
        return rows
    }

    /// Opens the store in this process and counts its trips: `nil` when they are all there,
    /// or what is wrong.
    func countTrips(_ configuration: ModelConfiguration, expected: Int) throws -> String? {
        let container = try ModelContainer(
            for: Trip.self,
            migrationPlan: SampleTripsMigrationPlan.self,
            configurations: configuration
        )
        let context = ModelContext(container)
        let trips = try context.fetchCount(FetchDescriptor<Trip>())
        let items = try context.fetchCount(FetchDescriptor<BucketListItem>())
        let expectedItems = expected * SampleTripsDataSet.bucketListItemsPerTrip
        guard trips == expected, items == expectedItems else {
            return "the store holds \(trips) trips and \(items) items, not \(expected) and \(expectedItems)"
        }
        return nil
    }

    // MARK: - Lag

    /// A writer process saving one trip at a time and a follower process reading the change
    /// feed, once per pause.
    func lag(trips: Int, saves: Int, pauses: [Int]) throws -> [LagRow] {
        var rows: [LagRow] = []
        for pause in pauses {
            let store = "lag-\(pause)ms"
            progress("follower lag: \(saves) saves, \(pause) ms apart, store '\(store)'")
            var follower = task(.lagFollower, trips: trips)
            follower.store = store
            follower.saves = saves
            follower.waitsForStart = true
            var writer = task(.lagWriter, trips: trips)
            writer.store = store
            writer.saves = saves
            writer.pauseMicroseconds = pause * 1_000
            writer.waitsForStart = true
            // The writer creates the store; the follower opens it once it exists.
            try prepareStore(store)
            let answers = try ChildProcesses.run([follower, writer])
            rows.append(LagRow(pauseMilliseconds: pause, saves: saves, writer: answers[1], follower: answers[0]))
        }
        return rows
    }

    /// Creates the store on the server (an empty container opened and closed), so that the
    /// lag's two processes open an existing store.
    func prepareStore(_ store: String) throws {
        let container = try ModelContainer(
            for: Trip.self,
            migrationPlan: SampleTripsMigrationPlan.self,
            configurations: ModelConfiguration(postgres: server, store: store)
        )
        withExtendedLifetime(container) {}
    }

    // MARK: - A second host's start

    /// SampleTrips-N written to a directory store (one save per 1,000 trips), copied up to two
    /// stores on the server; one gets a checkpoint. Then fresh processes with empty copies
    /// open each and show the first screen; the directory store's replay is the reference.
    func start(trips: Int, rounds: Int) throws -> [StartRow] {
        let local = directory("start-directory")
        progress("writing SampleTrips-\(trips) to a directory store (not timed)")
        var write = task(.directoryWriter, trips: trips)
        write.socket = nil
        write.directory = local
        write.endTrip = trips
        write.tripsPerSave = SampleTripsDataSet.tripsPerSave
        _ = try ChildProcesses.run(write)

        let stores = ["start-checkpoint", "start-replay"]
        for store in stores {
            progress("copying it up to store '\(store)' (not timed)")
            _ = try server.copy(directory: URL(fileURLWithPath: local, isDirectory: true), toStore: store)
        }
        progress("writing a checkpoint of store 'start-checkpoint' (not timed)")
        var checkpoint = task(.checkpoint, trips: trips)
        checkpoint.store = "start-checkpoint"
        checkpoint.directory = directory("checkpoint-copy")
        let written = try ChildProcesses.run(checkpoint)
        let checkpoints = try stores.map { store in
            try Server.integer(
                "SELECT count(*) FROM logbook_checkpoints WHERE store = '\(store)'",
                socket: socket,
                database: database
            )
        }

        var rows: [StartRow] = []
        let variants: [(String, String?)] = [
            ("PostgreSQL, empty copy, from a checkpoint", "start-checkpoint"),
            ("PostgreSQL, empty copy, by replay", "start-replay"),
            ("directory (reference), by replay", nil),
        ]
        for (title, store) in variants {
            var answers: [ChildAnswer] = []
            for round in 1...rounds {
                progress("\(title), round \(round)")
                var screen = task(.firstScreen, trips: trips)
                if let store {
                    screen.store = store
                    screen.directory = directory("copy-\(store)-\(round)")
                } else {
                    screen.socket = nil
                    screen.directory = local
                }
                answers.append(try ChildProcesses.run(screen))
                if let copy = screen.directory, store != nil {
                    try? FileManager.default.removeItem(atPath: copy)
                }
            }
            var row = StartRow(title: title, answers: answers)
            if let store, let index = stores.firstIndex(of: store) { row.checkpointRows = checkpoints[index] }
            rows.append(row)
        }
        let digests = Set(rows.flatMap { $0.answers.map(\.digest) })
        if digests.count > 1 { rows[0].check = "the starts showed different first screens" }
        if checkpoints[0] == 0 {
            rows[0].check = "no checkpoint row was written (checkpoint took \(written.seconds) s)"
        }
        if checkpoints[1] != 0 { rows[1].check = "the replay store has \(checkpoints[1]) checkpoint rows" }
        return rows
    }
}
