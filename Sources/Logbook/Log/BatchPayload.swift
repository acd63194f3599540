/// The payload of a batch as it is built: the events one after another, each preceded by its
/// length as an unsigned LEB128 varint (the layout the `OnDiskFormat` article gives).
///
/// Events are encoded straight into the one buffer, so that a batch of many small events costs
/// one growing array instead of an array per event and a copy of each.
package struct BatchPayload: Sendable {
    /// The payload's bytes.
    package private(set) var writer: BinaryWriter
    /// The number of events appended.
    package private(set) var eventCount = 0
    /// Whether the payload begins with a transaction record (``LogFormat/flagTransaction``).
    package private(set) var hasTransaction = false
    /// Whether an event holds a reference to a value kept in a file (``LogFormat/flagExternal``).
    package private(set) var hasExternalReferences = false

    package init(capacity: Int = 4096) {
        writer = BinaryWriter(capacity: capacity)
    }

    /// An empty payload that writes into `buffer`'s memory (see ``takeBuffer()``).
    init(reusing buffer: consuming [UInt8]) {
        writer = BinaryWriter(reusing: consume buffer)
    }

    /// The payload of encoded events, in order.
    package init(_ events: [[UInt8]]) {
        var length = 0
        for event in events { length += LEB128.length(of: UInt64(event.count)) + event.count }
        self.init(capacity: length)
        for event in events { append(event) }
    }

    package var bytes: [UInt8] { writer.bytes }

    /// Empties the payload and returns its buffer, for a later payload to write into
    /// (``init(reusing:)``) without allocating and touching new memory again.
    mutating func takeBuffer() -> [UInt8] {
        eventCount = 0
        hasTransaction = false
        hasExternalReferences = false
        let buffer = writer.bytes
        writer = BinaryWriter(capacity: 0)
        return buffer
    }

    package var isEmpty: Bool { eventCount == 0 }

    /// Records that an event of the payload holds a reference to a value kept in a file, which
    /// makes the batch one of format version 5.
    package mutating func markExternalReferences() {
        hasExternalReferences = true
    }

    /// Begins the payload with a transaction record: its bytes after their length, like an
    /// event, but not counted as one (``LogFormat/flagTransaction``).
    ///
    /// - Precondition: Nothing has been appended yet.
    package mutating func appendTransaction(_ record: BatchTransaction) {
        precondition(writer.bytes.isEmpty && !hasTransaction, "a transaction record begins the payload")
        writer.writeWithLengthPrefix { record.encode(into: &$0) }
        hasTransaction = true
    }

    /// Begins the payload with a transaction record already encoded, as salvage copies it.
    ///
    /// - Precondition: Nothing has been appended yet.
    mutating func appendTransaction(encoded record: ArraySlice<UInt8>) {
        precondition(writer.bytes.isEmpty && !hasTransaction, "a transaction record begins the payload")
        writer.writeLengthPrefixed(record)
        hasTransaction = true
    }

    /// Appends an event already encoded.
    package mutating func append(_ event: [UInt8]) {
        writer.writeLengthPrefixed(event)
        eventCount += 1
    }

    /// Appends `count` events, each after its length, that `encode` writes in place into the
    /// `byteCount` bytes it is given, every one of them; room is left for `extra` more bytes.
    mutating func appendEncodedEvents(
        count: Int,
        byteCount: Int,
        extra: Int,
        _ encode: (UnsafeMutableBufferPointer<UInt8>) -> Void
    ) {
        writer.writeInPlace(count: byteCount, extra: extra, encode)
        eventCount += count
    }

    /// Appends the event that `encode` writes.
    ///
    /// - Returns: Where the event's bytes (after their length) are in ``bytes``.
    @discardableResult
    package mutating func appendEvent(_ encode: (inout BinaryWriter) throws -> Void) rethrows -> Range<Int> {
        try writer.writeWithLengthPrefix(encode)
        eventCount += 1
        return writer.bytes.count - writer.lastPrefixedLength..<writer.bytes.count
    }
}
