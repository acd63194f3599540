/// What to do when the last batch of the log is damaged rather than torn.
///
/// A batch at the very end of the log that is incomplete (the file ends before its declared
/// end, or the bytes that fail are zeros) is a write a crash cut short: an open always moves it
/// into the store's `quarantine` directory and goes on. A last batch whose bytes are all there
/// and fail their checksum is damage to bytes that were written, perhaps long ago; so is a
/// tail whose cut would take the log below the point the store recorded as durable. This
/// policy says what an open does then.
///
/// ```swift
/// var configuration = ModelConfiguration(url: storeURL)
/// configuration.damagedTailPolicy = .quarantine
/// let container = try ModelContainer(for: Trip.self, configurations: configuration)
/// if let tail = container.recoveryReport.quarantinedTail {
///     showWarning("The last changes could not be read; they are kept in \(tail.quarantinePath).")
/// }
/// ```
public enum DamagedTailPolicy: Sendable, Hashable {
    /// The open throws ``LogbookError/Code/corruption`` naming the segment, the byte offset and
    /// the sequence numbers at risk, and changes nothing. The default.
    case refuse
    /// The open copies the damaged bytes into the store's `quarantine` directory, cuts them off
    /// the log, reports them in ``ModelContainer/recoveryReport`` and through the logger, and
    /// goes on without them.
    case quarantine
}

/// What opening a store recovered: the bytes it moved into quarantine, if any.
///
/// Read it from ``ModelContainer/recoveryReport`` after the container is created; the same is
/// logged at warning level through the configuration's logger.
///
/// ## Topics
///
/// ### Inspecting
/// - ``quarantinedTail``
/// - ``isEmpty``
/// - ``QuarantinedTail``
public struct RecoveryReport: Sendable, Hashable, CustomStringConvertible {
    /// Bytes cut off the end of the log and kept in the store's `quarantine` directory.
    public struct QuarantinedTail: Sendable, Hashable, CustomStringConvertible {
        /// The segment file the bytes were cut from.
        public var segment: String
        /// The byte offset in the segment where the cut was made: the segment's size now.
        public var offset: Int64
        /// How many bytes were cut.
        public var byteCount: Int64
        /// The file that holds the cut bytes, exactly.
        public var quarantinePath: String
        /// The first sequence number the cut bytes would have held: the next event appended
        /// receives it.
        public var firstSequence: UInt64
        /// The last sequence number, when the damaged batch's header could be read.
        public var lastSequence: UInt64?
        /// Whether the bytes were a torn write (an incomplete batch a crash left); `false` when
        /// they were damage quarantined because of ``DamagedTailPolicy/quarantine``.
        public var wasTorn: Bool
        /// Whether the cut reached below the point the store recorded as durable: saves that
        /// were acknowledged are among the cut bytes.
        public var includesDurableSaves: Bool
        /// What was wrong with the bytes, in words.
        public var reason: String

        public var description: String {
            let sequences = lastSequence.map { "sequence \(firstSequence)...\($0)" } ?? "sequence \(firstSequence) on"
            let what = wasTorn ? "torn write" : "damaged batch"
            let durable = includesDurableSaves ? ", including saves that had been on disk" : ""
            return
                "\(what) of \(byteCount) bytes (\(sequences)\(durable)) cut from \(segment) at byte offset \(offset), kept in \(quarantinePath): \(reason)"
        }
    }

    /// The bytes the open moved into quarantine; `nil` when it cut nothing.
    public var quarantinedTail: QuarantinedTail?

    /// Whether the open found the log whole and changed nothing.
    public var isEmpty: Bool { quarantinedTail == nil }

    /// Creates a report.
    public init(quarantinedTail: QuarantinedTail? = nil) {
        self.quarantinedTail = quarantinedTail
    }

    public var description: String {
        quarantinedTail.map { "quarantined a \($0)" } ?? "nothing recovered"
    }
}
