import Foundation

/// The value cells of one table in a checkpoint, read in place: a cell is 16 bytes (tag, three
/// bytes of padding, a 32-bit length, a 64-bit payload), and the values that do not fit in a
/// cell are bytes of the table's heap at the payload's offset (see the On-disk format article).
///
/// A table loaded from a checkpoint keeps its cells here and decodes each value the first time
/// it is read (see ``ValueColumn``), so that an open costs what it reads. A checkpoint of format
/// version 1 is checked whole at the open, and ``check()`` verifies every cell's shape then. One
/// of version 2 is checked as it is read: decoding a cell first checks the chunks of the cell and
/// of its heap bytes (see ``CheckpointChunks``), then the cell's shape. A cell that fails either
/// is read from the log instead, through ``Recovery``.
final class CheckpointCells: @unchecked Sendable {
    /// The checkpoint the cells lie in, kept alive for as long as a value may still be decoded.
    let region: CheckpointBytes
    private let cells: UnsafeRawPointer
    /// Where the cells begin in ``region``.
    private let cellsOffset: Int
    private let heap: UnsafeRawBufferPointer
    /// Where the heap begins in ``region``.
    private let heapOffset: Int
    /// The number of cells.
    let count: Int
    /// Where a value whose cell is damaged is read instead.
    private let recovery: Recovery?

    /// A cell that does not make sense: its byte offset within the cells and what is wrong.
    struct Damage: Error {
        var position: Int
        var what: String
    }

    /// The chunk checksums that vouch for the cells and heap, and the two sections' indexes.
    struct Checks {
        var chunks: CheckpointChunks
        var cellsSection: Int
        var heapSection: Int
    }

    /// Whether the cells and heap are checked as they are read, with ``cellChunks`` and
    /// ``heapChunks``.
    private let checksOnRead: Bool
    /// The chunks of the cells and of the heap, for a checkpoint checked as it is read; with no
    /// chunks otherwise. Kept out of an optional so that a read's check uses them in place: a
    /// copy retained and released the checks' object for every value read.
    private let cellChunks: CheckpointChunks.SectionChunks
    private let heapChunks: CheckpointChunks.SectionChunks

    /// Where the value of a damaged cell comes from: the objects of the checkpoint's sequence
    /// number replayed from the log, and what names the cell's object there.
    struct Recovery {
        var source: CheckpointRecovery
        /// The index of the cells' entity in the schema.
        var table: Int
        /// The number of attributes: cell `i` is attribute `i % width` of slot `i / width`.
        var width: Int
        /// Where the checkpoint's identifiers of the slots begin in ``region``.
        var identifiersOffset: Int
    }

    /// The cells in `cells` of `region`, `count` of them, with the heap in `heap`.
    init(
        region: CheckpointBytes,
        cells: Range<Int>,
        heap: Range<Int>,
        count: Int,
        checks: Checks? = nil,
        recovery: Recovery? = nil
    ) {
        precondition(cells.count == count * CheckpointFormat.cellSize, "the cells' bytes hold `count` cells")
        self.region = region
        self.cellsOffset = cells.lowerBound
        self.cells = region.buffer(cells).baseAddress ?? region.base
        self.heap = region.buffer(heap)
        self.heapOffset = heap.lowerBound
        self.count = count
        self.recovery = recovery
        checksOnRead = checks != nil
        cellChunks = checks.map { $0.chunks.chunks(of: $0.cellsSection) } ?? .none
        heapChunks = checks.map { $0.chunks.chunks(of: $0.heapSection) } ?? .none
    }

    /// Checks every cell: a known tag, stored bytes within the heap, the length a UUID or a file
    /// reference has, and a decimal, URL or array that decodes. Text is not checked here: the
    /// section's checksum vouches for it, and it is decoded as UTF-8, repairing, when read.
    ///
    /// The cells' pages are let go of as the check passes them (see
    /// ``CheckpointBytes/dropPages(_:)``): a read touches them again.
    func check() -> Damage? {
        let cellsPerStretch = CheckpointBytes.stretch / CheckpointFormat.cellSize
        for first in stride(from: 0, to: count, by: cellsPerStretch) {
            let end = Swift.min(first + cellsPerStretch, count)
            for index in first..<end {
                let (tag, length, payload) = fields(index)
                let position = index * CheckpointFormat.cellSize
                guard let kind = EventCodec.ValueTag(rawValue: tag) else {
                    return Damage(position: position, what: "unknown value tag \(tag)")
                }
                switch kind {
                case .null, .false, .true, .int, .uint, .double, .float, .date: continue
                case .string, .decimal, .url, .uuid, .data, .composite, .external, .array: break
                }
                guard payload <= UInt64(heap.count), UInt64(length) <= UInt64(heap.count) - payload else {
                    return Damage(position: position, what: "a value outside the heap")
                }
                switch kind {
                case .uuid where length != 16:
                    return Damage(position: position, what: "a UUID of \(length) bytes")
                case .external where ExternalReference(fixedBytes: stored(payload, length)) == nil:
                    return Damage(position: position, what: "an external reference of \(length) bytes")
                case .decimal, .url, .array:
                    if case .failure(let damage) = decode(index) { return damage }
                default: continue
                }
            }
            let size = CheckpointFormat.cellSize
            region.dropPages((cellsOffset + first * size)..<(cellsOffset + end * size))
        }
        return nil
    }

