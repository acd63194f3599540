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

    /// Splits a payload into events, checking that the framing accounts for every byte.
    ///
    /// - Returns: the ranges, or a description of what is malformed.
    static func splitEvents(in payload: [UInt8], count: Int) -> Result<[Range<Int>], LogDamage.Reason> {
        var ranges: [Range<Int>] = []
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
