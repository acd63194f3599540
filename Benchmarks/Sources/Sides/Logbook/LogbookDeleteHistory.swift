import BenchmarkHarness
import Foundation
import Logbook
import SampleTrips

// W9 on the Logbook side: `deleteHistory` on the edited store.
extension LogbookWorkloads {
    /// Opens the edited store and counts its objects (not timed); then, timed, deletes its
    /// history up to the last save with `context.deleteHistory(HistoryDescriptor<
    /// DefaultHistoryTransaction>())`, which folds the log into a compaction base and returns
    /// once the base is synced and renamed into place and the replaced files are removed. The
    /// container is then released, the store's files measured, and the store opened again in a
    /// new container whose trips are fetched and touched with their bucket lists and
    /// accommodations: those counts are the result's `observed`, and they must equal the counts
    /// before. The result's peak RSS is the process's when the container of the deletion is
    /// released, before the reopen loads every object.
    public func w9DeleteHistory(store: URL) throws -> WorkloadResult {
        let before = FileBytes.directorySizes(store, kind: Self.fileKind)
        let (timing, counted) = try Self.deleteHistory(store)
        let peak = ProcessMemory.peakResidentBytes()
        let after = FileBytes.directorySizes(store, kind: Self.fileKind)
        let loaded = try Self.load(ModelContext(try Self.container(store)))
        guard loaded.counts == counted else {
            throw HarnessError(
                "after deleteHistory the store holds \(loaded.counts); before, \(counted)",
                path: store.path
            )
        }
        var result = WorkloadResult(
            timing: timing,
            items: counted.total,
            unit: "objects",
            observed: loaded.counts,
            digest: loaded.digest
        )
        result.storeBytes = StoreBytes(before: before, after: after)
        result.peakResidentBytes = peak
        return result
    }

    /// Opens the store, counts each entity's objects, and times the deletion of its history
    /// up to the last save; the container is released before this returns.
    static func deleteHistory(_ store: URL) throws -> (Timing, ObjectCounts) {
        let container = try container(store)
        let context = ModelContext(container)
        let counted = ObjectCounts(
            trips: try context.fetchCount(FetchDescriptor<Trip>()),
            bucketListItems: try context.fetchCount(FetchDescriptor<BucketListItem>()),
            livingAccommodations: try context.fetchCount(FetchDescriptor<LivingAccommodation>())
        )
        let timed = try Stopwatch.time {
            try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        }
        return (timed.timing, counted)
    }

    /// The kind of a store file, by its path in the store (see the `OnDiskFormat` article):
    /// the segments, the base, the fence, the checkpoints, and the rest ("other": the lock file,
    /// the durable record, and external values or quarantined bytes if there were any).
    static func fileKind(_ path: String) -> String {
        if path.hasSuffix(".checkpoint") { return "checkpoints" }
        if path.hasSuffix(".base") { return "base" }
        if path == "00000000000000000000.log" { return "fence" }
        if path.hasSuffix(".log") { return "segments" }
        return "other"
    }
}
