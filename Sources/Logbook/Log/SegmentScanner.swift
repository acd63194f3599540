/// Walks the batches of one segment file, checking each one, and describes damage instead of
/// throwing it, so that the caller can decide what damage means.
package struct SegmentScanner {
    /// How much of each batch to check and decode.
    package enum Depth {
        /// Header and checksum only: enough to find batches and prove the bytes are intact.
        case checksum
        /// Also decompress the payload and split it into events, for batches holding events at or
        /// after the given sequence number; earlier batches are only checksummed.
        case decode(from: UInt64)

        /// Decode every batch.
        static let decode = Depth.decode(from: 0)

        /// Decode the batches that may hold a schema record (``BatchHeader/mayHoldSchemaRecord``);
        /// only checksum the others.
        case schemaRecords
    }

    /// One step of the walk.
    package enum Step {
        /// A sound batch. `batch` is `nil` at depth ``Depth/checksum``.
        case batch(BatchHeader, offset: Int64, Batch?)
        /// The end of the file, at a batch boundary.
        case end
        /// Damage at the current offset; the scanner does not move past it.
        case damaged(LogDamage)
    }

    package let file: SystemFile
    package let maximumBatchSize: Int
    /// The offset of the next batch.
    package private(set) var offset: Int64
    /// The file size the scanner reads up to.
    package private(set) var size: Int64
    private var window = ReadWindow()

    package init(file: SystemFile, maximumBatchSize: Int, offset: Int64 = 0) throws(LogbookError) {
        self.file = file
        self.maximumBatchSize = maximumBatchSize
        self.offset = offset
        self.size = try file.size()
    }

    /// Reads the file size again, for a segment another process is appending to.
    package mutating func refreshSize() throws(LogbookError) {
        let newSize = try file.size()
        if newSize != size { window.invalidate() }
        size = newSize
    }

    /// Moves to `offset`, which must be a batch boundary found by an earlier step.
    package mutating func seek(to offset: Int64) {
        self.offset = offset
    }

    /// Checks the batch at the current offset and, when it is sound, moves past it.
    package mutating func next(_ depth: Depth) throws(LogbookError) -> Step {
        let remaining = size - offset
        if remaining <= 0 { return .end }
        let start = offset
        func damage(_ reason: LogDamage.Reason) -> Step {
            .damaged(LogDamage(segment: file.path, offset: start, byteCount: size - start, reason: reason))
        }
        let headerBytes = try window.fill(from: file, at: start, length: LogFormat.headerSize)
        guard headerBytes == LogFormat.headerSize else {
            return damage(.truncatedHeader(available: headerBytes))
        }
        let parsed = try window.withBytes(at: start, length: LogFormat.headerSize) { BatchHeader.read(from: $0) }
        guard let header = parsed else { return damage(.badMagic) }
        if let reason = boundsProblem(header) { return damage(reason) }
        let frameSize = header.frameSize
        guard Int64(frameSize) <= remaining else {
            return damage(.truncatedPayload(needed: frameSize, available: remaining))
        }
        guard try window.fill(from: file, at: start, length: frameSize) == frameSize else {
            return damage(.truncatedPayload(needed: frameSize, available: remaining))
        }
        let computed = try window.withBytes(at: start, length: frameSize) { bytes in
            BatchHeader.checksum(
                header: UnsafeRawBufferPointer(rebasing: bytes[..<LogFormat.headerSize]),
                payload: UnsafeRawBufferPointer(rebasing: bytes[LogFormat.headerSize...])
            )
        }
        if !LogFormat.readableVersions.contains(header.version) {
            return damage(.unsupportedVersion(header.version, checksumMatches: computed == header.checksum))
        }
        guard computed == header.checksum else {
            return damage(.checksumMismatch(stored: header.checksum, computed: computed))
        }
        // Pieces are known only as a way to compress.
        if header.flags & ~LogFormat.knownFlags(version: header.version) != 0
            || header.isInPieces && !header.isCompressed
        {
            return damage(.unknownFlags(header.flags))
        }
        // Checked once the checksum matches: a torn write cannot produce it.
        if header.eventCount > 0, UInt64(header.eventCount) - 1 > UInt64.max - header.firstSequence {
            return damage(.sequenceOverflow(first: header.firstSequence, count: header.eventCount))
        }
        let decodes =
            switch depth {
            case .checksum: false
            case .decode(let from): header.lastSequence >= from || header.eventCount == 0
            case .schemaRecords: header.mayHoldSchemaRecord
            }
        var batch: Batch?
        if decodes {
            switch try decode(header, at: start) {
            case .success(let decoded): batch = decoded
            case .failure(let reason): return damage(reason)
            }
        }
        offset = start + Int64(frameSize)
        return .batch(header, offset: start, batch)
    }

    private func boundsProblem(_ header: BatchHeader) -> LogDamage.Reason? {
        if Int(header.storedLength) > maximumBatchSize {
            return .lengthOutOfBounds(field: "stored length", value: header.storedLength, maximum: maximumBatchSize)
        }
        if Int(header.uncompressedLength) > maximumBatchSize {
            return .lengthOutOfBounds(
                field: "uncompressed length",
                value: header.uncompressedLength,
                maximum: maximumBatchSize
            )
        }
        if !header.isCompressed && header.storedLength != header.uncompressedLength {
            return .lengthOutOfBounds(
                field: "stored length of an uncompressed batch",
                value: header.storedLength,
                maximum: Int(header.uncompressedLength)
            )
        }
        if header.eventCount > header.uncompressedLength {
            return .lengthOutOfBounds(
                field: "event count",
                value: header.eventCount,
                maximum: Int(header.uncompressedLength)
            )
        }
        return nil
    }

    private func decode(_ header: BatchHeader, at start: Int64) throws(LogbookError) -> Result<Batch, LogDamage.Reason>
    {
        let payloadStart = start + Int64(LogFormat.headerSize)
        let segment = file.path
        return try window.withBytes(at: payloadStart, length: Int(header.storedLength)) { stored in
            Self.decode(stored: stored, header: header, segment: segment, offset: start)
        }
    }

    /// The stored (possibly compressed) payload of the batch at `start`, which the last call to
    /// ``next(_:)`` found sound, so that it can be decoded elsewhere with
    /// ``decode(stored:header:segment:offset:)``.
    package func storedPayload(of header: BatchHeader, at start: Int64) throws(LogbookError) -> [UInt8] {
        try window.withBytes(at: start + Int64(LogFormat.headerSize), length: Int(header.storedLength)) { [UInt8]($0) }
    }

    /// Decompresses a batch's stored payload and splits it into events.
    ///
    /// - Returns: the batch, or why its checksummed bytes still do not make one.
    package static func decode(
        stored: UnsafeRawBufferPointer,
        header: BatchHeader,
        segment: String,
        offset: Int64
    ) -> Result<Batch, LogDamage.Reason> {
        let payload: [UInt8]
        if header.isCompressed {
            // Not zero-filled first: a successful decompression writes every byte.
            let length = Int(header.uncompressedLength)
            var decompressed = false
            // Room for a byte at least: an array of no capacity is the standard library's one
            // shared empty array, whose count the initializer would write, a race with every
            // other thread's empty arrays. Only a damaged header declares no bytes.
            let output = [UInt8](unsafeUninitializedCapacity: Swift.max(length, 1)) { buffer, initialized in
                let room = UnsafeMutableRawBufferPointer(buffer)
                let destination = UnsafeMutableRawBufferPointer(rebasing: room[..<length])
                decompressed =
                    header.isInPieces
                    ? LZ4.decompress(pieces: stored, into: destination) : LZ4.decompress(stored, into: destination)
                initialized = decompressed ? length : 0
            }
            guard decompressed else {
                return .failure(.decompressionFailed(declaredLength: header.uncompressedLength))
            }
            payload = output
        } else {
            payload = [UInt8](stored)
        }
        let hasTransaction = header.flags & LogFormat.flagTransaction != 0
        switch Batch.splitEvents(in: payload, count: Int(header.eventCount), transaction: hasTransaction) {
        case .success(var ranges):
            let transactionRange = hasTransaction ? ranges.removeFirst() : nil
            if header.version >= LogFormat.schemaRecordFlagVersion {
                let schemaRecord = Batch.firstSchemaRecord(in: payload, ranges)
                if (schemaRecord != nil) != header.flagsSchemaRecord {
                    return .failure(.schemaRecordFlagMismatch(flagged: header.flagsSchemaRecord, event: schemaRecord))
                }
            }
            return .success(
                Batch(
                    header: header,
                    segment: segment,
                    offset: offset,
                    payload: payload,
                    eventRanges: ranges,
                    transactionRange: transactionRange
                )
            )
        case .failure(let reason):
            return .failure(reason)
        }
    }

    /// Whether any sound batch starts after `offset`: the test that tells a torn write at the end
    /// of the log (nothing sound follows) from damage in the middle of it (something does).
    package mutating func soundBatchFollows(after damageOffset: Int64) throws(LogbookError) -> Bool {
        try nextSoundBatch(after: damageOffset) != nil
    }

    /// The offset of the first sound batch that starts after `damageOffset`, found by searching
    /// for the magic number and checking each candidate's bounds and checksum.
    package mutating func nextSoundBatch(after damageOffset: Int64) throws(LogbookError) -> Int64? {
        var candidate = damageOffset + 1
        let magic = withUnsafeBytes(of: LogFormat.magic.littleEndian) { [UInt8]($0) }
        while candidate + Int64(LogFormat.headerSize) <= size {
            let length = Int(min(Int64(ReadWindow.chunkSize), size - candidate))
            _ = try window.fill(from: file, at: candidate, length: length)
            let found: Int? = try window.withBytes(at: candidate, length: length) { bytes in
                guard bytes.count >= magic.count else { return nil }
                for index in 0...(bytes.count - magic.count)
                where bytes[index] == magic[0] && bytes[index + 1] == magic[1] && bytes[index + 2] == magic[2]
                    && bytes[index + 3] == magic[3]
                {
                    return index
                }
                return nil
            }
            guard let found else {
                candidate += Int64(max(1, length - magic.count + 1))
                continue
            }
            let position = candidate + Int64(found)
            offset = position
            if case .batch = try next(.checksum) { return position }
            candidate = position + 1
        }
        return nil
    }
}