    /// Lets go of the memory of the cells' pages and of the heap's (see
    /// ``CheckpointBytes/dropPages(_:)``): for a column whose every value is decoded, which
    /// reads them no more. Whatever does read them again reads them back from the page cache.
    func dropPages() {
        dropPages(cells: 0..<count)
        dropHeapPages()
    }

    /// Lets go of the memory of the pages that hold cells `range` (whole pages only): for a
    /// pass that read them once and will not read most of them again.
    func dropPages(cells range: Range<Int>) {
        let size = CheckpointFormat.cellSize
        region.dropPages((cellsOffset + range.lowerBound * size)..<(cellsOffset + range.upperBound * size))
    }

    /// Lets go of the memory of the heap's pages: for a pass whose comparisons read values of
    /// objects met at random, which it will not read again.
    func dropHeapPages() {
        guard let start = heap.baseAddress else { return }
        let offset = start - region.base
        region.dropPages(offset..<(offset + heap.count))
    }

    /// Lets go of the memory of the chunks of the file (the 64 KiB at multiples of
    /// ``CheckpointFormat/chunkSize``, which one fault maps) that hold the cells of `ranges` and
    /// the heap bytes they refer to: for cells just decoded into their column, which reads them
    /// no more. Another read in those chunks reads them back from the page cache.
    func dropChunks(holding ranges: [Range<Int>]) {
        let size = CheckpointFormat.cellSize
        var windows: [Range<Int>] = []
        for range in ranges where !range.isEmpty {
            windows.append((cellsOffset + range.lowerBound * size)..<(cellsOffset + range.upperBound * size))
            windows.append(contentsOf: heapBytes(of: range))
        }
        // Each chunk once: an object's cells, and often its heap bytes, lie in one.
        let chunk = CheckpointFormat.chunkSize
        var dropped: Set<Int> = []
        for window in windows {
            for start in stride(from: window.lowerBound / chunk * chunk, to: window.upperBound, by: chunk)
            where dropped.insert(start).inserted {
                region.dropPages(start..<(start + chunk))
            }
        }
    }

    /// Where in the file the heap bytes of the cells of `range` lie.
    private func heapBytes(of range: Range<Int>) -> [Range<Int>] {
        var windows: [Range<Int>] = []
        for index in range {
            let (tag, length, payload) = fields(index)
            switch EventCodec.ValueTag(rawValue: tag) {
            case .null, .false, .true, .int, .uint, .double, .float, .date, nil: continue
            default: break
            }
            // Empty for bytes outside the heap, as for a read.
            let bytes = stored(payload, length)
            guard let start = bytes.baseAddress, !bytes.isEmpty else { continue }
            let offset = start - region.base
            windows.append(offset..<(offset + bytes.count))
        }
        return windows
    }

