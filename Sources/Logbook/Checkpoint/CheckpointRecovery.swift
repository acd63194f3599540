import Logging

/// What a store reads instead of a checkpoint's values when it finds one damaged after the open:
/// the objects of the checkpoint's sequence number, replayed from the log.
///
/// A checkpoint of format version 2 checks its values and heaps as they are read, long after the
/// open, often from a property's getter, which cannot throw. A damaged chunk then does not make
/// the read fail or see wrong data: the first one replays the log up to the checkpoint's sequence
/// number, on the thread that found it, with a warning naming the file and the byte offset, and
/// every damaged value is read from that replay from then on. The values written since the open
/// are not affected: they are in the store's own memory.
///
/// The log the replay reads is the one the open checked the checkpoint against. A log that cannot
/// be replayed either leaves the value nowhere to be read from: the process stops, with a message
/// naming the checkpoint's damage and the log's.
final class CheckpointRecovery: Sendable {
    /// The checkpoint's path, for messages.
    let path: String
    /// The checkpoint's sequence number.
    let sequence: UInt64
    private let logger: Logger
    private let replay: @Sendable () throws(LogbookError) -> Projection
    private let replayed = Locked<Result<Projection, LogbookError>?>(nil)

    /// A recovery for the checkpoint at `path`, as of `sequence`, whose objects `replay` gives.
    init(
        path: String,
        sequence: UInt64,
        logger: Logger,
        replay: @escaping @Sendable () throws(LogbookError) -> Projection
    ) {
        self.path = path
        self.sequence = sequence
        self.logger = logger
        self.replay = replay
    }

    /// Set once a checkpoint written after the damage was found replaces this one.
    private let replaced = Locked(false)

    /// Whether a damaged value was found and no checkpoint written since: a store that writes
    /// checkpoints by itself then writes one, so that the next open does not meet the damage
    /// and replay the log again.
    var needsReplacing: Bool {
        replayed.withLock { $0 != nil } && !replaced.withLock { $0 }
    }

    /// Notes that a checkpoint was written, from values that are sound or read from the log:
    /// the next open takes it instead of this one.
    func noteReplaced() {
        guard replayed.withLock({ $0 != nil }) else { return }
        replaced.withLock { $0 = true }
    }

    /// The value of attribute `attribute` of object `identifier` of table `table`, as the
    /// replay gives it; `damage` says what was wrong with the checkpoint's cell.
    func value(table: Int, identifier: UInt64, attribute: Int, damage: String) -> AttributeValue {
        let result = replayed.withLock { replayed -> Result<Projection, LogbookError> in
            if let replayed { return replayed }
            logger.warning(
                "damaged checkpoint \(path): \(damage); reading its objects from the log up to sequence \(sequence) instead",
                metadata: ["checkpoint": "\(path)", "reason": "\(damage)"]
            )
            let result: Result<Projection, LogbookError>
            do throws(LogbookError) {
                result = .success(try replay())
            } catch {
                result = .failure(error)
            }
            replayed = result
            return result
        }
        switch result {
        case .success(let projection):
            // An object the checkpoint holds is in the log's objects at its sequence number; a
            // slot the checkpoint holds free has no value to read.
            guard let slot = projection.slots.slot(of: identifier), table < projection.tables.count else {
                if identifier != 0 {
                    logger.error(
                        "damaged checkpoint \(path): object \(identifier) is not in the log at sequence \(sequence); its attribute \(attribute) reads as nil",
                        metadata: ["checkpoint": "\(path)"]
                    )
                }
                return .null
            }
            return projection.tables[table].value(slot, attribute)
        case .failure(let error):
            preconditionFailure(
                "damaged checkpoint \(path): \(damage); the log cannot be replayed up to sequence \(sequence) either: \(error)"
            )
        }
    }
}
