import Foundation
import Logging

/// Where and how a ``ModelContainer`` keeps its data.
///
/// ```swift
/// let configuration = ModelConfiguration(url: URL(fileURLWithPath: "/var/lib/trips/trips.store"))
/// let container = try ModelContainer(for: Trip.self, configurations: configuration)
///
/// let scratch = ModelConfiguration(isStoredInMemoryOnly: true)   // writes no file
/// ```
///
/// A store on disk is a directory (see <doc:OnDiskFormat>); it is created on first use.
///
/// A container given several configurations keeps each entity in the store of the one
/// configuration that holds it (see ``schema``), each store with its own options: a read-only
/// catalogue beside the user's store, a cache in memory beside data on disk.
///
/// ```swift
/// let user = ModelConfiguration("User", url: userStoreURL)
/// let cache = ModelConfiguration("Cache", schema: Schema([MapTile.self]), isStoredInMemoryOnly: true)
/// let container = try ModelContainer(for: Schema([Trip.self, MapTile.self]), configurations: [user, cache])
/// ```
///
/// ## Topics
///
/// ### Creating a configuration
/// - ``init(_:schema:url:allowsSave:durability:logger:)``
/// - ``init(_:schema:isStoredInMemoryOnly:allowsSave:logger:)``
///
/// ### Settings
/// - ``name``
/// - ``schema``
/// - ``url``
/// - ``isStoredInMemoryOnly``
/// - ``allowsSave``
/// - ``asOf``
/// - ``durability``
/// - ``Durability``
/// - ``damagedTailPolicy``
/// - ``logger``
/// - ``segmentSize``
/// - ``checkpointInterval``
/// - ``externalStorageThreshold``
public struct ModelConfiguration: Sendable {
    /// When a save reaches the disk.
    public enum Durability: Sendable, Hashable {
        /// `save()` returns once the batch is on disk (`fdatasync`, and `fsync` of the store
        /// directory when a segment file was created). The default.
        case durable
        /// `save()` returns once the batch is handed to the operating system. A crash of the
        /// process loses nothing; a crash of the machine can lose the latest saves, never the
        /// integrity of the earlier ones.
        case relaxed
    }

