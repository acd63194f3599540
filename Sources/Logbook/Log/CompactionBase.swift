#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Replaces the files that hold a log's history up to a horizon with a compaction base: the
/// crash-safe switch that `deleteHistory` makes (see `OnDiskFormat`, Compaction base).
///
/// The caller holds the writer's lock and keeps appends back while ``replace(_:)`` runs.
struct CompactionBase {
    /// One encoded base event, and whether it refers to a value kept in a file.
    struct Event {
        var bytes: [UInt8]
        var refersToExternalValue: Bool
    }

    var directory: String
    var configuration: LogConfiguration
    /// The last sequence number of the history deleted.
    var horizon: UInt64
    /// The events that stand for the history up to ``horizon``, in order.
    var events: [Event]
    /// The first sequence number and end offset of the segment the writer appends to, if it has
    /// one open: its bytes past that offset are not the log's.
    var appendSegment: (firstSequence: UInt64, endOffset: Int64)?

    private var syscalls: any Syscalls { configuration.syscalls }

    /// Writes the base and switches to it. Nothing changes before the rename that commits the
    /// base but the removal of checkpoints and of the durable record (caches and checks), and
    /// the fence.
    ///
    /// - Returns: Where the batches ended up.
    /// - Throws: ``LogbookError/Code/invalidArgument`` when ``horizon`` is not a
    ///   transaction's token of the log, or the base would not fit below it;
    ///   ``LogbookError/Code/io`` when a system call fails; damage the log reading finds.
    /// Where a switch put the batches that the writer may name: the base's last batch, and the
    /// batches copied from the file that held the horizon.
    struct Outcome {
        /// A failure after the commit: the directory holding the base's name could not be
        /// synced, so whether the switch survives a crash is not known.
        var problem: LogbookError?
        var path: String
        var firstSequence: UInt64
        /// The last base batch: its offset in the base and its checksum.
        var lastBaseBatch: (offset: Int64, checksum: UInt32)
        /// The file that held the horizon: its first sequence number, and the offset in it of the
        /// first batch after the horizon, copied to ``copiedTo`` in the base.
        var holderFirstSequence: UInt64
        var copiedFrom: Int64
        var copiedTo: Int64
    }

    func replace() throws(LogbookError) -> Outcome {
        let layout = try SegmentDirectory.layout(in: directory, syscalls: syscalls)
        let (holder, tailStart) = try locateHorizon(in: layout)
        guard UInt64(events.count) <= horizon else {
            throw LogbookError(
                .invalidArgument,
                "the history up to token \(horizon) is \(horizon) events, fewer than the \(events.count) events that would stand for it; nothing was deleted",
                path: directory,
                sequence: horizon
            )
        }
        let first = horizon - UInt64(events.count) + 1
        let (frames, lastChecksum) = try frameEvents(from: first)
        let framesSize = frames.reduce(Int64(0)) { $0 + Int64($1.count) }
        let tailEnd: Int64
        if let appendSegment, appendSegment.firstSequence == holder.firstSequence, holder.horizon == nil {
            tailEnd = appendSegment.endOffset
        } else {
            let file = try SegmentDirectory.open(holder, writable: false, syscalls: syscalls)
            defer { file.close() }
            tailEnd = try file.size()
        }
        try removeCaches()
        let name = SegmentDirectory.baseFileName(first: first, horizon: horizon)
        let path = SegmentDirectory.join(directory, name)
        let temporary = path + LogFormat.temporarySuffix
        try write(frames, tail: (holder, tailStart..<max(tailStart, tailEnd)), to: temporary)
        if case .failure(let errno) = syscalls.rename(temporary, to: path) {
            _ = syscalls.unlink(temporary)
            throw LogbookError.system("rename", path: path, errno)
        }
        // Committed: what fails from here on cannot undo the switch.
        var problem: LogbookError?
        do throws(LogbookError) {
            try SegmentDirectory.syncDirectory(directory, syscalls: syscalls)
        } catch {
            problem = error
        }
        do throws(LogbookError) {
            try Self.removeReplaced(in: directory, syscalls: syscalls)
        } catch {
            // Readers ignore the files; the next open for writing removes them.
            configuration.logger.warning(
                "could not remove the files a compaction base replaced",
                metadata: ["store": "\(directory)", "error": "\(error)"]
            )
        }
        return Outcome(
            problem: problem,
            path: path,
            firstSequence: first,
            lastBaseBatch: (framesSize - Int64(frames.last?.count ?? 0), lastChecksum),
            holderFirstSequence: holder.firstSequence,
            copiedFrom: tailStart,
            copiedTo: framesSize
        )
    }

    /// Removes the files a base replaced and the temporary files of a switch cut short, then
    /// syncs the directory: what an open for writing does to finish a switch.
    ///
    /// - Returns: The paths removed.
    /// Writes the fence first when a base has none.
    @discardableResult
    static func removeReplaced(in directory: String, syscalls: any Syscalls) throws(LogbookError) -> [String] {
        let layout = try SegmentDirectory.layout(in: directory, syscalls: syscalls)
        if layout.horizon != nil, layout.fence == nil { try writeFence(in: directory, syscalls: syscalls) }
        let replaced = layout.replaced
        guard !replaced.isEmpty else { return [] }
        for path in replaced {
            if case .failure(let errno) = syscalls.unlink(path), errno != .noEntry {
                throw LogbookError.system("unlink", path: path, errno)
            }
        }
        try SegmentDirectory.syncDirectory(directory, syscalls: syscalls)
        return replaced
    }

    // MARK: - Steps

