import Logging
import Synchronization

/// The state one container shares between its contexts: the log (none for an in-memory store),
/// the projection replayed from it, and which schema the log has recorded.
///
/// Every save runs inside ``commit(_:)``, under one lock: the batch is built against the
/// projection, appended to the log, and only once the append succeeded applied to the
/// projection. A failed append leaves the projection, and the disk, as they were.
final class Store: Sendable {
    struct State: Sendable {
        var projection: Projection
        /// The number of the current schema's record in the log, once recorded.
        var currentSchemaNumber: UInt32?
        /// The highest schema record number in the log.
        var lastSchemaNumber: UInt32 = 0
        /// Counts committed saves, so that contexts can tell when the store changed.
        var generation: UInt64 = 0
    }

    /// What a commit did.
    struct Commit: Sendable {
        /// For each inserted identifier, the identifier it ended up with (itself, or the object
        /// an upsert merged it into).
        var survivors: [UInt64: UInt64]
        var sequences: ClosedRange<UInt64>?
        /// The store generation after the commit.
        var generation: UInt64
    }

    let schema: Schema
    let fingerprint: String
    let log: EventLog?
    let logger: Logger
    let allowsSave: Bool
    /// Where the store lives, for messages.
    let location: String
    private let state: Mutex<State>

    init(schema: Schema, configuration: ModelConfiguration, acceptedFingerprints: Set<String>) throws {
        self.schema = schema
        self.fingerprint = schema.fingerprint.hexString
        self.logger = configuration.logger
        self.allowsSave = configuration.allowsSave
        var state = State(projection: Projection(schema: schema))
        if configuration.isStoredInMemoryOnly {
            self.log = nil
            self.location = "memory"
        } else {
            let directory = configuration.url.path
            self.location = directory
            var logConfiguration = LogConfiguration()
            logConfiguration.durability = configuration.durability == .durable ? .durable : .relaxed
            logConfiguration.verification = .lastSegment
            logConfiguration.logger = configuration.logger
            logConfiguration.syscalls = configuration.syscalls
            let log = try EventLog(directory: directory, configuration: logConfiguration)
            self.log = log
            let recorded = try Self.replay(log.reader(), into: &state, fingerprint: fingerprint)
            if let latest = recorded, latest.fingerprint != fingerprint,
                !acceptedFingerprints.contains(latest.fingerprint)
            {
                log.close()
                throw LogbookError(
                    .schemaMismatch,
                    "the store was written with schema \(latest.version) (fingerprint \(latest.fingerprint.prefix(12))), which differs from the models' schema \(schema.version) (fingerprint \(fingerprint.prefix(12))); declare both as VersionedSchema types in a SchemaMigrationPlan",
                    path: directory
                )
            }
        }
        self.state = Mutex(state)
    }

    /// Replays every event of the log into the projection.
    ///
    /// - Returns: the latest schema the log recorded, if any.
    private static func replay(
        _ reader: LogReader,
        into state: inout State,
        fingerprint: String
    ) throws(LogbookError) -> Event.SchemaRecord? {
        var cursor = reader.batches()
        var latest: Event.SchemaRecord?
        while let batch = try cursor.next() {
            for index in 0..<batch.count {
                let envelope: EventEnvelope
                do {
                    envelope = try EventCodec.decode(batch.event(at: index))
                } catch {
                    var located = error
                    located.path = batch.segment
                    located.offset = batch.offset
                    located.sequence = batch.firstSequence + UInt64(index)
                    throw located
                }
                if case .schema(let record) = envelope.event {
                    latest = record
                    state.lastSchemaNumber = max(state.lastSchemaNumber, record.number)
                    if record.fingerprint == fingerprint { state.currentSchemaNumber = record.number }
                } else {
                    state.projection.apply(envelope.event)
                }
            }
            state.projection.lastSequence = batch.lastSequence
        }
        // A schema recorded earlier but superseded since must be recorded again before new writes.
        if let latest, latest.fingerprint != fingerprint { state.currentSchemaNumber = nil }
        return latest
    }

    /// Reads the shared state.
    func read<T>(_ body: (borrowing State) -> T) -> T {
        state.withLock { body($0) }
    }

    /// Builds a batch against the projection, appends it and applies it.
    ///
    /// `build` reads the projection and allocates identifiers from the counter it is given;
    /// it returns the events. Nothing is kept when `build` or the append throws.
    ///
    /// The projection is passed by value and must not outlive `build`: a copy still alive when
    /// the events are applied would make every save copy every table.
    func commit(_ build: (Projection, inout UInt64) throws -> [Event]) throws -> Commit {
        guard allowsSave else {
            throw LogbookError(.saveNotAllowed, "this container's configuration does not allow saving", path: location)
        }
        return try state.withLock { state throws -> Commit in
            var nextIdentifier = state.projection.nextIdentifier
            let events = try build(state.projection, &nextIdentifier)
            guard !events.isEmpty else { return Commit(survivors: [:], sequences: nil, generation: state.generation) }
            var envelopes: [EventEnvelope] = []
            envelopes.reserveCapacity(events.count + 1)
            let schemaNumber = state.currentSchemaNumber ?? state.lastSchemaNumber + 1
            if state.currentSchemaNumber == nil {
                let record = Event.SchemaRecord(
                    number: schemaNumber,
                    version: schema.version,
                    fingerprint: fingerprint,
                    schema: schema
                )
                envelopes.append(EventEnvelope(schemaNumber: schemaNumber, event: .schema(record)))
            }
            for event in events { envelopes.append(EventEnvelope(schemaNumber: schemaNumber, event: event)) }
            var sequences: ClosedRange<UInt64>?
            if let log {
                sequences = try log.append(envelopes.map(EventCodec.encode))
            }
            state.currentSchemaNumber = schemaNumber
            state.lastSchemaNumber = max(state.lastSchemaNumber, schemaNumber)
            var survivors: [UInt64: UInt64] = [:]
            for event in events {
                let result = state.projection.apply(event)
                if case .insert(let insert) = event, let result { survivors[insert.id] = result }
            }
            state.projection.nextIdentifier = max(state.projection.nextIdentifier, nextIdentifier)
            if let sequences { state.projection.lastSequence = sequences.upperBound }
            state.generation += 1
            return Commit(survivors: survivors, sequences: sequences, generation: state.generation)
        }
    }

    func close() {
        log?.close()
    }
}
