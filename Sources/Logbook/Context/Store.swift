import Dispatch
import Foundation
import Logging
import Synchronization

/// The state the containers of one store share with their contexts (see ``StoreRegistry``):
/// the log (none for an in-memory store), the projection replayed from it, and which schemas
/// the log has recorded.
///
/// Every save runs inside ``commit(_:)``, under one lock: the batch is built against the
/// projection, appended to the log, and applied to the projection. A small batch is applied
/// once the append succeeded; a large one while another thread appends it, and the projection
/// is replayed from the log again if that append fails. Either way a failed append leaves the
/// projection, and the disk, as they were.
final class Store: Sendable {
    struct State: Sendable {
        var projection: Projection
        /// The number of the current schema's record in the log, once recorded.
        var currentSchemaNumber: UInt32?
        /// The highest schema record number in the log.
        var lastSchemaNumber: UInt32 = 0
        /// Counts committed saves, so that contexts can tell when the store changed.
        var generation: UInt64 = 0
        /// What commits produced, for a store that captures instead of writing.
        var captured: [EventEnvelope] = []
        /// The inserts of the last batch, emptied, for the next save to record into.
        var spareInserts: DirectInserts?
        /// The schema records and migration markers of the log so far, for checkpoints.
        var recorded = Replayed()
        /// Why a read-only store stopped following its log, which every later catch-up throws.
        var readFailure: LogbookError?
        /// Where a read-only store's last catch-up stopped reading.
        var followPoint: BatchCursor.ResumePoint?
    }

    /// What a replay found besides the objects.
    struct Replayed: Sendable {
        /// The schema recorded last, if any.
        var latest: Event.SchemaRecord?
        /// The number of each recorded schema, by fingerprint.
        var numbers: [String: UInt32] = [:]
        /// Every migration marker, in log order.
        var markers: [Event.MigrationMarker] = []
        /// Every recorded schema, in log order.
        var schemas: [Schema] = []
    }

    /// What a commit did.
    struct Commit: Sendable {
        /// For each inserted identifier that an upsert merged into another object, that object's
        /// identifier; an insert not listed kept its own.
        var survivors: [UInt64: UInt64]
        var sequences: ClosedRange<UInt64>?
        /// The store generation after the commit.
        var generation: UInt64
    }

    /// Where commits go.
    enum Sink: Sendable {
        /// Appended to the log.
        case log(EventLog)
        /// Nowhere: an in-memory store.
        case memory
        /// Kept in ``captured``: the context of a migration stage, whose changes are written
        /// together with the stage's marker.
        case capture
        /// Nowhere: a read-only container's store, which reads the log without the writer's
        /// lock and catches up with the batches the writer appends (``catchUp()``).
        case follower(LogReader)
        /// Nowhere: a store opened as of a token, which holds the batches up to `sequence` and
        /// never reads on.
        case snapshot(LogReader, at: UInt64)
    }

    let schema: Schema
    /// Whether a relationship of the schema has a minimum or maximum model count, which a save
    /// must check.
    var hasCountLimits: Bool {
        schema.entities.contains { $0.relationships.contains(where: \.hasCountLimit) }
    }
    let fingerprint: String
    let sink: Sink
    let logger: Logger
    /// Wakes the history feeds of the store when a save appends to its log; `nil` for a store
    /// without a log.
    let saveSignal: SaveSignal?
    /// The clock saves read for their transaction records.
    let clock: @Sendable () -> Date
    /// Where the store lives, for messages.
    let location: String
    /// What the open found; empty for a store opened without replaying.
    let replayed: Replayed
    /// How many bytes the log may grow past the newest checkpoint before the store writes one
    /// as it closes; 0 for never.
    let checkpointInterval: Int
    /// The bytes of the log the newest checkpoint covers, that this store loaded or wrote.
    let lastCheckpoint: Locked<UInt64>
    /// Whether the open ignored a checkpoint (damaged, of another schema or store): the
    /// container then has a fresh one written (``startCheckpointAfterOpen()``).
    let ignoredCheckpoint = Locked(false)
    /// The checkpoint the store's objects were loaded from, if any, for its values found damaged
    /// on read (see ``CheckpointRecovery``).
    let loadedCheckpoint = Locked<CheckpointRecovery?>(nil)
    /// Starts checkpoints in the background and keeps two writes from running at once.
    let checkpoints: CheckpointSchedule
    /// The schemas before ``schema``, oldest first.
    let history: [Schema]
    let state: Locked<State>
    /// ``State/generation``, readable without the lock: every fetch compares it with the
    /// generation its context has seen.
    let published = Atomic<UInt64>(0)
    /// Where large batches are appended: see ``commit(_:)``.
    private let appendQueue = DispatchQueue(label: "Logbook log append")
    /// The names the inserts of a save spell, encoded once.
    private let insertNames: InsertNames
    /// The buffer of the last large batch's payload, handed back by the appending thread once
    /// the batch is written, for the next one to be encoded into. A fresh buffer of a megabyte
    /// for each batch of SampleTrips' saves made 27,000 page faults over W1's hundred saves.
    private let spareBuffer = Locked<[UInt8]>([])

