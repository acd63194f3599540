/// An error thrown by Logbook.
///
/// Every error carries a coarse ``code`` that programs can match on, a human-readable
/// ``message``, and the context a user needs to find the problem: the store, the segment file,
/// the byte offset and the sequence number, when they are known. The underlying ``cause`` is
/// kept, for example the system error of a failed `fdatasync`.
///
/// Match on the code with a pattern:
///
/// ```swift
/// do {
///     let container = try ModelContainer(for: Trip.self, configurations: configuration)
/// } catch LogbookError.storeLocked {
///     print("Another process is writing to this store.")
/// }
/// ```
///
/// The text of ``description`` is meant for people and may change between releases; match on
/// ``code`` instead.
///
/// ## Topics
///
/// ### Classifying errors
/// - ``code``
/// - ``Code``
///
/// ### Context
/// - ``message``
/// - ``path``
/// - ``offset``
/// - ``sequence``
/// - ``cause``
public struct LogbookError: Error, Sendable, CustomStringConvertible {
    /// A coarse classification of ``LogbookError``.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Sendable {
            case corruption
            case io
            case storeLocked
            case writerFailed
            case batchTooLarge
            case unsupportedFormat
            case notAStore
            case invalidArgument
            case schemaMismatch
            case saveNotAllowed
            case validationFailed
            case migrationFailed
            case outOfMemory
            case conflict
            case invalidConfiguration
            case unsupported
            case historyDeleted
        }

        private let value: Value

        private init(_ value: Value) {
            self.value = value
        }

        /// Bytes in the store are damaged: a checksum mismatch, a bad header, a gap in sequence
        /// numbers, or a payload that does not decompress to its declared size.
        public static let corruption = Code(.corruption)
        /// A system call failed; ``LogbookError/cause`` holds the system error.
        public static let io = Code(.io)
        /// Another writer holds the store's lock.
        public static let storeLocked = Code(.storeLocked)
        /// An earlier flush to disk failed, so this writer refuses further writes. Reopen the
        /// store: the kernel may already have dropped the unwritten pages, so retrying the flush
        /// could report success for data that is lost.
        public static let writerFailed = Code(.writerFailed)
        /// A batch is larger than the configured maximum batch size.
        public static let batchTooLarge = Code(.batchTooLarge)
        /// The store was written in a format version this release cannot read.
        public static let unsupportedFormat = Code(.unsupportedFormat)
        /// The path is not a Logbook store.
        public static let notAStore = Code(.notAStore)
        /// An argument is out of range.
        public static let invalidArgument = Code(.invalidArgument)
        /// The store's schema is not the models' schema, and no migration plan connects them.
        public static let schemaMismatch = Code(.schemaMismatch)
        /// The container's configuration does not allow saving.
        public static let saveNotAllowed = Code(.saveNotAllowed)
        /// A save broke a rule of the schema: a `.deny` delete rule, a minimum or maximum model
        /// count, or a relationship to an object that is not in the store.
        public static let validationFailed = Code(.validationFailed)
        /// A migration stage failed; the store is left at its old version.
        public static let migrationFailed = Code(.migrationFailed)
        /// The memory for a table's attribute values could not be allocated. A save that fails
        /// this way wrote nothing and leaves its changes pending; an open that fails this way
        /// changed nothing on disk.
        public static let outOfMemory = Code(.outOfMemory)
        /// Another writer of a shared store (see `LogbookPostgres`) changed what a save
        /// changes: an object it edits or deletes is gone. The save wrote nothing and its changes
        /// stay pending; fetch, decide, and save again.
        public static let conflict = Code(.conflict)
        /// A container's configurations do not fit together: an entity named by two of them, two
        /// on one store directory or with one name, an entity none of them holds, or a
        /// relationship between entities kept in different stores. Thrown by the container's
        /// initializer, which then opened nothing.
        public static let invalidConfiguration = Code(.invalidConfiguration)
        /// The operation is not available on this container: for example reading the history
        /// of a container of several stores, whose tokens each belong to one store. The message
        /// says what to do instead.
        public static let unsupported = Code(.unsupported)
        /// The history a token or an as-of read needs was deleted
        /// (``ModelContext/deleteHistory(_:)``): the message names the token and the horizon, the
        /// token of the last transaction deleted. Read on from the horizon's token or a later one.
        public static let historyDeleted = Code(.historyDeleted)

        public var description: String { value.rawValue }

        /// Matches an error against a code, so that `catch LogbookError.corruption` works.
        public static func ~= (code: Code, error: any Error) -> Bool {
            (error as? LogbookError)?.code == code
        }
    }

    /// The classification of this error.
    public var code: Code
    /// What went wrong, in words.
    public var message: String
    /// The file or directory concerned: a segment file, the lock file or the store.
    public var path: String?
    /// The byte offset in ``path`` where the problem was found.
    public var offset: Int64?
    /// The sequence number concerned, when one is known.
    public var sequence: UInt64?
    /// The underlying error, such as the system error of a failed call.
    public var cause: (any Error & Sendable)?

    /// Creates an error.
    public init(
        _ code: Code,
        _ message: String,
        path: String? = nil,
        offset: Int64? = nil,
        sequence: UInt64? = nil,
        cause: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.path = path
        self.offset = offset
        self.sequence = sequence
        self.cause = cause
    }

    public var description: String {
        var text = message
        if let path {
            text += " (\(path)"
            if let offset { text += " at byte offset \(offset)" }
            text += ")"
        }
        if let sequence { text += " [sequence \(sequence)]" }
        if let cause { text += ": \(cause)" }
        return text
    }
}

