/// A batch read back from the log: its header, its uncompressed payload and where each event
/// lies in it.
package struct Batch: Sendable {
    /// The batch header as stored.
    package let header: BatchHeader
    /// The segment file the batch was read from.
    package let segment: String
    /// The byte offset of the batch header in ``segment``.
    package let offset: Int64
    /// The uncompressed payload.
    package let payload: [UInt8]
    /// The byte range of each event in ``payload``.
    package let eventRanges: [Range<Int>]
    /// The byte range of the transaction record in ``payload``, for a batch that has one
    /// (``LogFormat/flagTransaction``).
    package var transactionRange: Range<Int>? = nil

    /// The sequence number of the first event.
    package var firstSequence: UInt64 { header.firstSequence }
    /// The sequence number of the last event.
    package var lastSequence: UInt64 { header.lastSequence }
    /// The number of events.
    package var count: Int { eventRanges.count }

    /// The encoded bytes of the event at `index` (0-based within the batch).
    package func event(at index: Int) -> ArraySlice<UInt8> {
        payload[eventRanges[index]]
    }

    /// The sequence number and encoded bytes of every event, in order.
    package var events: [(sequence: UInt64, bytes: ArraySlice<UInt8>)] {
        eventRanges.enumerated().map { (firstSequence + UInt64($0.offset), payload[$0.element]) }
    }

    /// The index of the first event that begins with ``LogFormat/schemaRecordKind``, if any.
    static func firstSchemaRecord(in payload: [UInt8], _ ranges: [Range<Int>]) -> Int? {
        ranges.firstIndex { !$0.isEmpty && payload[$0.lowerBound] == LogFormat.schemaRecordKind }
    }

    /// The transaction record of the batch: its time and author; `nil` for a batch without one
    /// (written before format version 4).
    ///
    /// - Throws: ``LogbookError/Code/corruption`` naming the segment and offset when the record
    ///   does not decode.
    package func transaction() throws(LogbookError) -> BatchTransaction? {
        guard let transactionRange else { return nil }
        do {
            return try BatchTransaction.decode(payload[transactionRange])
        } catch {
            var located = error
            located.path = segment
            located.offset = offset
            located.sequence = firstSequence
            throw located
        }
    }

    /// Splits a payload into events, checking that the framing accounts for every byte.
    ///
    /// - Parameter transaction: Whether the payload begins with a transaction record, framed
    ///   like an event; its range is then the first of those returned.
    /// - Returns: the ranges, or a description of what is malformed.
    static func splitEvents(
        in payload: [UInt8],
        count: Int,
        transaction: Bool = false
    ) -> Result<[Range<Int>], LogDamage.Reason> {
        var ranges: [Range<Int>] = []
        let count = transaction ? count + 1 : count
        ranges.reserveCapacity(count)
        let failure: LogDamage.Reason? = payload.withUnsafeBytes { bytes in
            var position = 0
            for index in 0..<count {
                guard let length = LEB128.read(bytes, at: &position) else {
                    return .malformedEvents("length of event \(index) is not a valid varint")
                }
                guard length <= UInt64(bytes.count - position) else {
                    return .malformedEvents("event \(index) claims \(length) bytes, \(bytes.count - position) remain")
                }
                let end = position + Int(length)
                ranges.append(position..<end)
                position = end
            }
            if position != bytes.count {
                return .malformedEvents("\(bytes.count - position) bytes after the last of \(count) events")
            }
            return nil
        }
        if let failure { return .failure(failure) }
        return .success(ranges)
    }
}