    /// Whether models made from rows that lack a non-optional value get a placeholder instead
    /// of failing: only in the stores of migration stages, whose closures fill such values in.
    var fillsMissingValues: Bool {
        if case .capture = sink { return true }
        return false
    }

    var log: EventLog? {
        if case .log(let log) = sink { return log }
        return nil
    }

    /// A reader of the store's log, whether this store writes it or only reads it; `nil` in
    /// memory and in a migration stage.
    var reader: LogReader? {
        switch sink {
        case .log(let log): log.reader()
        case .follower(let reader), .snapshot(let reader, _): reader
        case .memory, .capture: nil
        }
    }

    /// Whether the store only reads its log: a follower's or a snapshot's.
    var isReadOnly: Bool {
        switch sink {
        case .follower, .snapshot: true
        case .log, .memory, .capture: false
        }
    }

    /// Opens the store of a configuration and replays it at `schema`.
    ///
    /// - Parameter replay: Whether to replay now. Without it, the log is not read: a migrator
    ///   reads it, then gives the store its state with ``adopt(_:lastSequence:)`` or
    ///   ``appendMigration(_:final:)``.
    init(schema: Schema, history: [Schema], configuration: ModelConfiguration, replay: Bool = true) throws {
        self.schema = schema
        self.fingerprint = schema.fingerprint.hexString
        self.logger = configuration.logger
        self.clock = configuration.clock
        var checkpointedLogBytes: UInt64 = 0
        var ignoredOne = false
        var state = State(projection: Projection(schema: schema, history: history))
        state.projection.valueBytesLimit = configuration.valueBytesLimit
        self.insertNames = InsertNames(state.projection)
        if configuration.isStoredInMemoryOnly {
            self.sink = .memory
            self.saveSignal = nil
            self.location = "memory"
            self.replayed = Replayed()
        } else {
            let directory = configuration.url.path
            var logConfiguration = LogConfiguration()
            logConfiguration.durability = configuration.durability == .durable ? .durable : .relaxed
            logConfiguration.verification = .lastSegment
            logConfiguration.logger = configuration.logger
            logConfiguration.syscalls = configuration.syscalls
            logConfiguration.segmentSize = configuration.segmentSize
            logConfiguration.damagedTailPolicy = configuration.damagedTailPolicy
            if (!configuration.allowsSave || configuration.asOf != nil) && configuration.externalLog == nil {
                // A read-only store: no lock, no recovery, nothing written (see ReadOnlyStore).
                let reader = LogReader(directory: directory, syscalls: configuration.syscalls)
                let horizon = try reader.horizon()
                let limit = configuration.asOf?.sequence
                if let limit, let horizon, limit < horizon {
                    throw LogbookError.historyDeleted(after: limit, horizon: horizon, store: directory)
                }
                self.sink = limit.map { .snapshot(reader, at: $0) } ?? .follower(reader)
                self.saveSignal = SaveSignal.shared(for: directory)
                self.location = directory
                let start = try Self.startFromCheckpoint(
                    of: CheckpointSource(readOnly: reader, limit: limit ?? .max),
                    schema: schema,
                    history: history,
                    into: &state,
                    logger: configuration.logger
                )
                self.replayed = try Self.replay(
                    reader,
                    from: start.first,
                    resumingAt: start.resume,
                    startingWith: start.replayed,
                    through: limit ?? .max,
                    into: &state,
                    fingerprint: fingerprint
                )
                checkpointedLogBytes = start.logBytes
                self.history = history
                self.state = Locked(state)
                self.checkpointInterval = 0
                self.lastCheckpoint = Locked(checkpointedLogBytes)
                self.checkpoints = CheckpointSchedule()
                return
            }
            logConfiguration.external = configuration.externalLog
            logConfiguration.externalStorageThreshold = configuration.externalStorageThreshold
            let log = try EventLog(directory: directory, configuration: logConfiguration)
            Self.fetchSharedCheckpoint(into: log, logger: configuration.logger)
            self.sink = .log(log)
            self.saveSignal = SaveSignal.shared(for: log.reader().directory)
            self.location = directory
            // Without `replay`, the migrator reads the log and gives the store its state
            // (`adopt(_:lastSequence:)`, `appendMigration(_:final:)`).
            if replay {
                let start = try Self.startFromCheckpoint(
                    of: CheckpointSource(log),
                    schema: schema,
                    history: history,
                    into: &state,
                    logger: configuration.logger
                )
                // Values kept in files stay there until a read needs them.
                self.replayed = try Self.replay(
                    log.reader(),
                    from: start.first,
                    resumingAt: start.resume,
                    startingWith: start.replayed,
                    into: &state,
                    fingerprint: fingerprint,
                    keepingExternalReferences: logConfiguration.external == nil
                )
                checkpointedLogBytes = start.logBytes
                ignoredOne = start.ignoredOne
                loadedCheckpoint.withLock { $0 = start.recovery }
            } else {
                self.replayed = Replayed()
            }
        }
        self.history = history
        self.state = Locked(state)
        let checkpointInterval = configuration.allowsSave ? configuration.checkpointInterval ?? 0 : 0
        self.checkpointInterval = checkpointInterval
        self.lastCheckpoint = Locked(checkpointedLogBytes)
        var logBytesAtOpen: UInt64 = 0
        if checkpointInterval > 0, case .log(let log) = sink {
            let syscalls = log.configuration.syscalls
            logBytesAtOpen = (try? CheckpointFiles.logBytes(of: log.directory, syscalls: syscalls)) ?? 0
        }
        self.checkpoints = CheckpointSchedule(logBytesAtOpen: logBytesAtOpen)
        ignoredCheckpoint.withLock { $0 = ignoredOne }
        listenToExternalLog()
    }