extension LogbookError {
    /// The codes as static members, so that patterns read `catch LogbookError.storeLocked`.
    public static let corruption = Code.corruption
    /// See ``Code/io``.
    public static let io = Code.io
    /// See ``Code/storeLocked``.
    public static let storeLocked = Code.storeLocked
    /// See ``Code/writerFailed``.
    public static let writerFailed = Code.writerFailed
    /// See ``Code/batchTooLarge``.
    public static let batchTooLarge = Code.batchTooLarge
    /// See ``Code/unsupportedFormat``.
    public static let unsupportedFormat = Code.unsupportedFormat
    /// See ``Code/notAStore``.
    public static let notAStore = Code.notAStore
    /// See ``Code/invalidArgument``.
    public static let invalidArgument = Code.invalidArgument
    /// See ``Code/schemaMismatch``.
    public static let schemaMismatch = Code.schemaMismatch
    /// See ``Code/saveNotAllowed``.
    public static let saveNotAllowed = Code.saveNotAllowed
    /// See ``Code/validationFailed``.
    public static let validationFailed = Code.validationFailed
    /// See ``Code/migrationFailed``.
    public static let migrationFailed = Code.migrationFailed
    /// See ``Code/outOfMemory``.
    public static let outOfMemory = Code.outOfMemory
    /// See ``Code/invalidConfiguration``.
    public static let invalidConfiguration = Code.invalidConfiguration
    /// See ``Code/unsupported``.
    public static let unsupported = Code.unsupported
    /// See ``Code/historyDeleted``.
    public static let historyDeleted = Code.historyDeleted

    /// The error for a read that needs the history after `position` from a store whose history
    /// was deleted up to and including `horizon`.
    static func historyDeleted(after position: UInt64, horizon: UInt64, store: String) -> LogbookError {
        let from = position == 0 ? "from the beginning" : "after token \(position)"
        return LogbookError(
            .historyDeleted,
            "the history \(from) was deleted: the store's history starts after token \(horizon), the horizon; read on from token \(horizon) or later",
            path: store,
            sequence: horizon
        )
    }
    /// An error for a failed system call, naming the call and the path.
    static func system(_ call: String, path: String, _ errno: Errno, offset: Int64? = nil) -> LogbookError {
        LogbookError(.io, "\(call) failed", path: path, offset: offset, cause: errno)
    }
}
