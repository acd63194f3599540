/// Damage found in a segment file: where it is and what is wrong.
///
/// The reader describes damage to a ``CorruptionReporter``; policy sits above it. Opening a store
/// moves a torn batch at the very end of the log into quarantine and throws on anything else,
/// while verification collects every report.
package struct LogDamage: Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the bytes.
    package enum Reason: Error, Hashable, Sendable, CustomStringConvertible {
        case truncatedHeader(available: Int)
        case badMagic
        case unsupportedVersion(UInt16, checksumMatches: Bool)
        case unknownFlags(UInt16)
        case lengthOutOfBounds(field: String, value: UInt32, maximum: Int)
        case truncatedPayload(needed: Int, available: Int64)
        case checksumMismatch(stored: UInt32, computed: UInt32)
        case decompressionFailed(declaredLength: UInt32)
        case malformedEvents(String)
        /// A version 2 batch whose ``LogFormat/flagSchemaRecord`` disagrees with its events:
        /// `flagged` is the flag; `event` the index of the first schema record, if any.
        case schemaRecordFlagMismatch(flagged: Bool, event: Int?)
        case sequenceGap(expected: UInt64, found: UInt64)
        /// A sound batch whose events would number past the largest sequence number.
        case sequenceOverflow(first: UInt64, count: UInt32)
        case emptySealedSegment
        case undecodableEvent(sequence: UInt64, detail: String)
        /// A system call failed while reading the bytes (for example `EIO` from a bad sector).
        case unreadable(String)
        /// The log does not reach, or does not match, the point the store recorded as durable
        /// (``DurablePoint``); or the record itself is damaged.
        case durablePoint(String)

        package var description: String {
            switch self {
            case .truncatedHeader(let available):
                return "batch header cut short: \(available) of \(LogFormat.headerSize) bytes"
            case .badMagic:
                return "no batch header (bad magic number)"
            case .unsupportedVersion(let version, _):
                let readable = LogFormat.readableVersions
                return
                    "unknown batch format version \(version) (this release reads versions \(readable.lowerBound) to \(readable.upperBound))"
            case .unknownFlags(let flags):
                return "unknown batch flags 0x\(String(flags, radix: 16))"
            case .lengthOutOfBounds(let field, let value, let maximum):
                return "\(field) \(value) is out of bounds (maximum \(maximum))"
            case .truncatedPayload(let needed, let available):
                return "batch cut short: needs \(needed) bytes, \(available) remain in the file"
            case .checksumMismatch(let stored, let computed):
                return "checksum mismatch: stored 0x\(hex(stored)), computed 0x\(hex(computed))"
            case .decompressionFailed(let declared):
                return "payload does not decompress to its declared \(declared) bytes"
            case .malformedEvents(let detail):
                return "malformed event framing: \(detail)"
            case .schemaRecordFlagMismatch(let flagged, let event):
                if flagged { return "the header flags a schema record, but no event of the batch is one" }
                return "event \(event ?? 0) of the batch is a schema record, but the header does not flag one"
            case .sequenceGap(let expected, let found):
                return "sequence gap: expected \(expected), found \(found)"
            case .sequenceOverflow(let first, let count):
                return "sequence numbers overflow: \(count) events from \(first) pass \(UInt64.max)"
            case .emptySealedSegment:
                return "empty segment before the last one"
            case .undecodableEvent(let sequence, let detail):
                return "event \(sequence) does not decode: \(detail)"
            case .unreadable(let detail):
                return "unreadable: \(detail)"
            case .durablePoint(let detail):
                return detail
            }
        }

        private func hex(_ value: UInt32) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
        }

        /// Whether this damage could be a write cut short by a crash, if it is at the end of the log:
        /// only damage found before the checksum matched. Whether it is one is for
        /// ``SegmentScanner/assessTail(_:)`` to say.
        var couldBeTornWrite: Bool {
            switch self {
            case .unsupportedVersion(_, let checksumMatches): return !checksumMatches
            case .truncatedHeader, .badMagic, .lengthOutOfBounds, .truncatedPayload, .checksumMismatch: return true
            case .sequenceGap, .sequenceOverflow, .emptySealedSegment, .undecodableEvent, .unreadable,
                .schemaRecordFlagMismatch, .unknownFlags, .decompressionFailed, .malformedEvents, .durablePoint:
                return false
            }
        }
    }

    /// The segment file.
    package var segment: String
    /// The byte offset in the segment where the damaged batch starts.
    package var offset: Int64
    /// How many bytes, from ``offset``, the damage makes unreadable (to the next sound batch or
    /// the end of the file).
    package var byteCount: Int64
    /// What is wrong.
    package var reason: Reason

    package var description: String {
        "\(segment) at byte offset \(offset): \(reason)"
    }

    /// The error that stops an open or a read at this damage.
    package var error: LogbookError {
        switch reason {
        case .unsupportedVersion:
            return LogbookError(.unsupportedFormat, "\(reason)", path: segment, offset: offset)
        default:
            return LogbookError(.corruption, "damaged log: \(reason)", path: segment, offset: offset)
        }
    }
}

/// Receives descriptions of damage found while reading the log.
package protocol CorruptionReporter: AnyObject {
    /// Called once for each damaged region.
    func report(_ damage: LogDamage)
}

/// A reporter that keeps every report, for verification and tests.
package final class CollectingCorruptionReporter: CorruptionReporter {
    package private(set) var damages: [LogDamage] = []

    package init() {}

    package func report(_ damage: LogDamage) {
        damages.append(damage)
    }
}