    /// The configuration's name, as SwiftData names configurations: `"default"` unless one is
    /// given. A store is found by its ``url``; the name tells the configurations of one
    /// container apart, so each of them needs its own (see
    /// ``ModelContainer/container(forConfigurationNamed:)``).
    public var name: String
    /// The entities this configuration's store holds, in a container of several
    /// configurations; `nil` for the configuration that holds every entity the others do not
    /// name.
    ///
    /// ```swift
    /// let user = ModelConfiguration("User", url: userStoreURL)
    /// let catalogue = ModelConfiguration(
    ///     "Catalogue", schema: Schema([Country.self]), url: catalogueURL, allowsSave: false)
    /// let container = try ModelContainer(
    ///     for: Schema([Trip.self, Country.self]), configurations: [user, catalogue])
    /// ```
    ///
    /// Every entity the schema names must be in the container's schema, and in no other
    /// configuration's (see <doc:ModelContainer#Several-stores-in-one-container>). A container
    /// of one configuration keeps all its models in its store whatever this schema names: the
    /// container's own schema is the one that counts.
    public var schema: Schema?
    /// The store directory; unused when ``isStoredInMemoryOnly`` is `true`.
    public var url: URL
    /// Whether the store lives in memory only and writes no file.
    public var isStoredInMemoryOnly: Bool
    /// Whether contexts may save.
    ///
    /// A container on disk that does not allow saving is a *read-only follower* of the store:
    /// it takes no writer lock, so it opens while another process (or a container of this one)
    /// writes, and any number of followers may run. It reads the log as it is, and each fetch
    /// first applies the batches the writer appended since (a batch still being written is not
    /// there yet). It writes nothing in the store's directory: no recovery, no checkpoint.
    /// ``ModelContext/save()``, ``ModelContainer/deleteAllData()`` and
    /// ``ModelContainer/checkpoint()`` throw ``LogbookError/Code/saveNotAllowed``.
    ///
    /// A follower cannot migrate: opening a store whose latest schema is not the models' throws
    /// ``LogbookError/Code/schemaMismatch`` naming both versions, and so does the fetch that
    /// meets a schema the writer recorded later. See <doc:ConcurrencyAndServerUse>.
    public var allowsSave: Bool
    /// Opens the store read-only as it was at a history token: fetches see the batches up to
    /// and including the transaction of `asOf`, and never the later ones. `nil` (the default)
    /// opens the store as it is.
    ///
    /// ```swift
    /// var configuration = ModelConfiguration(url: storeURL)
    /// configuration.asOf = lastMonthsToken
    /// let then = try ModelContainer(for: Trip.self, configurations: configuration)
    /// ```
    ///
    /// A container opened as of a token does not allow saving, whatever ``allowsSave`` says,
    /// and takes no writer lock. Opening it throws ``LogbookError/Code/invalidArgument`` for a
    /// token past the end of the log or one that does not end a transaction (both named, with
    /// the last token) and for a store in memory, which keeps no history, and
    /// ``LogbookError/Code/schemaMismatch`` when the store's schema at the token is not the
    /// models' (it cannot migrate). See <doc:History>.
    public var asOf: DefaultHistoryToken?
    /// When a save reaches the disk.
    public var durability: Durability
    /// What opening the store does when the last batch of the log is damaged rather than torn:
    /// throw (``DamagedTailPolicy/refuse``, the default) or move it into the store's
    /// `quarantine` directory and go on (``DamagedTailPolicy/quarantine``). A torn write is
    /// always moved into quarantine. See <doc:Recovery>.
    public var damagedTailPolicy: DamagedTailPolicy = .refuse
    /// Where Logbook reports what it recovered on open (a torn write moved into quarantine after
    /// a crash, see ``ModelContainer/recoveryReport``) and failed autosaves, at warning level.
    /// Defaults to a logger that discards everything.
    public var logger: Logger
    /// The size in bytes past which the log starts a new segment file; 64 MiB by default.
    ///
    /// A save is never split across segments: a batch larger than this gets a segment of its own.
    public var segmentSize: Int = 64 << 20
    /// How many bytes the log may grow past the newest checkpoint before the store writes a new
    /// one by itself; 16 MiB by default. `nil` or 0 for never: ``ModelContainer/checkpoint()``
    /// and `logbook checkpoint` still write one whenever asked.
    ///
    /// A checkpoint holds the objects as of the log's last batch, so that the next open loads
    /// it and replays only the batches after it (see <doc:OnDiskFormat>). With an interval, a
    /// container that allows saving writes one in the background:
    /// - after a save that takes the log past the interval since the newest checkpoint;
    /// - after an open that replayed more than the interval, or that ignored a checkpoint
    ///   (damaged, written at another schema or for another store), which the fresh one replaces.
    ///
    /// The last container of the store waits for a running one as it goes, and writes one if
    /// the log grew by more than a quarter of the interval since the newest: a running process
    /// leaves up to the interval to replay, a closed one at most a quarter of it. Saves wait only
    /// while the objects are taken, not while the file is built; the save that next changes a
    /// table copies that table once. An open that migrates the store writes one at the new
    /// schema in the background whatever the interval, since a checkpoint at the old schema is
    /// never loaded again.
    ///
    /// What it costs: this release builds each file in memory before writing it. For
    /// SampleTrips-100k (700,000 objects, a 23 MB log) a checkpoint is a 113 MB file that takes
    /// about a second of a core; see <doc:Performance> for the figures. A smaller interval makes
    /// opens replay less and writes checkpoints more often.
    public var checkpointInterval: Int? = 16 << 20
    /// The size in bytes from which a value of a `Data` attribute marked
    /// `@Attribute(.externalStorage)` is kept in a file of its own beside the log instead of
    /// in the log itself; 16 KiB by default.
    ///
    /// Each such value is written to `external/` in the store's directory, once per distinct
    /// content (the file is named by the SHA-256 of the bytes), durably before the save's batch
    /// that refers to it; the batch holds a reference of 44 bytes. Smaller values stay in the
    /// log, where they cost less than a file. Opening the store reads none of the files: its
    /// objects hold the reference, and a file is read when a fetch makes a model of its object,
    /// which then holds the bytes. A missing or damaged file fails that fetch with
    /// ``LogbookError/Code/corruption`` naming the file, entity, attribute and object.
    /// Core Data's heuristic for the same option is about 100 KB; a lower threshold keeps more
    /// of the log compact and quick to replay, at the cost of more small files.
    ///
    /// ```swift
    /// var configuration = ModelConfiguration(url: storeURL)
    /// configuration.externalStorageThreshold = 64 * 1024
    /// ```
    ///
    /// Changing it changes only where later saves put their values: every stored value reads
    /// back the same. A store in memory, or kept in PostgreSQL, stores every value inline.
    ///
    /// - Precondition: At least 1.
    public var externalStorageThreshold: Int = 16 << 10 {
        willSet { precondition(newValue >= 1, "externalStorageThreshold must be at least 1 byte") }
    }
    /// The system-call layer; tests replace it to inject faults.
    package var syscalls: any Syscalls = PosixSyscalls()
    /// The most bytes one table's attribute values may take in memory: growing past it fails
    /// as an allocation the system refuses. Tests lower it to make one store run out of memory.
    package var valueBytesLimit = Int.max
    /// The clock whose time each save records in its transaction record: the golden stores of
    /// `Fixtures/` are written with a fixed one.
    package var clock: @Sendable () -> Date = { Date() }
    /// The log the store's directory copies, for a store kept in a database server (see
    /// ``ExternalLog``); `nil` for a store of its own directory.
    package var externalLog: (any ExternalLog)?