    /// A store for a migration stage: replays `reader` and then `pending` at `schema`, and
    /// keeps what its contexts save instead of writing it.
    init(
        capturing schema: Schema,
        history: [Schema],
        reader: LogReader?,
        pending: [EventEnvelope],
        logger: Logger,
        decodingAhead: InsertPredecoder.Policy = .never,
        checkpointsOf log: EventLog? = nil
    ) throws {
        self.schema = schema
        self.fingerprint = schema.fingerprint.hexString
        self.logger = logger
        self.clock = { Date() }
        self.sink = .capture
        self.saveSignal = nil
        self.location = reader?.directory ?? "memory"
        var state = State(projection: Projection(schema: schema, history: history))
        self.insertNames = InsertNames(state.projection)
        var start = CheckpointStart()
        // With `log`, the store is a migration's last, whose objects the container adopts and
        // no context reads: values kept in files stay there, as in the container's own open.
        // Without it, a stage's contexts read the objects, and see the bytes.
        let keepsExternalReferences = log.map { $0.configuration.external == nil } ?? false
        if let log, reader != nil {
            start = try Self.startFromCheckpoint(
                of: CheckpointSource(log),
                schema: schema,
                history: history,
                into: &state,
                logger: logger
            )
        }
        self.replayed = try Self.replay(
            reader,
            from: start.first,
            resumingAt: start.resume,
            startingWith: start.replayed,
            pending: pending,
            into: &state,
            fingerprint: fingerprint,
            decodingAhead: decodingAhead,
            keepingExternalReferences: keepsExternalReferences
        )
        self.history = history
        self.state = Locked(state)
        self.checkpointInterval = 0
        self.lastCheckpoint = Locked(start.logBytes)
        self.checkpoints = CheckpointSchedule()
        ignoredCheckpoint.withLock { $0 = start.ignoredOne }
        loadedCheckpoint.withLock { $0 = start.recovery }
    }