    /// The file that holds the batch ending at the horizon, and the offset just after it.
    private func locateHorizon(in layout: SegmentDirectory.Layout) throws(LogbookError) -> (SegmentFile, Int64) {
        var cursor = LogReader(
            directory: directory,
            maximumBatchSize: configuration.maximumBatchSize,
            syscalls: syscalls
        ).batches(from: horizon)
        guard let batch = try cursor.next() else {
            throw LogbookError(
                .invalidArgument,
                "token \(horizon) is past the end of the log; nothing was deleted",
                path: directory,
                sequence: horizon
            )
        }
        guard batch.lastSequence == horizon, batch.firstSequence <= horizon else {
            throw LogbookError(
                .invalidArgument,
                "\(horizon) is not a transaction's token: the transaction holding it ends at \(batch.lastSequence); nothing was deleted",
                path: directory,
                sequence: horizon
            )
        }
        guard let holder = layout.segments.first(where: { $0.path == batch.segment }) else {
            throw LogbookError(
                .invalidArgument,
                "the log changed while its history was being deleted; nothing was deleted",
                path: batch.segment
            )
        }
        return (holder, batch.offset + Int64(batch.header.frameSize))
    }

    /// The base events framed as batches of at most ``LogFormat/baseBatchEvents`` events and a
    /// quarter of the maximum batch size.
    private func frameEvents(from first: UInt64) throws(LogbookError) -> (frames: [[UInt8]], lastChecksum: UInt32) {
        var frames: [[UInt8]] = []
        var lastChecksum: UInt32 = 0
        var payload = BatchPayload()
        var next = first
        var bytes = 0
        func flush() throws(LogbookError) {
            guard !payload.isEmpty else { return }
            let (header, frame) = try BatchWriter.frame(
                payload: payload,
                firstSequence: next,
                compress: configuration.compression,
                maximumBatchSize: configuration.maximumBatchSize
            )
            frames.append(frame)
            lastChecksum = header.checksum
            next = header.lastSequence + 1
            payload = BatchPayload()
            bytes = 0
        }
        for event in events {
            if payload.eventCount >= LogFormat.baseBatchEvents
                || bytes + event.bytes.count > configuration.maximumBatchSize / 4
            {
                try flush()
            }
            payload.append(event.bytes)
            if event.refersToExternalValue { payload.markExternalReferences() }
            bytes += event.bytes.count + 10
        }
        try flush()
        return (frames, lastChecksum)
    }

    /// Writes the fence: a segment named by sequence 0 whose one batch header is of a version
    /// that releases before compaction bases refuse.
    private static func writeFence(in directory: String, syscalls: any Syscalls) throws(LogbookError) {
        var bytes = [UInt8](repeating: 0, count: LogFormat.headerSize)
        let header = BatchHeader(
            version: LogFormat.fenceVersion,
            flags: 0,
            firstSequence: 0,
            eventCount: 0,
            uncompressedLength: 0,
            storedLength: 0,
            checksum: 0
        )
        bytes.withUnsafeMutableBytes { written in
            header.write(to: written)
            _ = BatchHeader.seal(written)
        }
        let path = SegmentDirectory.join(directory, SegmentDirectory.fileName(forFirstSequence: 0))
        try DurableFiles.replace(path, with: bytes[...], through: path + LogFormat.temporarySuffix, syscalls: syscalls)
    }

    /// Removes every checkpoint, then the durable record: both name batches by where they lie
    /// in files about to be replaced.
    private func removeCaches() throws(LogbookError) {
        let checkpoints = try CheckpointFiles.list(in: directory, syscalls: syscalls)
        for entry in checkpoints {
            if case .failure(let errno) = syscalls.unlink(entry.path), errno != .noEntry {
                throw LogbookError.system("unlink", path: entry.path, errno)
            }
        }
        if !checkpoints.isEmpty {
            try SegmentDirectory.syncDirectory(CheckpointFiles.directory(of: directory), syscalls: syscalls)
        }
        try DurableRecord.remove(in: directory, syscalls: syscalls)
    }

    /// Writes the base's batches and then the holder's bytes in `tail`, and syncs the file.
    private func write(
        _ frames: [[UInt8]],
        tail: (file: SegmentFile, range: Range<Int64>),
        to temporary: String
    ) throws(LogbookError) {
        let file = try SystemFile.open(temporary, flags: O_WRONLY | O_CREAT | O_TRUNC, syscalls: syscalls)
        do throws(LogbookError) {
            var offset: Int64 = 0
            for frame in frames {
                try file.writeAll(frame[...], at: offset)
                offset += Int64(frame.count)
            }
            if !tail.range.isEmpty {
                let source = try SegmentDirectory.open(tail.file, writable: false, syscalls: syscalls)
                defer { source.close() }
                var buffer = [UInt8](repeating: 0, count: 1 << 20)
                var position = tail.range.lowerBound
                while position < tail.range.upperBound {
                    let wanted = Int(min(Int64(buffer.count), tail.range.upperBound - position))
                    let count = try source.read(into: &buffer, count: wanted, at: position)
                    guard count > 0 else {
                        throw LogbookError(
                            .corruption,
                            "the segment ended at byte \(position) while its batches after token \(horizon) were copied",
                            path: tail.file.path,
                            offset: position
                        )
                    }
                    try file.writeAll(buffer[..<count], at: offset)
                    offset += Int64(count)
                    position += Int64(count)
                }
            }
            try file.sync()
        } catch {
            file.close()
            _ = syscalls.unlink(temporary)
            throw error
        }
        file.close()
    }
}