    /// Whether the container opening the store holds the external log's migration lock.
    package var holdsMigrationLock = false

    /// Whether a migration must wait for the external log's migration lock first.
    var needsMigrationLock: Bool { externalLog != nil && !holdsMigrationLock }

    /// A store in the directory at `url`.
    ///
    /// SwiftData's spelling, with a name and a schema, works too:
    ///
    /// ```swift
    /// let configuration = ModelConfiguration("Trips", schema: Schema([Trip.self]), url: storeURL)
    /// ```
    ///
    /// - Parameters:
    ///   - name: The configuration's name; `"default"` when `nil`.
    ///   - schema: A schema to record with the configuration (see ``schema``).
    ///   - url: The store directory, created on first use.
    ///   - allowsSave: Whether contexts may save.
    ///   - durability: When a save reaches the disk.
    ///   - logger: Where to report repairs and failed autosaves.
    public init(
        _ name: String? = nil,
        schema: Schema? = nil,
        url: URL,
        allowsSave: Bool = true,
        durability: Durability = .durable,
        logger: Logger = Logger(label: "Logbook", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.name = name ?? "default"
        self.schema = schema
        self.url = url
        self.isStoredInMemoryOnly = false
        self.allowsSave = allowsSave
        self.durability = durability
        self.logger = logger
    }

    /// A store in memory, or the default store on disk.
    ///
    /// The default store is `default.store` in the current directory.
    ///
    /// - Parameters:
    ///   - name: The configuration's name; `"default"` when `nil`.
    ///   - schema: A schema to record with the configuration (see ``schema``).
    ///   - isStoredInMemoryOnly: Whether the store lives in memory only and writes no file.
    ///   - allowsSave: Whether contexts may save.
    ///   - logger: Where to report repairs and failed autosaves.
    public init(
        _ name: String? = nil,
        schema: Schema? = nil,
        isStoredInMemoryOnly: Bool = false,
        allowsSave: Bool = true,
        logger: Logger = Logger(label: "Logbook", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.name = name ?? "default"
        self.schema = schema
        self.url = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(
            "default.store"
        )
        self.isStoredInMemoryOnly = isStoredInMemoryOnly
        self.allowsSave = allowsSave
        self.durability = .durable
        self.logger = logger
    }
}
