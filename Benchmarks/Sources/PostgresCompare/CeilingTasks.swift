import BenchmarkHarness
import Foundation
import PostgresNIO
import SampleTripsData

/// The engine's own ceiling: the same data inserted with plain prepared INSERTs through
/// postgres-nio, from one process, on one connection, with no library in between.
enum CeilingTasks {
    /// One row per object in three tables (trips, bucket-list items, accommodations, with
    /// primary keys, the unique trip name and the foreign keys), one transaction per
    /// `tripsPerSave` trips: the relational way to store the same objects.
    static func perObject(_ task: ChildTask) throws -> ChildAnswer {
        let dataSet = SampleTripsDataSet(tripCount: task.tripCount, seed: task.seed)
        let trips = (task.firstTrip..<task.endTrip).map { dataSet.trip(at: $0) }
        return try Server.blocking {
            let connection = try await Server.connect(task)
            defer { Task { try? await connection.close() } }
            try await Server.execute(CeilingSchema.perObject, on: connection)
            ChildCommand.waitForStart(task)
            var answer = ChildAnswer()
            let cpu = LogbookTasks.processorSeconds()
            answer.startNanoseconds = WallClock.nanoseconds()
            var tripID = Int64(task.firstTrip)
            var itemID = Int64(task.firstTrip * SampleTripsDataSet.bucketListItemsPerTrip)
            var start = 0
            while start < trips.count {
                let end = min(start + task.tripsPerSave, trips.count)
                let saveStart = ContinuousClock.now
                try await connection.withTransaction(logger: Server.logger) { connection in
                    for data in trips[start..<end] {
                        tripID += 1
                        for try await _ in try await connection.execute(
                            InsertTrip(id: tripID, trip: data),
                            logger: Server.logger
                        ) {}
                        for item in data.bucketList {
                            itemID += 1
                            for try await _ in try await connection.execute(
                                InsertItem(id: itemID, tripID: tripID, item: item),
                                logger: Server.logger
                            ) {}
                        }
                        if let accommodation = data.livingAccommodation {
                            for try await _ in try await connection.execute(
                                InsertAccommodation(tripID: tripID, accommodation: accommodation),
                                logger: Server.logger
                            ) {}
                        }
                    }
                }
                answer.saveSeconds.append(Stopwatch.seconds(saveStart.duration(to: .now)))
                answer.saves += 1
                start = end
            }
            answer.endNanoseconds = WallClock.nanoseconds()
            answer.cpuSeconds = LogbookTasks.processorSeconds() - cpu
            answer.objects = trips.reduce(0) { $0 + 1 + $1.bucketList.count + ($1.livingAccommodation == nil ? 0 : 1) }
            return answer
        }
    }

    /// One row per save: the frames of the task's Logbook store, read from `logbook_batches`
    /// before the time starts, inserted again into a table of the same shape, each in a
    /// transaction of its own (as each Logbook save is). Same rows, same bytes; no catch-up, no
    /// NOTIFY, no encoding.
    static func perSave(_ task: ChildTask) throws -> ChildAnswer {
        guard let store = task.store else { throw HarnessError("the per-save ceiling copies a store's rows") }
        return try Server.blocking {
            let connection = try await Server.connect(task)
            defer { Task { try? await connection.close() } }
            try await Server.execute(CeilingSchema.perSave, on: connection)
            var frames: [(Int64, Int64, ByteBuffer)] = []
            let rows = try await connection.query(
                "SELECT first_sequence, last_sequence, frame FROM logbook_batches WHERE store = \(store) ORDER BY first_sequence",
                logger: Server.logger
            )
            for try await (first, last, frame) in rows.decode((Int64, Int64, ByteBuffer).self) {
                frames.append((first, last, frame))
            }
            ChildCommand.waitForStart(task)
            var answer = ChildAnswer()
            let cpu = LogbookTasks.processorSeconds()
            answer.startNanoseconds = WallClock.nanoseconds()
            for (first, last, frame) in frames {
                let saveStart = ContinuousClock.now
                for try await _ in try await connection.execute(
                    InsertFrame(store: store, firstSequence: first, lastSequence: last, frame: frame),
                    logger: Server.logger
                ) {}
                answer.saveSeconds.append(Stopwatch.seconds(saveStart.duration(to: .now)))
                answer.saves += 1
                answer.objects += Int(last - first + 1)
            }
            answer.endNanoseconds = WallClock.nanoseconds()
            answer.cpuSeconds = LogbookTasks.processorSeconds() - cpu
            return answer
        }
    }
}

