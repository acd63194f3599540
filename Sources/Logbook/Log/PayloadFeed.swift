import Dispatch
import Synchronization

/// A batch's payload passed from the thread that encodes it to the thread that appends it, a
/// piece at a time, so that the appending thread compresses each piece while the next is
/// encoded (see ``LZ4Pieces``).
///
/// Saving SampleTrips-100k a thousand trips at a time, the saving thread encoded each batch in
/// about 0.7 ms and the appending thread then compressed it in about 1.2 ms before writing and
/// flushing it, while the saving thread applied the batch to the projection and then waited:
/// about 30 ms over the hundred saves. Compressing each piece as it is published, the appending
/// thread starts about 0.1 ms after the encoding does, and the saves waited about 20 ms.
///
/// The encoding thread calls ``publish(payloadStart:upTo:)`` as the bytes become ready, then
/// ``finish(_:)`` with the whole payload, and changes none of the published bytes in between,
/// nor moves them: the payload's buffer must have been allocated at its final size before the
/// first publication. The appending thread calls ``compressAsEncoded()`` once. A feed that is
/// not ``compressing`` only hands the finished payload over, for the appending thread to
/// compress whole, if at all.
final class PayloadFeed: @unchecked Sendable {
    /// The bytes to gather before the appending thread is woken: liblz4 refers back up to
    /// 64 KiB, so a piece of that size compresses as well as the whole payload at once.
    static let pieceBytes = 64 << 10

    // Written by the encoding thread before the release of `ready` or `finished` that publishes
    // them, read by the appending thread only after acquiring that store.
    private var payloadStart: UnsafeRawPointer?
    private var payload: BatchPayload?
    private let ready = Atomic<Int>(0)
    private let finished = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)

    /// Whether the appending thread compresses the payload into pieces.
    let compressing: Bool

    init(compressing: Bool = true) {
        self.compressing = compressing
    }

    // MARK: - The encoding thread

    /// Makes the payload's first `end` bytes, from `payloadStart`, available to compress.
    func publish(payloadStart: UnsafeRawPointer, upTo end: Int) {
        // Set once, before the first release: the appending thread may read it from then on.
        if self.payloadStart == nil { self.payloadStart = payloadStart }
        ready.store(end, ordering: .releasing)
        wake.signal()
    }

    /// Hands the finished payload over.
    func finish(_ payload: consuming BatchPayload) {
        self.payload = consume payload
        finished.store(true, ordering: .releasing)
        wake.signal()
    }

    // MARK: - The appending thread

    /// Waits for the payload, compressing it as its pieces are published.
    ///
    /// - Returns: the payload, and its LZ4 pieces after ``LogFormat/headerSize`` bytes set aside
    ///   for the batch's header; `nil` for the pieces when the feed is not ``compressing``, when
    ///   they could not be made, or when the payload's buffer moved after it was published, and
    ///   then the caller compresses the payload whole.
    func compressAsEncoded() -> (payload: BatchPayload, pieces: [UInt8]?) {
        var block: LZ4Pieces?
        var start: UnsafeRawPointer?
        while true {
            wake.wait()
            let isFinished = finished.load(ordering: .acquiring)
            let end = ready.load(ordering: .acquiring)
            if block == nil, end > 0, let payloadStart {
                start = payloadStart
                block = LZ4Pieces(framing: payloadStart)
            }
            if end > 0 { block?.compress(upTo: end) }
            if isFinished { break }
        }
        guard let payload = payload.take() else { preconditionFailure("a finished feed holds its payload") }
        guard compressing else { return (payload, nil) }
        let bytes = payload.bytes
        let compressed = bytes.withUnsafeBytes { whole -> [UInt8]? in
            guard let base = whole.baseAddress, whole.count > 0 else { return nil }
            // Nothing published: the payload is compressed here, in one piece.
            if block == nil {
                start = base
                block = LZ4Pieces(framing: base)
            }
            guard base == start, var pieces = block.take(), pieces.compressedEnd <= whole.count else { return nil }
            pieces.compress(upTo: whole.count)
            return pieces.finish()
        }
        return (payload, compressed)
    }
}
