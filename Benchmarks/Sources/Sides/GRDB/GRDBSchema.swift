import GRDB

/// The SampleTrips schema as `DatabaseMigrator` migrations.
///
/// The current schema can be reached two ways, which end with the same tables and indexes:
/// ``current`` creates it at once (W1), and ``throughVersions`` goes V1 → V2 → V3 (W4), as
/// the talk's three schema versions do: V2 makes trip names unique, V3 renames the date columns.
enum GRDBSchema {
    /// The current schema in one migration.
    static var current: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v3") { db in
            try createTripTable(db, startDate: "startDate", endDate: "endDate")
            try db.create(indexOn: "trip", columns: ["name"], options: .unique)
            try createChildTables(db)
        }
        return migrator
    }

    /// The V1 schema only: what the first release of the app shipped.
    static var v1: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        registerV1(in: &migrator)
        return migrator
    }

    /// V1, then the migrations that bring a V1 database to the current schema.
    ///
    /// Both later migrations run with `.immediate` foreign key checks. With the default
    /// `.deferred`, GRDB turns foreign keys off while a migration runs, so deleting a duplicate
    /// trip would not cascade to its accommodation and the final check would fail.
    static var throughVersions: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        registerV1(in: &migrator)
        migrator.registerMigration("v2", foreignKeyChecks: .immediate) { db in
            // Trips that share a name are folded into the newest one, as the unique upsert of
            // the Logbook side (and SwiftData) does: the newest trip's attributes and
            // accommodation win, and the bucket lists are merged. Older accommodations go with
            // their trips through the cascade.
            try db.execute(
                sql: """
                    CREATE TEMP TABLE tripMerge(loserId INTEGER PRIMARY KEY, survivorId INTEGER NOT NULL);
                    INSERT INTO tripMerge(loserId, survivorId)
                        SELECT trip.id, newest.id
                        FROM trip
                        JOIN (SELECT name, MAX(id) AS id FROM trip GROUP BY name HAVING COUNT(*) > 1) AS newest
                            ON newest.name = trip.name
                        WHERE trip.id <> newest.id;
                    UPDATE bucketListItem
                        SET tripId = (SELECT survivorId FROM tripMerge WHERE loserId = bucketListItem.tripId)
                        WHERE tripId IN (SELECT loserId FROM tripMerge);
                    DELETE FROM trip WHERE id IN (SELECT loserId FROM tripMerge);
                    DROP TABLE tripMerge;
                    """
            )
            try db.create(indexOn: "trip", columns: ["name"], options: .unique)
        }
        migrator.registerMigration("v3", foreignKeyChecks: .immediate) { db in
            try db.alter(table: "trip") { table in
                table.rename(column: "start_date", to: "startDate")
                table.rename(column: "end_date", to: "endDate")
            }
        }
        return migrator
    }

    // MARK: - Tables

    private static func registerV1(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v1") { db in
            try createTripTable(db, startDate: "start_date", endDate: "end_date")
            try createChildTables(db)
        }
    }

    private static func createTripTable(_ db: Database, startDate: String, endDate: String) throws {
        try db.create(table: "trip") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("name", .text).notNull()
            table.column("destination", .text).notNull()
            table.column(startDate, .datetime).notNull()
            table.column(endDate, .datetime).notNull()
        }
    }

    private static func createChildTables(_ db: Database) throws {
        try db.create(table: "bucketListItem") { table in
            table.autoIncrementedPrimaryKey("id")
            table.belongsTo("trip", onDelete: .cascade).notNull()
            table.column("title", .text).notNull()
            table.column("details", .text).notNull()
            table.column("hasReservation", .boolean).notNull()
            table.column("isInPlan", .boolean).notNull()
        }
        try db.create(table: "livingAccommodation") { table in
            table.autoIncrementedPrimaryKey("id")
            table.belongsTo("trip", onDelete: .cascade).notNull().unique()
            table.column("address", .text).notNull()
            table.column("placeName", .text).notNull()
        }
    }
}
