/// What one timed workload did: how long, how many items, and what the harness adds around it.
public struct WorkloadResult: Codable, Hashable, Sendable {
    /// Which way of doing the workload, when a side measures several (`nil` for the only one).
    public var variant: String?
    /// Wall-clock seconds of the timed part.
    public var seconds: Double
    /// Processor seconds of the process over the timed part, when the side measured them.
    public var cpuSeconds: Double?
    /// How many items the timed part handled (rows, events, objects, lookups, queries).
    public var items: Int
    /// The unit of ``items``, plural: "rows", "events", "objects", "lookups", "queries".
    public var unit: String
    /// The objects the workload saw, when it loads a whole store; the harness checks them.
    public var observed: ObjectCounts?
    /// A digest of the values the workload read, so that the reading cannot be optimised away.
    /// The sides need not agree on it.
    public var digest: UInt64?
    /// Bytes the workload moved, for MB/s; filled in by the harness (see `README.md`).
    public var bytes: Int?
    /// The peak resident memory of the process that ran the workload; filled in by the harness
    /// unless the side reports the peak at the end of its timed part (W9).
    public var peakResidentBytes: Int?
    /// The resident memory by kind at the end of the timed part, while what it loaded is still
    /// alive, when the side took it (W2).
    public var residentAtEnd: ResidentSplit?
    /// The store's bytes before and after the timed part, when the workload changes its size
    /// (W9).
    public var storeBytes: StoreBytes?

    public init(
        variant: String? = nil,
        seconds: Double,
        items: Int,
        unit: String,
        observed: ObjectCounts? = nil,
        digest: UInt64? = nil
    ) {
        self.variant = variant
        self.seconds = seconds
        self.items = items
        self.unit = unit
        self.observed = observed
        self.digest = digest
    }

    /// A result timed by ``Stopwatch/time(_:)``.
    public init(
        variant: String? = nil,
        timing: Timing,
        items: Int,
        unit: String,
        observed: ObjectCounts? = nil,
        digest: UInt64? = nil
    ) {
        self.init(
            variant: variant,
            seconds: timing.seconds,
            items: items,
            unit: unit,
            observed: observed,
            digest: digest
        )
        cpuSeconds = timing.cpuSeconds
    }

    /// Items per second, or `nil` when nothing was timed.
    public var itemsPerSecond: Double? {
        seconds > 0 ? Double(items) / seconds : nil
    }

    /// Decimal megabytes per second, or `nil` when the workload has no byte count.
    public var megabytesPerSecond: Double? {
        guard let bytes, seconds > 0 else { return nil }
        return Double(bytes) / 1_000_000 / seconds
    }
}

/// How many objects of each entity a store holds.
public struct ObjectCounts: Codable, Hashable, Sendable, CustomStringConvertible {
    public var trips: Int
    public var bucketListItems: Int
    public var livingAccommodations: Int

    public init(trips: Int, bucketListItems: Int, livingAccommodations: Int) {
        self.trips = trips
        self.bucketListItems = bucketListItems
        self.livingAccommodations = livingAccommodations
    }

    /// All objects together.
    public var total: Int { trips + bucketListItems + livingAccommodations }

    public var description: String {
        "\(trips) trips, \(bucketListItems) bucket-list items, \(livingAccommodations) accommodations"
    }
}

/// A store's bytes before and after a workload, by kind of file.
public struct StoreBytes: Codable, Hashable, Sendable {
    /// Bytes by kind of file ("segments", "base", "database", …) before the timed part.
    public var before: [String: Int]
    /// Bytes by kind of file after the timed part, the store closed.
    public var after: [String: Int]

    public init(before: [String: Int], after: [String: Int]) {
        self.before = before
        self.after = after
    }

    /// All files before the timed part.
    public var totalBefore: Int { before.values.reduce(0, +) }

    /// All files after the timed part.
    public var totalAfter: Int { after.values.reduce(0, +) }
}