    /// Replays every event of the log, then `pending`, into the projection.
    ///
    /// - Parameters:
    ///   - first: The first sequence number to replay: after a checkpoint's, whose state
    ///     `state` holds and whose schema records `initial` holds.
    ///   - resume: Where the batch of `first` begins, when known: the replay starts reading
    ///     there instead of finding it from the segment's batch headers.
    ///   - keepingExternalReferences: Whether values kept in files go into the projection as
    ///     their ``ExternalPlaceholder``, their files unread (see ``Store/externalStorage``).
    static func replay(
        _ reader: LogReader?,
        from first: UInt64 = 1,
        resumingAt resume: BatchCursor.ResumePoint? = nil,
        startingWith initial: Replayed = Replayed(),
        through last: UInt64 = .max,
        pending: [EventEnvelope] = [],
        into state: inout State,
        fingerprint: String,
        decodingAhead: InsertPredecoder.Policy = .whenACoreIsFree,
        keepingExternalReferences: Bool = false
    ) throws(LogbookError) -> Replayed {
        var replayed = initial
        if let reader {
            do {
                try EventStream.forEach(
                    reader,
                    from: first,
                    resumingAt: resume,
                    through: last,
                    predecoder: InsertPredecoder.forReplay(of: state.projection, decodingAhead),
                    keepingExternalReferences: keepingExternalReferences,
                    predecoded: { state.projection.applyInsert($1, at: $2, sequence: $0, takingValues: true) != nil },
                    shortcut: { state.projection.applyChange($1, sequence: $0) },
                    { sequence, envelope in
                        try apply(envelope, to: &state, &replayed)
                        state.projection.lastSequence = sequence
                    }
                )
            } catch var error as LogbookError {
                if error.code == .outOfMemory {
                    // Every event before the one that failed set the last sequence number.
                    error.path = error.path ?? reader.directory
                    error.sequence = error.sequence ?? state.projection.lastSequence + 1
                }
                throw error
            } catch {
                preconditionFailure("replay's closures throw only LogbookError: \(error)")
            }
        }
        for envelope in pending { try apply(envelope, to: &state, &replayed) }
        noteCurrentSchema(replayed, in: &state, fingerprint: fingerprint)
        state.recorded = replayed
        return replayed
    }

    /// Applies one replayed event: schema records and markers to `replayed`, changes to the
    /// projection.
    static func apply(
        _ envelope: EventEnvelope,
        to state: inout State,
        _ replayed: inout Replayed
    ) throws(LogbookError) {
        switch envelope.event {
        case .schema(let record):
            replayed.latest = record
            replayed.numbers[record.fingerprint] = record.number
            replayed.schemas.append(record.schema)
            state.lastSchemaNumber = max(state.lastSchemaNumber, record.number)
            state.projection.enforceConstraints(of: record.schema)
        case .migration(let marker):
            replayed.markers.append(marker)
        default:
            try state.projection.apply(envelope.event)
        }
    }

    /// The current schema counts as recorded only if it is the latest one: after a migration
    /// away from it and back, it must be recorded again before new events use it.
    static func noteCurrentSchema(_ replayed: Replayed, in state: inout State, fingerprint: String) {
        guard let latest = replayed.latest else { return }
        state.currentSchemaNumber = latest.fingerprint == fingerprint ? latest.number : nil
    }

