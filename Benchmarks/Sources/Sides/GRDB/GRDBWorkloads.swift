import BenchmarkHarness
import Foundation
import GRDB
import SampleTripsData

/// The SampleTrips workloads done with GRDB as its documentation teaches: Codable records,
/// a `DatabasePool` (WAL, `synchronous = NORMAL`, GRDB's defaults), migrations through
/// `DatabaseMigrator`, one `write` transaction per 1,000 trips, associations for loading
/// relationships, the query interface for queries, and the JSON dump format for dumps.
///
/// The database of a store directory is the file `trips.sqlite` in it.
public struct GRDBWorkloads: Workloads {
    public static let side = Side.grdb

    public static var versionDescription: String {
        let sqlite = (try? DatabaseQueue().read { try String.fetchOne($0, sql: "SELECT sqlite_version()") }) ?? nil
        return "GRDB 7.10.0: Codable records, DatabasePool (WAL, synchronous NORMAL); SQLite \(sqlite ?? "unknown")"
    }

    public init() {}

    // MARK: - W1

    /// Inserts with GRDB's default `synchronous = NORMAL` (the headline, and the store the later
    /// workloads read), then again with `synchronous = FULL` into a scratch database that is
    /// removed afterwards. In WAL mode only FULL syncs the log at every commit; NORMAL syncs at
    /// checkpoints, so a power cut can lose the last transactions (never corrupt the database).
    ///
    /// The time runs from opening the pool to closing it, which checkpoints the WAL into the
    /// database file: when it stops, every row is on disk.
    public func w1DurableAppend(_ trips: [TripData], tripsPerSave: Int, store: URL) throws -> [WorkloadResult] {
        let rows = trips.reduce(0) { $0 + 1 + $1.bucketList.count + ($1.livingAccommodation == nil ? 0 : 1) }
        let normal = try Self.append(trips, tripsPerSave: tripsPerSave, path: Self.databasePath(in: store), full: false)
        let scratch = store.appendingPathComponent("synchronous-full", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let full = try Self.append(trips, tripsPerSave: tripsPerSave, path: Self.databasePath(in: scratch), full: true)
        return [
            WorkloadResult(variant: "sync NORMAL", timing: normal, items: rows, unit: "rows"),
            WorkloadResult(variant: "sync FULL", timing: full, items: rows, unit: "rows"),
        ]
    }

    // MARK: - W2

    public static let w2Variants = [associations, groupedRequests]
    static let associations = "associations"
    static let groupedRequests = "3 requests, grouped"

    /// Opens the pool, fetches every trip with its bucket list and accommodation, and touches
    /// every record, in one of two ways a GRDB user writes it:
    ///
    /// - "associations": `TripRecord.including(all: TripRecord.bucketList)
    ///   .including(optional: TripRecord.livingAccommodation)` decoded as `TripInfo`, the way the
    ///   GRDB documentation teaches for a record and its relationships.
    /// - "3 requests, grouped": `fetchAll` of each table, then the children grouped by `tripId`
    ///   in dictionaries; less convenient, but faster and lighter.
    public func w2OpenAndLoad(store: URL, variant: String?) throws -> WorkloadResult {
        let path = Self.databasePath(in: store)
        let grouped = variant == Self.groupedRequests
        let timed = try Stopwatch.time {
            let pool = try DatabasePool(path: path)
            let trips = try pool.read { db in grouped ? try Self.loadAllGrouped(db) : try Self.loadAll(db) }
            let (counts, digest) = Self.touch(trips)
            return (pool: pool, trips: trips, counts: counts, digest: digest)
        }
        // The records stay alive until the time is taken, as a program's would.
        let loaded = timed.result
        let resident = ProcessMemory.residentSplit()
        withExtendedLifetime(loaded.trips) {}
        var result = WorkloadResult(
            variant: variant,
            timing: timed.timing,
            items: loaded.counts.total,
            unit: "objects",
            observed: loaded.counts,
            digest: loaded.digest
        )
        result.residentAtEnd = resident
        return result
    }

    // MARK: - W7 and W8

    /// Opens the pool and fetches the first screen with one request, as the GRDB documentation
    /// teaches for a record and its children: `TripRecord.including(all: TripRecord.bucketList)
    /// .order(startDate, name).limit(20)`; then touches each trip and its bucket list. The
    /// schema has no index on `startDate`, as the talk's has none: SQLite scans the trips.
    public func w7FirstScreen(store: URL) throws -> WorkloadResult {
        let path = Self.databasePath(in: store)
        let timed = try Stopwatch.time {
            let pool = try DatabasePool(path: path)
            let trips = try pool.read { db in
                let request = TripRecord.including(all: TripRecord.bucketList)
                    .order(TripRecord.Columns.startDate, TripRecord.Columns.name)
                    .limit(WorkloadID.firstScreenTrips)
                return try FirstScreenTrip.fetchAll(db, request)
            }
            var counts = ObjectCounts(trips: 0, bucketListItems: 0, livingAccommodations: 0)
            var digest = Digest()
            for info in trips {
                counts.trips += 1
                digest.add(info.trip.name)
                digest.add(info.trip.destination)
                digest.add(info.trip.startDate)
                for item in info.bucketList {
                    counts.bucketListItems += 1
                    digest.add(item.title)
                }
            }
            return (pool: pool, trips: trips, counts: counts, digest: digest.value)
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

    /// Changes every trip's destination `rounds` times: the trip records fetched once, then
    /// `update(db)` on each, one write transaction per 1,000 trips.
    public func w8PrepareEdits(store: URL, rounds: Int, variant: String?) throws -> WorkloadResult {
        let pool = try DatabasePool(path: Self.databasePath(in: store))
        var trips = try pool.read { db in try TripRecord.order(TripRecord.Columns.id).fetchAll(db) }
        let edits = try Stopwatch.time {
            for round in 1...max(1, rounds) {
                for start in stride(from: 0, to: trips.count, by: SampleTripsDataSet.tripsPerSave) {
                    let end = min(start + SampleTripsDataSet.tripsPerSave, trips.count)
                    try pool.write { db in
                        for index in start..<end {
                            trips[index].destination = "\(trips[index].destination.prefix(24)) \(round)"
                            try trips[index].update(db)
                        }
                    }
                }
            }
        }
        try pool.close()
        return WorkloadResult(
            variant: variant,
            timing: edits.timing,
            items: trips.count * max(1, rounds),
            unit: "edits"
        )
    }

    // MARK: - W3

    /// Looks each name up twice over, in one read transaction each time: through the query
    /// interface (`TripRecord.filter { $0.name == name }.fetchOne(db)`, the headline), and
    /// through a cached prepared statement.
    public func w3PointLookups(store: URL, names: [String]) throws -> [WorkloadResult] {
        let pool = try DatabasePool(path: Self.databasePath(in: store))
        let warmUp = Array(names.prefix(1_000))
        _ = try pool.read { db in try Self.lookUpThroughQueryInterface(warmUp, db) }
        let queryInterface = try Stopwatch.time {
            try pool.read { db in try Self.lookUpThroughQueryInterface(names, db) }
        }
        _ = try pool.read { db in try Self.lookUpThroughCachedStatement(warmUp, db) }
        let cachedStatement = try Stopwatch.time {
            try pool.read { db in try Self.lookUpThroughCachedStatement(names, db) }
        }
        for found in [queryInterface.result, cachedStatement.result] where found.count != names.count {
            throw HarnessError("GRDB found \(found.count) of \(names.count) trips by name")
        }
        return [
            WorkloadResult(
                variant: "query interface",
                timing: queryInterface.timing,
                items: names.count,
                unit: "lookups",
                digest: queryInterface.result.digest
            ),
            WorkloadResult(
                variant: "cached statement",
                timing: cachedStatement.timing,
                items: names.count,
                unit: "lookups",
                digest: cachedStatement.result.digest
            ),
        ]
    }

    /// `TripRecord.filter { $0.destination == destination }.order(\.startDate).fetchAll(db)` for
    /// each destination, in one read transaction. There is no index on `destination`, as in the
    /// schema of the talk.
    public func w3PredicateFetch(store: URL, destinations: [String]) throws -> WorkloadResult {
        let pool = try DatabasePool(path: Self.databasePath(in: store))
        let timed = try Stopwatch.time {
            try pool.read { db in
                var digest = Digest()
                for destination in destinations {
                    digest.add(Int(truncatingIfNeeded: try Self.tripsGoing(to: destination, db)))
                }
                return digest.value
            }
        }
        return WorkloadResult(timing: timed.timing, items: destinations.count, unit: "queries", digest: timed.result)
    }

    // MARK: - W4

    public func w4PrepareV1(_ trips: [TripDataV1], tripsPerSave: Int, store: URL) throws {
        let pool = try DatabasePool(path: Self.databasePath(in: store))
        try GRDBSchema.v1.migrate(pool)
        for start in stride(from: 0, to: trips.count, by: tripsPerSave) {
            let batch = trips[start..<min(start + tripsPerSave, trips.count)]
            try pool.write { db in
                for trip in batch {
                    let record = try TripRecordV1(trip).inserted(db)
                    guard let tripId = record.id else { preconditionFailure("an inserted record has an id") }
                    try Self.insertChildren(of: trip.bucketList, trip.livingAccommodation, tripId: tripId, db)
                }
            }
        }
        try pool.close()
    }

    /// Opens the V1 database and runs the V2 (de-duplicate, unique index) and V3 (rename the
    /// date columns) migrations of ``GRDBSchema/throughVersions``.
    public func w4OpenThroughMigration(store: URL) throws -> [WorkloadResult] {
        let path = Self.databasePath(in: store)
        let v1Rows = try DatabaseQueue(path: path, configuration: Self.readOnly).read { db in
            try Self.counts(db, tripTable: "trip").total
        }
        let timed = try Stopwatch.time {
            let pool = try DatabasePool(path: path)
            try GRDBSchema.throughVersions.migrate(pool)
            return pool
        }
        let counts = try timed.result.read { db in
            let unique = try db.indexes(on: "trip").contains { $0.isUnique && $0.columns == ["name"] }
            guard unique, try db.columns(in: "trip").contains(where: { $0.name == "startDate" }) else {
                throw HarnessError("the migrated GRDB schema lacks the unique name index or the renamed columns")
            }
            return try Self.counts(db, tripTable: "trip")
        }
        return [WorkloadResult(timing: timed.timing, items: v1Rows, unit: "rows", observed: counts)]
    }

    // MARK: - W5

    /// GRDB's JSON dump of each table (`dumpTables([table], format: .json())`): one JSON array
    /// per table, one row per line.
    public func w5DumpNDJSON(store: URL, output: URL) throws -> WorkloadResult {
        let pool = try DatabasePool(path: Self.databasePath(in: store))
        let rows = try pool.read { db in try Self.counts(db, tripTable: "trip").total }
        let writer = try BufferedFileWriter(url: output)
        let timed = try Stopwatch.time {
            for table in [
                TripRecord.databaseTableName, BucketListItemRecord.databaseTableName,
                LivingAccommodationRecord.databaseTableName,
            ] {
                try pool.dumpTables([table], format: .json(), to: writer)
            }
            try writer.finish()
        }
        return WorkloadResult(timing: timed.timing, items: rows, unit: "rows")
    }

    // MARK: - Building blocks (shared with the LogbookVsGRDB benchmark target)

    /// The database file of a store directory.
    package static func databasePath(in store: URL) -> String {
        store.appendingPathComponent("trips.sqlite").path
    }

    /// Creates the current schema and inserts `trips`, one transaction per `tripsPerSave`.
    ///
    /// - Returns: The time from opening the pool to closing it.
    package static func append(_ trips: [TripData], tripsPerSave: Int, path: String, full: Bool) throws -> Timing {
        try Stopwatch.time {
            let pool = try DatabasePool(path: path)
            try pool.writeWithoutTransaction { db in
                if full { try db.execute(sql: "PRAGMA synchronous = FULL") }
                // 1 is NORMAL, 2 is FULL: check that the level measured is the level named.
                guard try Int.fetchOne(db, sql: "PRAGMA synchronous") == (full ? 2 : 1) else {
                    throw HarnessError("SQLite did not take the synchronous level", path: path)
                }
            }
            try GRDBSchema.current.migrate(pool)
            for start in stride(from: 0, to: trips.count, by: tripsPerSave) {
                let batch = trips[start..<min(start + tripsPerSave, trips.count)]
                try pool.write { db in
                    for trip in batch {
                        let record = try TripRecord(trip).inserted(db)
                        guard let tripId = record.id else { preconditionFailure("an inserted record has an id") }
                        try insertChildren(of: trip.bucketList, trip.livingAccommodation, tripId: tripId, db)
                    }
                }
            }
            try pool.close()
        }.timing
    }

    /// Loads every trip with its relationships and touches every record.
    package static func loadAndTouchAll(_ db: Database) throws -> (counts: ObjectCounts, digest: UInt64) {
        touch(try loadAll(db))
    }

    package struct LookupResult: Sendable {
        package var count = 0
        package var digest: UInt64 = 0
    }

    package static func lookUpThroughQueryInterface(_ names: [String], _ db: Database) throws -> LookupResult {
        var result = LookupResult()
        var digest = Digest()
        for name in names {
            if let trip = try TripRecord.filter({ $0.name == name }).fetchOne(db) {
                result.count += 1
                digest.add(trip.startDate)
            }
        }
        result.digest = digest.value
        return result
    }

    package static func lookUpThroughCachedStatement(_ names: [String], _ db: Database) throws -> LookupResult {
        var result = LookupResult()
        var digest = Digest()
        for name in names {
            let statement = try db.cachedStatement(sql: "SELECT * FROM trip WHERE name = ?")
            if let trip = try TripRecord.fetchOne(statement, arguments: [name]) {
                result.count += 1
                digest.add(trip.startDate)
            }
        }
        result.digest = digest.value
        return result
    }

    /// Fetches the trips going to `destination`, sorted by start date.
    ///
    /// - Returns: A digest of the trips' count and start dates.
    package static func tripsGoing(to destination: String, _ db: Database) throws -> UInt64 {
        let trips = try TripRecord.filter { $0.destination == destination }.order(\.startDate).fetchAll(db)
        var digest = Digest()
        digest.add(trips.count)
        for trip in trips {
            digest.add(trip.startDate)
        }
        return digest.value
    }

    // MARK: - Internals

    static var readOnly: Configuration {
        var configuration = Configuration()
        configuration.readonly = true
        return configuration
    }

    static func insertChildren(
        of bucketList: [BucketListItemData],
        _ accommodation: LivingAccommodationData?,
        tripId: Int64,
        _ db: Database
    ) throws {
        for item in bucketList {
            _ = try BucketListItemRecord(item, tripId: tripId).inserted(db)
        }
        if let accommodation {
            _ = try LivingAccommodationRecord(accommodation, tripId: tripId).inserted(db)
        }
    }

    static func loadAll(_ db: Database) throws -> [TripInfo] {
        let request = TripRecord.including(all: TripRecord.bucketList)
            .including(optional: TripRecord.livingAccommodation)
        return try TripInfo.fetchAll(db, request)
    }

    static func loadAllGrouped(_ db: Database) throws -> [TripInfo] {
        let trips = try TripRecord.fetchAll(db)
        let bucketLists = Dictionary(grouping: try BucketListItemRecord.fetchAll(db), by: \.tripId)
        var accommodations: [Int64: LivingAccommodationRecord] = [:]
        for accommodation in try LivingAccommodationRecord.fetchAll(db) {
            accommodations[accommodation.tripId] = accommodation
        }
        return trips.map { trip in
            TripInfo(
                trip: trip,
                bucketList: trip.id.flatMap { bucketLists[$0] } ?? [],
                livingAccommodation: trip.id.flatMap { accommodations[$0] }
            )
        }
    }

    static func counts(_ db: Database, tripTable: String) throws -> ObjectCounts {
        ObjectCounts(
            trips: try Table(tripTable).fetchCount(db),
            bucketListItems: try BucketListItemRecord.fetchCount(db),
            livingAccommodations: try LivingAccommodationRecord.fetchCount(db)
        )
    }

    static func touch(_ trips: [TripInfo]) -> (ObjectCounts, UInt64) {
        var counts = ObjectCounts(trips: 0, bucketListItems: 0, livingAccommodations: 0)
        var digest = Digest()
        for info in trips {
            counts.trips += 1
            digest.add(info.trip.name)
            digest.add(info.trip.destination)
            digest.add(info.trip.startDate)
            digest.add(info.trip.endDate)
            for item in info.bucketList {
                counts.bucketListItems += 1
                digest.add(item.title)
                digest.add(item.details)
                digest.add(item.hasReservation)
                digest.add(item.isInPlan)
            }
            if let accommodation = info.livingAccommodation {
                counts.livingAccommodations += 1
                digest.add(accommodation.address)
                digest.add(accommodation.placeName)
            }
        }
        return (counts, digest.value)
    }
}