/// The ceiling's tables, made anew (dropped first) before each run.
enum CeilingSchema {
    static let perObject = [
        "DROP TABLE IF EXISTS ceiling_accommodation, ceiling_item, ceiling_trip",
        """
        CREATE TABLE ceiling_trip (id bigint PRIMARY KEY, name text NOT NULL UNIQUE, destination text NOT NULL,
            start_date timestamptz NOT NULL, end_date timestamptz NOT NULL)
        """,
        """
        CREATE TABLE ceiling_item (id bigint PRIMARY KEY, trip_id bigint NOT NULL REFERENCES ceiling_trip (id),
            title text NOT NULL, details text NOT NULL, has_reservation boolean NOT NULL, is_in_plan boolean NOT NULL)
        """,
        """
        CREATE TABLE ceiling_accommodation (trip_id bigint PRIMARY KEY REFERENCES ceiling_trip (id),
            address text NOT NULL, place_name text NOT NULL)
        """,
    ]
    static let perSave = [
        "DROP TABLE IF EXISTS ceiling_batches",
        """
        CREATE TABLE ceiling_batches (store text NOT NULL, first_sequence bigint NOT NULL,
            last_sequence bigint NOT NULL, frame bytea NOT NULL, PRIMARY KEY (store, first_sequence))
        """,
    ]
}

struct InsertTrip: PostgresPreparedStatement {
    static let sql =
        "INSERT INTO ceiling_trip (id, name, destination, start_date, end_date) VALUES ($1, $2, $3, $4, $5)"
    static let bindingDataTypes: [PostgresDataType] = [.int8, .text, .text, .timestamptz, .timestamptz]
    typealias Row = ()
    let id: Int64
    let trip: TripData

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 5)
        bindings.append(id)
        bindings.append(trip.name)
        bindings.append(trip.destination)
        bindings.append(trip.startDate)
        bindings.append(trip.endDate)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {}
}

struct InsertItem: PostgresPreparedStatement {
    static let sql = """
        INSERT INTO ceiling_item (id, trip_id, title, details, has_reservation, is_in_plan) VALUES ($1, $2, $3, $4, $5, $6)
        """
    static let bindingDataTypes: [PostgresDataType] = [.int8, .int8, .text, .text, .bool, .bool]
    typealias Row = ()
    let id: Int64
    let tripID: Int64
    let item: BucketListItemData

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 6)
        bindings.append(id)
        bindings.append(tripID)
        bindings.append(item.title)
        bindings.append(item.details)
        bindings.append(item.hasReservation)
        bindings.append(item.isInPlan)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {}
}

struct InsertAccommodation: PostgresPreparedStatement {
    static let sql = "INSERT INTO ceiling_accommodation (trip_id, address, place_name) VALUES ($1, $2, $3)"
    static let bindingDataTypes: [PostgresDataType] = [.int8, .text, .text]
    typealias Row = ()
    let tripID: Int64
    let accommodation: LivingAccommodationData

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 3)
        bindings.append(tripID)
        bindings.append(accommodation.address)
        bindings.append(accommodation.placeName)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {}
}

struct InsertFrame: PostgresPreparedStatement {
    static let sql = "INSERT INTO ceiling_batches (store, first_sequence, last_sequence, frame) VALUES ($1, $2, $3, $4)"
    static let bindingDataTypes: [PostgresDataType] = [.text, .int8, .int8, .bytea]
    typealias Row = ()
    let store: String
    let firstSequence: Int64
    let lastSequence: Int64
    let frame: ByteBuffer

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 4)
        bindings.append(store)
        bindings.append(firstSequence)
        bindings.append(lastSequence)
        bindings.append(frame)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {}
}
