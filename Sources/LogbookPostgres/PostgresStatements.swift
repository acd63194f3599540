import NIOCore
import PostgresNIO

// The statements a store kept in PostgreSQL runs, each prepared once per connection and bound
// to its values: no value is ever spelled into SQL text. The tables are described in
// <doc:PostgreSQLTables>.

/// The version of the tables' layout this release writes and reads.
let postgresFormatVersion: Int32 = 1

/// The channel on which an append notifies the store's other containers; the payload is the
/// store's name.
let postgresNotificationChannel = "logbook_batches"

/// Creates the tables when missing. Run in a transaction that holds
/// ``postgresSetupLockKey`` first: two hosts creating them at once would collide.
let postgresCreateTables: [PostgresQuery] = [
    """
    CREATE TABLE IF NOT EXISTS logbook_stores (
        store text PRIMARY KEY,
        format_version integer NOT NULL,
        created timestamptz NOT NULL DEFAULT now()
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS logbook_batches (
        store text NOT NULL REFERENCES logbook_stores (store),
        first_sequence bigint NOT NULL CHECK (first_sequence > 0),
        last_sequence bigint NOT NULL CHECK (last_sequence >= first_sequence),
        frame bytea NOT NULL,
        PRIMARY KEY (store, first_sequence)
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS logbook_checkpoints (
        store text NOT NULL REFERENCES logbook_stores (store),
        sequence bigint NOT NULL CHECK (sequence > 0),
        checkpoint bytea NOT NULL,
        created timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (store, sequence)
    )
    """,
]

/// The transaction-level advisory lock that setting up the tables takes.
struct TakeSetupLock: PostgresPreparedStatement {
    static let sql = "SELECT pg_advisory_xact_lock($1)::text"
    static let bindingDataTypes: [PostgresDataType] = [.int8]
    typealias Row = String
    /// "LOGBOOK" in ASCII.
    static let key: Int64 = 0x4C4F_4742_4F4F_4B

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(Self.key)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> String { try row.decode(String.self) }
}

/// Records a store with the format version this release writes, unless it is recorded.
struct RegisterStore: PostgresPreparedStatement {
    static let sql = """
        INSERT INTO logbook_stores (store, format_version) VALUES ($1, $2)
        ON CONFLICT (store) DO NOTHING
        """
    static let bindingDataTypes: [PostgresDataType] = [.text, .int4]
    typealias Row = Void
    let store: String

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(store)
        bindings.append(postgresFormatVersion)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws {}
}

/// The format version a store was recorded with.
struct ReadFormatVersion: PostgresPreparedStatement {
    static let sql = "SELECT format_version FROM logbook_stores WHERE store = $1"
    static let bindingDataTypes: [PostgresDataType] = [.text]
    typealias Row = Int32
    let store: String

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(store)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Int32 { try row.decode(Int32.self) }
}

/// Appends a batch unless its first sequence number is taken, and notifies the store's other
/// containers when it is appended, as the transaction commits. Returns one row when appended,
/// none when the number was taken.
struct AppendBatch: PostgresPreparedStatement {
    static let sql = """
        WITH appended AS (
            INSERT INTO logbook_batches (store, first_sequence, last_sequence, frame)
            VALUES ($1, $2, $3, $4)
            ON CONFLICT (store, first_sequence) DO NOTHING
            RETURNING first_sequence
        )
        SELECT first_sequence, pg_notify('logbook_batches', $1)::text FROM appended
        """
    static let bindingDataTypes: [PostgresDataType] = [.text, .int8, .int8, .bytea]
    typealias Row = Int64
    let store: String
    let firstSequence: Int64
    let lastSequence: Int64
    let frame: ByteBuffer

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(store)
        bindings.append(firstSequence)
        bindings.append(lastSequence)
        bindings.append(frame)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode((Int64, String).self).0 }
}

/// The batch of a store at a first sequence number, if any.
struct ReadBatch: PostgresPreparedStatement {
    static let sql = "SELECT frame FROM logbook_batches WHERE store = $1 AND first_sequence = $2"
    static let bindingDataTypes: [PostgresDataType] = [.text, .int8]
    typealias Row = [UInt8]
    let store: String
    let firstSequence: Int64

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(store)
        bindings.append(firstSequence)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> [UInt8] {
        Array(try row.decode(ByteBuffer.self).readableBytesView)
    }
}

/// At most `limit` batches of a store after a sequence number, in order: a container catching
/// up reads them all, a copy page by page.
struct ReadBatches: PostgresPreparedStatement {
    static let sql = """
        SELECT frame FROM logbook_batches
        WHERE store = $1 AND first_sequence > $2
        ORDER BY first_sequence
        LIMIT $3
        """
    static let bindingDataTypes: [PostgresDataType] = [.text, .int8, .int8]
    typealias Row = [UInt8]
    let store: String
    let after: Int64
    let limit: Int64

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(store)
        bindings.append(after)
        bindings.append(limit)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> [UInt8] {
        Array(try row.decode(ByteBuffer.self).readableBytesView)
    }
}

/// The first sequence number of a store's last batch, if it has any.
struct ReadLastBatchStart: PostgresPreparedStatement {
    static let sql = "SELECT max(first_sequence) FROM logbook_batches WHERE store = $1"
    static let bindingDataTypes: [PostgresDataType] = [.text]
    typealias Row = Int64?
    let store: String

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(store)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Int64? { try row.decode(Int64?.self) }
}

/// Keeps a checkpoint of a store, unless one at that sequence number is kept, and removes the
/// store's checkpoints older than the two newest.
struct KeepCheckpoint: PostgresPreparedStatement {
    static let sql = """
        WITH kept AS (
            INSERT INTO logbook_checkpoints (store, sequence, checkpoint)
            VALUES ($1, $2, $3)
            ON CONFLICT (store, sequence) DO NOTHING
            RETURNING sequence
        )
        SELECT count(*) FROM kept
        """
    static let bindingDataTypes: [PostgresDataType] = [.text, .int8, .bytea]
    typealias Row = Int64
    let store: String
    let sequence: Int64
    let checkpoint: ByteBuffer

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(store)
        bindings.append(sequence)
        bindings.append(checkpoint)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
}

/// Removes a store's checkpoints but the two newest.
struct PruneCheckpoints: PostgresPreparedStatement {
    static let sql = """
        DELETE FROM logbook_checkpoints
        WHERE store = $1 AND sequence < (
            SELECT min(sequence) FROM (
                SELECT sequence FROM logbook_checkpoints WHERE store = $1 ORDER BY sequence DESC LIMIT 2
            ) AS newest
        )
        RETURNING sequence
        """
    static let bindingDataTypes: [PostgresDataType] = [.text]
    typealias Row = Int64
    let store: String

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(store)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
}

/// The newest checkpoint kept of a store.
struct ReadNewestCheckpoint: PostgresPreparedStatement {
    static let sql = """
        SELECT sequence, checkpoint FROM logbook_checkpoints
        WHERE store = $1 ORDER BY sequence DESC LIMIT 1
        """
    static let bindingDataTypes: [PostgresDataType] = [.text]
    typealias Row = (sequence: Int64, bytes: [UInt8])
    let store: String

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(store)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> (sequence: Int64, bytes: [UInt8]) {
        let (sequence, bytes) = try row.decode((Int64, ByteBuffer).self)
        return (sequence, Array(bytes.readableBytesView))
    }
}