    /// Applies events that follow the ones this store replayed: the batches of a migration's
    /// stages, before they are appended, to the final store that replayed the log while the
    /// stages ran. The result is the state a replay of the log followed by `pending` gives.
    ///
    /// - Throws: ``LogbookError/Code/outOfMemory`` when a table's values cannot grow; the events
    ///   before the failing one are applied, and the store must not be used any further.
    func replay(pending: [EventEnvelope]) throws(LogbookError) {
        try state.withLock { state throws(LogbookError) in
            var replayed = Replayed()
            for envelope in pending {
                try Self.apply(envelope, to: &state, &replayed)
                Self.record(envelope, in: &state.recorded)
            }
            Self.noteCurrentSchema(replayed, in: &state, fingerprint: fingerprint)
        }
    }

    /// The number of saves committed so far: a context whose models reflect an older one
    /// reloads them. Read without waiting for a save in progress, which counts once it is done.
    var generation: UInt64 {
        published.load(ordering: .acquiring)
    }

    /// Reads the shared state.
    func read<T>(_ body: (borrowing State) -> T) -> T {
        state.withLock { body($0) }
    }

    /// Reads the shared state with a body that may fail: saves wait meanwhile.
    func inspect<T>(_ body: (borrowing State) throws(LogbookError) -> T) throws(LogbookError) -> T {
        try state.withLock { (state) throws(LogbookError) -> T in try body(state) }
    }

    /// The objects of a table whose attribute equals `value`, in ascending order, from the
    /// attribute's equality index, which is built the first time it is asked for.
    func indexMatches(table: Int, attribute: Int, value: AttributeValue) -> [UInt64] {
        state.withLock { $0.projection.matches(table: table, attribute: attribute, value: value) }
    }

    /// The objects whose attribute lies in `range`, from the `#Index` it leads, which is
    /// brought up to date first: see ``Projection/indexedMatches(_:attribute:in:)``.
    func sortedIndexMatches(table: Int, attribute: Int, range: IndexRange) -> [UInt64]? {
        state.withLock { $0.projection.indexedMatches(table, attribute: attribute, in: range) }
    }

    /// The objects among which a fetch sorted by the attribute finds its first `count`: see
    /// ``Projection/indexedLeading(_:attribute:count:ascending:in:)``.
    func sortedIndexLeading(table: Int, attribute: Int, count: Int, ascending: Bool, range: IndexRange?) -> [UInt64]? {
        state.withLock {
            $0.projection.indexedLeading(table, attribute: attribute, count: count, ascending: ascending, in: range)
        }
    }

    /// A batch as a save builds it: the inserts recorded from the models, to be applied and
    /// encoded from the same values, and the other events, which follow them in the log.
    struct PreparedBatch {
        /// The inserts.
        let inserts: DirectInserts
        /// The events that follow the inserts.
        var events: [Event] = []

        var isEmpty: Bool { inserts.heads.isEmpty && events.isEmpty }
    }

