import Logging

/// When an append reaches the disk.
package enum LogDurability: Sendable, Hashable {
    /// An append returns only after `fdatasync` of the segment, and `fsync` of the directory when
    /// the append created a segment.
    case durable
    /// Flushing is left to the operating system: a crash of the machine (not of the process) can
    /// lose the latest appends, never the integrity of the earlier ones.
    case relaxed
}

/// How much of the log an open checks before it accepts appends.
package enum LogOpenVerification: Sendable, Hashable {
    /// Every batch of every segment: framing, checksum and sequence continuity.
    case full
    /// The last segment only. Earlier segments are checked when they are read.
    case lastSegment
}

/// The settings of an ``EventLog``.
package struct LogConfiguration: Sendable {
    /// The size past which a segment rolls: a new segment starts when the next batch would make
    /// the current one larger. A single batch larger than this gets a segment of its own.
    package var segmentSize: Int = 64 << 20
    /// The largest uncompressed or stored payload a batch may have, written or read. Every length
    /// read from disk is checked against it before anything is allocated.
    package var maximumBatchSize: Int = 64 << 20
    package var durability: LogDurability = .durable
    /// Whether payloads are LZ4-compressed when that makes them smaller.
    package var compression = true
    package var verification: LogOpenVerification = .full
    /// Whether opening a missing directory creates an empty store there.
    package var createIfMissing = true
    /// How long an open waits for the writer lock before it reports the store as locked.
    package var lockTimeout = 0.25
    /// What an open does with a damaged (not torn) batch at the end of the log.
    package var damagedTailPolicy: DamagedTailPolicy = .refuse
    /// The bytes appended after which the writer records its durable point again
    /// (``DurableRecord``); it also records it when it closes.
    package var durableRecordBytes = 16 << 20
    /// The appends after which the writer records its durable point again.
    package var durableRecordAppends = 1024
    /// Where recovery reports what it cut off.
    package var logger = Logger(label: "Logbook", factory: { _ in SwiftLogNoOpLogHandler() })
    package var syscalls: any Syscalls = PosixSyscalls()
    /// The log this one copies, when the store lives in a database server: every append goes
    /// there first (see ``ExternalLog``).
    package var external: (any ExternalLog)?
    /// The size from which the values of `.externalStorage` attributes are kept in files beside
    /// the log (``ExternalFiles``); a log with an ``external`` log keeps every value inline.
    package var externalStorageThreshold = 16 << 10

    package init() {}
}
