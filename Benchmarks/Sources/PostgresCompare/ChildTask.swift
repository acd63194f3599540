import BenchmarkHarness
import Foundation

/// What the parent asks a child process of `postgres-compare` to do; passed as one JSON argument.
struct ChildTask: Codable, Sendable {
    enum Kind: String, Codable, Sendable {
        /// Append a share of the trips to a store kept in PostgreSQL, through Logbook.
        case postgresWriter
        /// Append the trips to a store in a directory, through Logbook.
        case directoryWriter
        /// Insert the trips with plain prepared INSERTs, one row per object.
        case ceilingPerObject
        /// Insert the frames of a store's rows again with a plain prepared INSERT, one row per save.
        case ceilingPerSave
        /// Save one trip at a time and note when each save returns.
        case lagWriter
        /// Follow the change feed and note when each of the lag writer's saves arrives.
        case lagFollower
        /// Open a store kept in PostgreSQL and write a checkpoint (`container.checkpoint()`).
        case checkpoint
        /// Open a store with an empty copy (or a directory store) and fetch the first screen.
        case firstScreen
    }

    var kind: Kind
    var tripCount: Int
    var seed: UInt64
    /// The server's socket directory.
    var socket: String?
    var database: String?
    /// The store's name on the server.
    var store: String?
    /// A store directory, or the container's copy of a store kept in PostgreSQL.
    var directory: String?
    /// The trips this process writes: indices `firstTrip..<endTrip` of the data set.
    var firstTrip = 0
    var endTrip = 0
    var tripsPerSave = 100
    /// Lag: the saves to make, and the pause after each.
    var saves = 0
    var pauseMicroseconds = 0
    /// Whether the parent starts the timed part (a line on stdin) once every child is ready.
    var waitsForStart = false
}

/// What a child process answers, on one stdout line after ``ChildAnswer/marker``.
struct ChildAnswer: Codable, Sendable {
    static let marker = "RESULT "
    /// The line a child prints once it is ready for the timed part.
    static let ready = "READY"

    /// `CLOCK_REALTIME` nanoseconds at the start and the end of the timed part.
    var startNanoseconds: Int64 = 0
    var endNanoseconds: Int64 = 0
    /// Processor seconds of the process over the timed part.
    var cpuSeconds = 0.0
    var saves = 0
    var objects = 0
    /// Seconds each save took, in order.
    var saveSeconds: [Double] = []
    /// Lag: per save index, when the save returned (writer) or arrived (follower), in
    /// `CLOCK_REALTIME` nanoseconds; 0 for a save the follower never saw.
    var instants: [Int64] = []
    /// First screen: trips and bucket-list items touched, and a digest of what was shown.
    var trips = 0
    var bucketListItems = 0
    var digest: UInt64 = 0
    var peakResidentBytes = 0
    var notes: [String] = []

    var seconds: Double { Double(endNanoseconds - startNanoseconds) / 1e9 }
}
