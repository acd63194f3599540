/// What a salvage kept and what it dropped, in the order of the damaged log.
package struct SalvageReport: Sendable {
    /// One stretch of the damaged log: a run of batches of one segment, a damaged region, or
    /// sequence numbers that no segment holds.
    package struct Entry: Sendable, Hashable {
        /// What happened to the stretch.
        package enum Disposition: Sendable, Hashable {
            /// Copied into the new store.
            case kept
            /// Damaged bytes: a batch that fails its checks, or a batch whose sequence numbers do
            /// not continue the kept ones.
            case damaged(LogDamage.Reason)
            /// An incomplete batch at the very end of the log: a write cut short by a crash, never
            /// acknowledged to the writer.
            case tornTail(LogDamage.Reason)
            /// Sequence numbers that no segment holds, for example because a segment is missing.
            case missing
            /// Sound batches after the first damage: dropped because the new store must run without
            /// a gap in its sequence numbers.
            case afterDamage
        }

        package var disposition: Disposition
        /// The segment file; for ``Disposition/missing``, the segment where the events were expected.
        package var segment: String
        /// The byte offset in ``segment`` where the stretch starts.
        package var offset: Int64
        /// The stretch's length in bytes.
        package var byteCount: Int64
        /// The sequence number of its first event, when it is known. A damaged region's is
        /// inferred from the sound batch before it.
        package var firstSequence: UInt64?
        /// The number of events, when it is known. A damaged region's is inferred from the sound
        /// batch after it; it is unknown for damage at the end of the log.
        package var eventCount: Int?
        /// The number of whole batches.
        package var batchCount: Int

        /// The sequence numbers of its events, when they are known.
        package var sequence: ClosedRange<UInt64>? {
            guard let firstSequence, let eventCount, eventCount > 0 else { return nil }
            return firstSequence...(firstSequence + UInt64(eventCount) - 1)
        }

        /// Whether the stretch was copied into the new store.
        package var isKept: Bool { disposition == .kept }
    }

    /// Every stretch, in log order.
    package var entries: [Entry] = []
    /// The segment files read.
    package var segments = 0
    /// The tails that opens of the damaged store cut off and kept in its quarantine directory:
    /// salvage lists them, and never copies them, since they follow the log's last batch.
    package var quarantinedTails: [Quarantine.Tail] = []
    /// The value files of `.externalStorage` attributes the kept batches refer to, copied into
    /// the new store.
    package var copiedExternalFiles = 0
    /// The kept references whose files are missing or damaged in the damaged store: the
    /// references are kept as they are (the batches are copied byte for byte), and reading
    /// those values from the new store fails as it would have from the old one, naming the file.
    package var missingExternalFiles: [ExternalFilesCheck.Damage] = []

    /// The events, batches and sequence numbers copied into the new store.
    package var keptEvents: Int { entries.filter(\.isKept).reduce(0) { $0 + ($1.eventCount ?? 0) } }
    package var keptBatches: Int { entries.filter(\.isKept).reduce(0) { $0 + $1.batchCount } }
    package var keptSequence: ClosedRange<UInt64>? {
        let kept = entries.filter(\.isKept).compactMap(\.sequence)
        guard let first = kept.first, let last = kept.last else { return nil }
        return first.lowerBound...last.upperBound
    }

    /// The stretches left out of the new store.
    package var dropped: [Entry] { entries.filter { !$0.isKept } }

    /// Whether everything in the damaged log was copied.
    package var keptEverything: Bool { entries.allSatisfy(\.isKept) }
}
