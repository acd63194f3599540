/// What damage at the very end of the log, with no sound batch after it, is.
package struct TailAssessment: Sendable, Hashable {
    /// Whether the bytes are a torn write or damage to written bytes.
    package enum Kind: Sendable, Hashable {
        /// An incomplete write: the file ends before the batch's declared end, or the bytes that
        /// fail are a zero-filled stretch, as a write the power cut short leaves them.
        case torn
        /// The batch's bytes are there and fail on written bytes: a flipped bit, a bad sector,
        /// bytes that are not a batch at all.
        case damaged
    }

    package var kind: Kind
    /// The header of the damaged batch, when its magic number is there: its sequence numbers
    /// are the ones at risk (a damaged header may of course name the wrong ones).
    package var header: BatchHeader?
}

extension SegmentScanner {
    /// The unit in which a write that the power cut short leaves zeros: a zero-filled stretch
    /// that starts on such a boundary is the mark of a block the disk never wrote.
    static let sectorSize: Int64 = 512

    /// Tells a torn write from damage, for damage at the end of the last segment that no sound
    /// batch follows.
    ///
    /// A tail is torn when the file ends before the batch's declared end (a header cut short
    /// counts when the bytes that are there begin like one), or when the bytes from some point
    /// to the end of the file are zeros, starting on a 512-byte boundary of the file or no later
    /// than the end of the batch's header, so that all of its payload is zeros. Anything else is
    /// damage: a batch whose full declared length is there and whose checksum fails on written
    /// bytes, or bytes that are not a batch header at all.
    package mutating func assessTail(_ damage: LogDamage) throws(LogbookError) -> TailAssessment {
        let start = damage.offset
        let available = Int(min(Int64(LogFormat.headerSize), size - start))
        var head = [UInt8](repeating: 0, count: max(available, 0))
        let read = try file.read(into: &head, count: head.count, at: start)
        head.removeLast(head.count - read)
        let header = head.withUnsafeBytes { BatchHeader.read(from: $0) }
        guard damage.reason.couldBeTornWrite else { return TailAssessment(kind: .damaged, header: header) }
        switch damage.reason {
        case .truncatedHeader:
            let magic = withUnsafeBytes(of: LogFormat.magic.littleEndian) { [UInt8]($0) }
            let beginsLikeHeader = head.prefix(magic.count).elementsEqual(magic.prefix(min(head.count, magic.count)))
            if beginsLikeHeader || head.allSatisfy({ $0 == 0 }) { return TailAssessment(kind: .torn, header: header) }
        case .truncatedPayload:
            return TailAssessment(kind: .torn, header: header)
        default:
            break
        }
        let zeros = try trailingZerosStart(notBefore: start)
        let torn =
            zeros < size
            && (zeros <= start + Int64(LogFormat.headerSize) || zeros % Self.sectorSize == 0)
        return TailAssessment(kind: torn ? .torn : .damaged, header: header)
    }

    /// Where the run of zero bytes that ends the file starts, no earlier than `floor`; the file
    /// size when its last byte is not zero.
    private func trailingZerosStart(notBefore floor: Int64) throws(LogbookError) -> Int64 {
        let chunk = 64 << 10
        var buffer = [UInt8](repeating: 0, count: chunk)
        var end = size
        while end > floor {
            let begin = max(floor, end - Int64(chunk))
            let length = Int(end - begin)
            let read = try file.read(into: &buffer, count: length, at: begin)
            guard read == length else { return end }
            if let last = buffer[..<length].lastIndex(where: { $0 != 0 }) {
                return begin + Int64(last) + 1
            }
            end = begin
        }
        return floor
    }
}