    /// Builds a batch against the projection, appends it and applies it.
    ///
    /// `build` reads the projection, allocates identifiers from the counter it is given and
    /// encodes its inserts into the batch with the schema number it is given. Nothing is kept
    /// when `build` or the append throws.
    ///
    /// The projection is passed by value and must not outlive `build`: a copy still alive when
    /// the events are applied would make every save copy every table.
    ///
    /// - Parameter transaction: The time and author the batch records (its transaction record).
    func commit(
        transaction: BatchTransaction,
        _ build: (Projection, inout UInt64, _ schemaNumber: UInt32, inout PreparedBatch) throws -> Void
    ) throws -> Commit {
        defer { startCheckpointIfDue() }
        return try state.withLock { state throws -> Commit in
            var nextIdentifier = state.projection.nextIdentifier
            let schemaNumber = state.currentSchemaNumber ?? state.lastSchemaNumber + 1
            var batch = PreparedBatch(inserts: state.spareInserts.take() ?? DirectInserts())
            // The schema record, when the batch begins a schema, goes first.
            let schemaRecord: EventEnvelope? =
                state.currentSchemaNumber != nil
                ? nil
                : EventEnvelope(
                    schemaNumber: schemaNumber,
                    event: .schema(
                        Event.SchemaRecord(
                            number: schemaNumber,
                            version: schema.version,
                            fingerprint: fingerprint,
                            schema: schema
                        )
                    )
                )
            try build(state.projection, &nextIdentifier, schemaNumber, &batch)
            guard !batch.isEmpty else {
                state.spareInserts = batch.inserts
                return Commit(survivors: [:], sequences: nil, generation: state.generation)
            }
            // The room the batch takes in the projection, before the batch is written: a failure
            // here fails the save with nothing written, and applying it below allocates no values.
            try state.projection.reserveRoom(for: batch.inserts, batch.events)
            // The values kept in files are written, durably, before the batch that refers to them.
            let externals = try writeExternalValues(of: batch, in: state.projection)
            var sequences: ClosedRange<UInt64>?
            // A large batch is encoded here, then appended (compressed, written and flushed) on
            // another thread while this one applies it to the projection; see
            // `restore(_:before:log:firstSequence:)`. Encoded here, where the save just read
            // every value, a batch of W1's 7,000 inserts takes about 0.85 ms; on the other thread,
            // which had to fetch each string from this thread's cache, it took 1.1–1.8 ms.
            var appending: (work: BackgroundWork<ClosedRange<UInt64>>, log: EventLog, first: UInt64)?
            let (inserts, events, names) = (batch.inserts, batch.events, insertNames)
            switch sink {
            case .log(let log):
                if inserts.heads.count >= Self.overlappedAppendInserts {
                    let first = log.nextSequence
                    let buffer = spareBuffer.withLock { spare in
                        var taken: [UInt8] = []
                        swap(&taken, &spare)
                        return taken
                    }
                    // A batch of inserts alone is compressed on the other thread while it is
                    // encoded here, a piece per 64 KiB (`PayloadFeed`): W1's durable saves then
                    // waited about 20 ms in all for their appends, against about 30 ms when the
                    // other thread began once the encoding had ended. Other events could move
                    // the payload's buffer after its first bytes were handed over: such a batch
                    // is only handed over once encoded, and compressed whole.
                    let feed = PayloadFeed(compressing: events.isEmpty && log.configuration.compression)
                    appending = (
                        BackgroundWork(on: appendQueue) { [self] in
                            var (payload, pieces) = feed.compressAsEncoded()
                            defer {
                                let buffer = payload.takeBuffer()
                                spareBuffer.withLock { $0 = buffer }
                            }
                            return try log.append(payload, compressedPieces: pieces)
                        }, log, first
                    )
                    feed.finish(
                        Self.payload(
                            transaction,
                            schemaRecord,
                            inserts,
                            events,
                            names,
                            schemaNumber,
                            externals,
                            reusing: consume buffer,
                            publishingTo: feed.compressing ? feed : nil
                        )
                    )
                } else {
                    sequences = try log.append(
                        Self.payload(transaction, schemaRecord, inserts, events, names, schemaNumber, externals)
                    )
                }
            case .memory: break
            case .follower, .snapshot:
                throw LogbookError(
                    .saveNotAllowed,
                    "the store \(location) is open read-only: its container's configuration does not allow saving",
                    path: location
                )
            case .capture:
                if let schemaRecord { state.captured.append(schemaRecord) }
                var payload = BatchPayload()
                for range in EventCodec.appendInserts(inserts, names: names, schemaNumber: schemaNumber, to: &payload) {
                    state.captured.append(try EventCodec.decode(payload.bytes[range]))
                }
                for event in events {
                    state.captured.append(EventEnvelope(schemaNumber: schemaNumber, event: event))
                }
            }
            let before = Restorable(state)
            if let schemaRecord { Self.record(schemaRecord, in: &state.recorded) }
            state.currentSchemaNumber = schemaNumber
            state.lastSchemaNumber = max(state.lastSchemaNumber, schemaNumber)
            // Only the inserts an upsert folded into another object are listed.
            var survivors: [UInt64: UInt64] = [:]
            // The values written to files are kept in the projection by reference, as an open
            // loads them.
            if let externals { Self.keepReferences(externals, in: inserts, &batch.events) }
            // Each insert from the values it was encoded from, not by decoding its bytes: moved
            // out of the batch, which nothing reads once it is encoded, rather than copied, which
            // retained every string once more and released it again when the batch was dropped.
            for index in inserts.heads.indices {
                let id = inserts.heads[index].id
                let survivor = state.projection.applyInsertWithRoom(
                    inserts,
                    at: index,
                    sequence: nil,
                    takingValues: true
                )
                if id != survivor { survivors[id] = survivor }
            }
            for event in batch.events {
                state.projection.applyWithRoom(event)
            }
            // The recorded inserts are emptied for the next save before waiting for the append:
            // nothing reads them once applied, and a durable save waits for its flush here.
            if inserts.heads.count <= Self.spareInsertsLimit {
                inserts.removeAll()
                state.spareInserts = inserts
            }
            if let appending {
                do {
                    sequences = try appending.work.value()
                } catch {
                    let failure = error as? LogbookError ?? LogbookError(.io, "\(error)", path: location)
                    restore(&state, before: before, log: appending.log, firstSequence: appending.first)
                    throw failure
                }
            }
            state.projection.nextIdentifier = max(state.projection.nextIdentifier, nextIdentifier)
            if let sequences { state.projection.lastSequence = sequences.upperBound }
            state.generation += 1
            published.store(state.generation, ordering: .releasing)
            return Commit(survivors: survivors, sequences: sequences, generation: state.generation)
        }
    }

