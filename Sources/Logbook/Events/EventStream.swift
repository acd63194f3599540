import Dispatch
import Foundation

/// Decodes every event of a store in order: the one loop that replay, the tool and
/// verification share.
package enum EventStream {
    /// Calls `body` with each event's sequence number and decoded envelope, up to `last`.
    ///
    /// Batches are read, decompressed and decoded on a thread of their own, a few batches ahead
    /// of `body`, which runs on the calling thread in log order: replaying a store costs about
    /// the larger of decoding and applying rather than their sum. Nothing is read once `body`
    /// throws, and the decoding thread has stopped when this returns.
    ///
    /// - Throws: ``LogbookError`` for damaged batches, and for an event that does not decode,
    ///   naming its segment, the batch's byte offset and the event's sequence number, once
    ///   `body` has seen every event before it; or what `body` throws.
    package static func forEach(
        _ reader: LogReader,
        from first: UInt64 = 1,
        through last: UInt64 = .max,
        _ body: (UInt64, EventEnvelope) throws -> Void
    ) throws {
        let handoff = DecodedBatches(capacity: 4)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global(qos: .userInitiated).async {
            defer { done.signal() }
            do {
                try decode(reader, from: first, through: last) { handoff.put(.events($0)) }
                handoff.put(.end)
            } catch {
                handoff.put(.failure(error))
            }
        }
        defer {
            handoff.cancel()
            done.wait()
        }
        while true {
            switch handoff.take() {
            case .events(let events):
                for (sequence, envelope) in events { try body(sequence, envelope) }
            case .failure(let error):
                throw error
            case .end:
                return
            }
        }
    }

    /// Decodes the events of `reader` a batch at a time and hands each batch's events to
    /// `deliver`, until it returns `false`.
    private static func decode(
        _ reader: LogReader,
        from first: UInt64,
        through last: UInt64,
        _ deliver: ([(UInt64, EventEnvelope)]) -> Bool
    ) throws(LogbookError) {
        var cursor = reader.batches(from: first)
        while let batch = try cursor.next() {
            var events: [(UInt64, EventEnvelope)] = []
            events.reserveCapacity(batch.count)
            var reachedLast = false
            for index in 0..<batch.count {
                let sequence = batch.firstSequence + UInt64(index)
                if sequence < first { continue }
                if sequence > last {
                    reachedLast = true
                    break
                }
                do {
                    events.append((sequence, try EventCodec.decode(batch.event(at: index))))
                } catch {
                    // The events before the undecodable one are delivered first.
                    guard deliver(events) else { return }
                    var located = error
                    located.path = batch.segment
                    located.offset = batch.offset
                    located.sequence = sequence
                    throw located
                }
            }
            guard deliver(events), !reachedLast else { return }
        }
    }
}

/// The batches of decoded events between the decoding thread and the caller: at most
/// `capacity` waiting, in order.
private final class DecodedBatches: @unchecked Sendable {
    enum Item {
        case events([(UInt64, EventEnvelope)])
        case failure(any Error)
        case end
    }

    // Every property below is guarded by `condition`.
    private let condition = NSCondition()
    private let capacity: Int
    private var items: [Item] = []
    private var head = 0
    private var cancelled = false

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Waits for room and queues `item`; `false` once the caller has stopped taking.
    @discardableResult
    func put(_ item: Item) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count - head >= capacity && !cancelled { condition.wait() }
        if cancelled { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// Waits for the next item.
    func take() -> Item {
        condition.lock()
        defer { condition.unlock() }
        while items.count == head { condition.wait() }
        let item = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        }
        condition.broadcast()
        return item
    }

    /// Stops the decoding thread at its next hand-off.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}

extension Projection {
    /// The projection of a store as of a sequence number, at the newest schema recorded by
    /// then, with nothing but the log: what `logbook replay` shows.
    ///
    /// - Returns: the projection, or `nil` for a store that recorded no schema.
    package static func replaying(_ reader: LogReader, through last: UInt64 = .max) throws -> Projection? {
        let records = try RecordedSchemas.scan(reader, through: last)
        guard let latest = records.last else { return nil }
        var projection = Projection(schema: latest.schema, history: records.dropLast().map(\.schema))
        try EventStream.forEach(reader, through: last) { sequence, envelope in
            projection.apply(envelope.event)
            projection.lastSequence = sequence
        }
        return projection
    }
}
