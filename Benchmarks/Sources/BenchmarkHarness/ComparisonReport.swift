import Foundation

/// Everything one run of the comparison measured, as printed and as written with `--json`.
public struct ComparisonReport: Codable, Sendable {
    /// When the run started, ISO 8601.
    public var date: String
    public var machine: MachineInfo
    /// The data set: SampleTrips-`tripCount` with `seed`.
    public var tripCount: Int
    public var seed: UInt64
    /// Library versions, one line per side that ran.
    public var versions: [String]
    public var entries: [Entry]
    public var lz4: [LZ4Figure]
    public var sequentialReads: [SequentialReadFigure]
    /// Random reads in a buffer far larger than the caches; `nil` in reports written before
    /// it was measured, or when the reference figures were skipped.
    public var memoryLatency: MemoryLatencyFigure?
    /// Load averages (1, 5, 15 minutes) when the run started and ended: other work on the
    /// machine shows here.
    public var loadAtStart: String = ""
    public var loadAtEnd: String = ""
    /// Remarks printed under the table, such as which side has no implementation yet.
    public var notes: [String]
    /// W4's own target measured again in pairs of fresh processes, run alternately: Logbook's
    /// migration of a copy of the V1 store, and its open of the V3 store (W2's "open only").
    public var migrationPairs: [MigrationPair] = []
    /// Each round's ratio of every ``Target`` whose workload ran in rounds, by the target's
    /// title: the figures the target is judged by (their median).
    public var targetRounds: [String: [Double]] = [:]

    /// One migration and one V3 open, in processes started one after the other.
    public struct MigrationPair: Codable, Sendable {
        public var migrationSeconds: Double
        public var openSeconds: Double

        public init(migrationSeconds: Double, openSeconds: Double) {
            self.migrationSeconds = migrationSeconds
            self.openSeconds = openSeconds
        }

        public var ratio: Double { migrationSeconds / openSeconds }
    }

    public init(date: String, machine: MachineInfo, tripCount: Int, seed: UInt64) {
        self.date = date
        self.machine = machine
        self.tripCount = tripCount
        self.seed = seed
        versions = []
        entries = []
        lz4 = []
        sequentialReads = []
        notes = []
    }

    /// One cell group of the table: a side's result for a workload, or why there is none.
    public struct Entry: Codable, Sendable {
        public var workload: WorkloadID
        public var side: Side
        public var measurement: WorkloadResult?
        /// Why there is no measurement: not implemented yet, or the error the workload threw.
        public var missing: String?

        public init(workload: WorkloadID, side: Side, measurement: WorkloadResult?, missing: String? = nil) {
            self.workload = workload
            self.side = side
            self.measurement = measurement
            self.missing = missing
        }
    }

    /// The first measurement of `side` for `workload`: the one ratios use.
    public func headline(_ workload: WorkloadID, _ side: Side) -> WorkloadResult? {
        entries.first { $0.workload == workload && $0.side == side && $0.measurement != nil }?.measurement
    }
}