    /// A batch's payload: the transaction record, the schema record when the batch begins a
    /// schema, then the inserts, then the other events.
    private static func payload(
        _ transaction: BatchTransaction,
        _ schemaRecord: EventEnvelope?,
        _ inserts: DirectInserts,
        _ events: [Event],
        _ names: InsertNames,
        _ schemaNumber: UInt32,
        _ externals: ExternalValues?,
        reusing buffer: consuming [UInt8] = [],
        publishingTo feed: PayloadFeed? = nil
    ) -> BatchPayload {
        // The inserts are written after the schema record into the buffer given when it has room,
        // otherwise into a buffer of their size, with room for the other events at a guess of
        // their size.
        var payload = BatchPayload(reusing: consume buffer)
        payload.appendTransaction(transaction)
        if let schemaRecord { payload.appendEvent { EventCodec.encode(schemaRecord, into: &$0) } }
        let extra = events.isEmpty ? 0 : 4096 + 64 * events.count
        // A feed may only be given when no events follow the inserts: they could move the
        // buffer whose bytes the feed has published.
        precondition(feed == nil || events.isEmpty, "a fed payload holds inserts only")
        EventCodec.appendInserts(
            inserts,
            names: names,
            schemaNumber: schemaNumber,
            to: &payload,
            leavingRoomFor: extra,
            publishingTo: feed,
            externals: externals
        )
        for event in events {
            payload.appendEvent {
                EventCodec.encode(
                    EventEnvelope(schemaNumber: schemaNumber, event: event),
                    into: &$0,
                    externals: externals
                )
            }
        }
        if externals != nil { payload.markExternalReferences() }
        return payload
    }

    /// The number of inserts from which a batch is appended to the log on another thread while
    /// the projection applies it. A smaller batch is appended first: handing it to another
    /// thread would cost more than the two threads save.
    static let overlappedAppendInserts = 128

    /// The most inserts a batch may hold for its emptied arrays to be kept for the next save:
    /// about 180 bytes each, so that a store keeps at most about 3 MB for it after a large save.
    static let spareInsertsLimit = 16_384

    /// What a commit changes in the state besides the projection, kept to undo it.
    private struct Restorable {
        let currentSchemaNumber: UInt32?
        let lastSchemaNumber: UInt32
        let nextIdentifier: UInt64
        let lastSequence: UInt64