    /// The value of cell `index`; a value kept in a file is its ``ExternalPlaceholder``.
    ///
    /// For a checkpoint checked as it is read, the chunks of the cell and of its heap bytes are
    /// checked first, and the cell's shape (see ``check()``).
    func decode(_ index: Int) -> Result<AttributeValue, Damage> {
        precondition(index >= 0 && index < count, "a cell outside the table")
        let (tag, length, payload) = fields(index)
        if checksOnRead, let damage = checkOnRead(index, tag, length, payload) { return .failure(damage) }
        let position = index * CheckpointFormat.cellSize
        switch EventCodec.ValueTag(rawValue: tag) {
        case .null: return .success(.null)
        case .false: return .success(.bool(false))
        case .true: return .success(.bool(true))
        case .int: return .success(.int(Int64(bitPattern: payload)))
        case .uint: return .success(.uint(payload))
        case .double: return .success(.double(Double(bitPattern: payload)))
        case .float: return .success(.float(Float(bitPattern: UInt32(truncatingIfNeeded: payload))))
        case .date: return .success(.date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: payload))))
        case .string: return .success(.string(text(payload, length)))
        case .decimal:
            guard let decimal = Decimal(string: text(payload, length), locale: nil) else {
                return .failure(Damage(position: position, what: "an invalid decimal"))
            }
            return .success(.decimal(decimal))
        case .url:
            guard let url = URL(string: text(payload, length)) else {
                return .failure(Damage(position: position, what: "an invalid URL"))
            }
            return .success(.url(url))
        case .uuid:
            let raw = stored(payload, length)
            guard raw.count == 16 else {
                return .failure(Damage(position: position, what: "a UUID of \(raw.count) bytes"))
            }
            return .success(
                .uuid(
                    UUID(
                        uuid: (
                            raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7], raw[8], raw[9], raw[10],
                            raw[11], raw[12], raw[13], raw[14], raw[15]
                        )
                    )
                )
            )
        case .data: return .success(.data(Data(stored(payload, length))))
        case .composite: return .success(.composite(Data(stored(payload, length))))
        case .external:
            guard let reference = ExternalReference(fixedBytes: stored(payload, length)) else {
                return .failure(Damage(position: position, what: "an external reference of \(length) bytes"))
            }
            return .success(ExternalPlaceholder.value(reference))
        case .array:
            do throws(LogbookError) {
                return .success(try EventCodec.decodeValue(Array(stored(payload, length))[...]))
            } catch {
                return .failure(Damage(position: position, what: "an undecodable array (\(error.message))"))
            }
        case nil: return .failure(Damage(position: position, what: "unknown value tag \(tag)"))
        }
    }

    /// The value of cell `index` when its cell or heap bytes are damaged (`damage`): the one a
    /// replay of the log gives the cell's object.
    func recover(_ index: Int, after damage: Damage) -> AttributeValue {
        guard let recovery else {
            preconditionFailure("a checked cell failed to decode: \(damage.what)")
        }
        let slot = index / recovery.width
        let identifier = UInt64(
            littleEndian: region.base.loadUnaligned(
                fromByteOffset: recovery.identifiersOffset + slot * 8,
                as: UInt64.self
            )
        )
        return recovery.source.value(
            table: recovery.table,
            identifier: identifier,
            attribute: index % recovery.width,
            damage: "\(damage.what) (the cell at byte \(cellsOffset + damage.position))"
        )
    }

    /// Checks the chunks cell `index` and its heap bytes lie in, and the cell's shape; `tag`,
    /// `length` and `payload` are the cell's fields, read by the caller, which the checksum of
    /// the chunk vouches for once this returns `nil`.
    private func checkOnRead(_ index: Int, _ tag: UInt8, _ length: UInt32, _ payload: UInt64) -> Damage? {
        let position = index * CheckpointFormat.cellSize
        let cell = (cellsOffset + position)..<(cellsOffset + position + CheckpointFormat.cellSize)
        if let offset = cellChunks.check(cell) {
            return Damage(position: position, what: "checksum mismatch in the chunk at byte \(offset)")
        }
        guard let kind = EventCodec.ValueTag(rawValue: tag) else {
            return Damage(position: position, what: "unknown value tag \(tag)")
        }
        switch kind {
        case .null, .false, .true, .int, .uint, .double, .float, .date: return nil
        case .string, .decimal, .url, .uuid, .data, .composite, .external, .array: break
        }
        guard payload <= UInt64(heap.count), UInt64(length) <= UInt64(heap.count) - payload else {
            return Damage(position: position, what: "a value outside the heap")
        }
        let start = heapOffset + Int(payload)
        if length > 0, let offset = heapChunks.check(start..<(start + Int(length))) {
            return Damage(position: position, what: "checksum mismatch in the heap's chunk at byte \(offset)")
        }
        return nil
    }

    /// Cell `index` as it lies in the file, for a checkpoint that copies it without decoding it:
    /// its tag, length and payload, and the heap's bytes it refers to (`nil` for a value held
    /// in the payload). `nil` when the cell fails the checks of a checkpoint checked as it is
    /// read: the value is then decoded, from the log, and written anew.
    func raw(_ index: Int) -> (tag: UInt8, length: UInt32, payload: UInt64, stored: UnsafeRawBufferPointer?)? {
        let (tag, length, payload) = fields(index)
        if checksOnRead, checkOnRead(index, tag, length, payload) != nil { return nil }
        switch EventCodec.ValueTag(rawValue: tag) {
        case .null, .false, .true, .int, .uint, .double, .float, .date, nil:
            return (tag, length, payload, nil)
        default:
            return (tag, length, payload, stored(payload, length))
        }
    }

    /// The reference of cell `index` when it holds a value kept in a file.
    func externalReference(_ index: Int) -> ExternalReference? {
        let (tag, length, payload) = fields(index)
        if checksOnRead, checkOnRead(index, tag, length, payload) != nil { return nil }
        guard tag == EventCodec.ValueTag.external.rawValue else { return nil }
        return ExternalReference(fixedBytes: stored(payload, length))
    }

    @inline(__always)
    private func fields(_ index: Int) -> (tag: UInt8, length: UInt32, payload: UInt64) {
        let cell = cells + index &* CheckpointFormat.cellSize
        return (
            cell.load(as: UInt8.self),
            UInt32(littleEndian: cell.loadUnaligned(fromByteOffset: 4, as: UInt32.self)),
            UInt64(littleEndian: cell.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        )
    }

    /// The heap's bytes a cell refers to, which ``check()`` found within the heap; none when
    /// they are not.
    private func stored(_ payload: UInt64, _ length: UInt32) -> UnsafeRawBufferPointer {
        guard payload <= UInt64(heap.count), UInt64(length) <= UInt64(heap.count) - payload else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        return UnsafeRawBufferPointer(rebasing: heap[Int(payload)..<(Int(payload) + Int(length))])
    }

    private func text(_ payload: UInt64, _ length: UInt32) -> String {
        stored(payload, length).withMemoryRebound(to: UInt8.self) { String(decoding: $0, as: UTF8.self) }
    }
}
