import BenchmarkHarness
import Foundation
import GRDB

// W9 on the GRDB side: `VACUUM` on the edited database.
extension GRDBWorkloads {
    /// SQLite keeps no history: an `update` rewrites the row in place (through the WAL, which
    /// checkpoints fold into the database file). The operation closest to Logbook's
    /// `deleteHistory`, the one that gives space back, is `VACUUM`, which rebuilds the database
    /// file without free pages.
    ///
    /// Opens the pool, counts the rows and checkpoints the WAL in `TRUNCATE` mode, which empties
    /// it, so that the database file holds every row (not timed); the files are measured then.
    /// Timed: `pool.vacuum()`, a `TRUNCATE` checkpoint again (a `VACUUM` in WAL mode writes the
    /// rebuilt database into the WAL: the checkpoint moves it into the file, synced, and empties
    /// the WAL, which a close alone leaves at its full size) and `pool.close()`. The files are
    /// then measured, and the database opened again and counted: those counts, which must equal
    /// the counts before, are the result's `observed`. The result's peak RSS is the process's
    /// at the end of the timed part.
    public func w9DeleteHistory(store: URL) throws -> WorkloadResult {
        let path = Self.databasePath(in: store)
        let pool = try DatabasePool(path: path)
        let counted = try pool.read { db in try Self.counts(db, tripTable: TripRecord.databaseTableName) }
        _ = try pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        let before = FileBytes.directorySizes(store, kind: Self.fileKind)
        let timing = try Stopwatch.time {
            try pool.vacuum()
            _ = try pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
            try pool.close()
        }
        .timing
        let peak = ProcessMemory.peakResidentBytes()
        let after = FileBytes.directorySizes(store, kind: Self.fileKind)
        let reopened = try DatabasePool(path: path)
        let observed = try reopened.read { db in try Self.counts(db, tripTable: TripRecord.databaseTableName) }
        try reopened.close()
        guard observed == counted else {
            throw HarnessError("after VACUUM the database holds \(observed); before, \(counted)", path: path)
        }
        var result = WorkloadResult(timing: timing, items: counted.total, unit: "rows", observed: observed)
        result.storeBytes = StoreBytes(before: before, after: after)
        result.peakResidentBytes = peak
        return result
    }

    /// The kind of a file of the store directory: the database file, its WAL and its
    /// shared-memory index.
    static func fileKind(_ path: String) -> String {
        if path.hasSuffix("-wal") { return "WAL" }
        if path.hasSuffix("-shm") { return "shm" }
        return "database"
    }
}