        init(_ state: borrowing State) {
            currentSchemaNumber = state.currentSchemaNumber
            lastSchemaNumber = state.lastSchemaNumber
            nextIdentifier = state.projection.nextIdentifier
            lastSequence = state.projection.lastSequence
        }
    }

    /// Puts the state back as it was before a commit that applied its batch while the log failed
    /// to append it: the projection is replayed from the log up to the batch's first sequence
    /// number, which also leaves out a batch that was written but not flushed.
    ///
    /// If the log cannot be read back, the projection keeps the batch, and the log refuses
    /// every later append; the error is logged.
    private func restore(_ state: inout State, before: Restorable, log: EventLog, firstSequence: UInt64) {
        var fresh = State(projection: Projection(schema: schema, history: history))
        fresh.projection.valueBytesLimit = state.projection.valueBytesLimit
        do throws(LogbookError) {
            _ = try Self.replay(log.reader(), through: firstSequence - 1, into: &fresh, fingerprint: fingerprint)
        } catch {
            log.refuseAppends(
                LogbookError(
                    .writerFailed,
                    "a failed save could not be taken back out of this container's objects, since the log could not be read again (\(error)); reopen the store",
                    path: location,
                    cause: error
                )
            )
            logger.error("could not restore the objects after a failed save: \(error)")
            return
        }
        fresh.currentSchemaNumber = before.currentSchemaNumber
        fresh.lastSchemaNumber = before.lastSchemaNumber
        fresh.projection.nextIdentifier = max(fresh.projection.nextIdentifier, before.nextIdentifier)
        fresh.projection.lastSequence = before.lastSequence
        fresh.generation = state.generation
        fresh.captured = state.captured
        state = fresh
    }

    /// The events a capturing store's contexts saved.
    var captured: [EventEnvelope] {
        state.withLock { $0.captured }
    }

    /// Takes the state of `final`, a capturing store that replayed this store's log at its
    /// schema, for a store opened without replaying; with `lastSequence`, the log has grown
    /// since, up to that event, by events `final` applied too.
    func adopt(_ final: Store, lastSequence: UInt64? = nil) {
        let checkpointed = final.lastCheckpoint.withLock { $0 }
        lastCheckpoint.withLock { $0 = max($0, checkpointed) }
        if final.ignoredCheckpoint.withLock({ $0 }) { ignoredCheckpoint.withLock { $0 = true } }
        if let recovery = final.loadedCheckpoint.withLock({ $0 }) { loadedCheckpoint.withLock { $0 = recovery } }
        var fresh = final.state.withLock { $0 }
        fresh.captured = []
        fresh.generation = 0
        if let lastSequence { fresh.projection.lastSequence = lastSequence }
        state.withLock { state in
            // The limit is this store's, from its configuration.
            fresh.projection.valueBytesLimit = state.projection.valueBytesLimit
            state = fresh
        }
        published.store(fresh.generation, ordering: .releasing)
    }

    /// Appends migration stages' batches to the log as they are, each with a transaction
    /// record of the time it is appended and no author, then takes the state of `final`, a
    /// capturing store that replayed the log and those batches at this store's schema, instead
    /// of replaying everything again.
    func appendMigration(_ batches: [[EventEnvelope]], final: Store) throws {
        guard let log else { return }
        let payloads = batches.map { batch in
            var payload = BatchPayload()
            payload.appendTransaction(BatchTransaction(timestamp: Date(), author: nil))
            for envelope in batch { payload.appendEvent { EventCodec.encode(envelope, into: &$0) } }
            return payload
        }
        // One append for every stage: a store kept in a database server gets them all or none.
        let appended = try log.append(payloads)
        if !batches.isEmpty { saveSignal?.notify() }
        adopt(final, lastSequence: appended.isEmpty ? 0 : appended.upperBound - 1)
    }

    /// Closes the log and releases the store's writer lock; later saves fail. The last container
    /// of a store calls ``closeAfterUse()`` as it goes (``StoreRegistry/release(_:)``).
    func close() {
        checkpoints.close()
        log?.close()
    }
}
