import Foundation
import Logbook
import Logging

/// What a copy of a store between a directory and PostgreSQL did: see
/// ``PostgresStoreConfiguration/copy(store:toDirectory:logger:)`` and
/// ``PostgresStoreConfiguration/copy(directory:toStore:logger:)``.
public struct StoreCopyReport: Sendable, Equatable {
    /// The batches copied: one per save, and one per migration stage.
    public var batches = 0
    /// The bytes of those batches, as stored (compressed, with their headers).
    public var bytes = 0
    /// The sequence number of the last event at the destination once the copy ended; 0 for a
    /// store without events.
    public var lastSequence: UInt64 = 0
    /// The sequence number of the last event that an earlier copy, which stopped before the
    /// end, had copied already, and after which this one went on; 0 for a copy from the start.
    public var resumedAfter: UInt64 = 0
}

extension PostgresStoreConfiguration {
    /// How many batches a copy reads from the server, or appends to it in one transaction, at
    /// a time.
    static let copyPageBatches = 256
    /// How many bytes of batches a copy appends to the server in one transaction, at most
    /// (one batch larger than that goes alone).
    static let copyPageBytes = 8 << 20

    /// Copies a store kept in PostgreSQL into a directory, batch for batch: the directory then
    /// holds the same log as the server, which a container or the `logbook` tool opens as any
    /// store in a directory.
    ///
    /// ```swift
    /// let server = PostgresStoreConfiguration(socketDirectory: "/var/run/postgresql")
    /// let report = try server.copy(store: "trips", toDirectory: backupURL)
    /// print("copied \(report.batches) saves, up to sequence \(report.lastSequence)")
    /// ```
    ///
    /// The batches keep their bytes, sequence numbers and checksums; each is checked as it is
    /// written, as a container checks the rows it copies. Saves that other containers make
    /// while the copy runs are copied up to the last page read.
    ///
    /// - Parameters:
    ///   - store: The store's name on the server.
    ///   - url: The directory to copy into: new (made with the directories it lies in), or empty.
    ///   - logger: Where to report the copy's progress.
    /// - Returns: What was copied.
    /// - Throws: `LogbookError.Code.notAStore` when the server has no
    ///   batches of that store; `LogbookError.Code.invalidArgument` when
    ///   the directory holds a store already;
    ///   `LogbookError.Code.corruption` naming the sequence number of a
    ///   row that fails its checksum; an I/O error naming the server or the file. A copy that
    ///   fails leaves the batches copied so far in the directory, a whole store up to them.
    public func copy(
        store: String,
        toDirectory url: URL,
        logger: Logger = Logger(label: "Logbook", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws -> StoreCopyReport {
        let source = makeLog(store, logger)
        defer { source.close() }
        guard try source.lastBatchStart() != nil else {
            throw LogbookError(.notAStore, "the server holds no batches of the store '\(store)'", path: source.location)
        }
        if !(try existingSegments(url)).isEmpty {
            throw LogbookError(
                .invalidArgument,
                "\(url.path) holds a store already: copy into a new or empty directory",
                path: url.path
            )
        }
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw LogbookError(.io, "could not create the directory to copy into: \(error)", path: url.path)
        }
        var configuration = LogConfiguration()
        configuration.durability = .relaxed
        configuration.logger = logger
        let destination = try EventLog(directory: url.path, configuration: configuration)
        defer { destination.close() }
        var report = StoreCopyReport()
        while true {
            let page = try source.frames(after: report.lastSequence, limit: Self.copyPageBatches)
            if page.isEmpty { break }
            for frame in page {
                let header = try destination.appendFrame(frame)
                report.batches += 1
                report.bytes += frame.count
                report.lastSequence = header.lastSequence
            }
            logger.debug("copied \(report.batches) batches, up to sequence \(report.lastSequence)")
        }
        // The copy's appends were not flushed one by one: flushed once, at the end.
        _ = try destination.durableLastBatch()
        return report
    }

    /// Copies a store in a directory into PostgreSQL, batch for batch, under a store name the
    /// server does not hold yet: how a store outgrows one machine.
    ///
    /// ```swift
    /// let server = PostgresStoreConfiguration(socketDirectory: "/var/run/postgresql")
    /// try server.copy(directory: storeURL, toStore: "trips")
    /// let container = try ModelContainer(
    ///     for: Trip.self, configurations: ModelConfiguration(postgres: server, store: "trips"))
    /// ```
    ///
    /// The batches keep their bytes, sequence numbers and checksums, and are appended in
    /// transactions of up to 256 batches or 8 MiB. Stop the store's writer first: saves made
    /// while the copy runs are copied only up to where it read. A copy that stopped part way
    /// (a lost connection, say) goes on where it stopped when run again, once it has checked
    /// that the server's last batch is the directory's.
    ///
    /// - Parameters:
    ///   - url: The store's directory.
    ///   - store: The name to give the store on the server.
    ///   - logger: Where to report the copy's progress.
    /// - Returns: What was copied.
    /// - Throws: `LogbookError.Code.notAStore` when the directory holds no
    ///   store; `LogbookError.Code.conflict` when the server holds other
    ///   batches under that name; `LogbookError.Code.corruption` naming
    ///   the segment and offset of damage in the directory's log; an I/O error naming the server
    ///   or the file. Each transaction lands whole or not at all.
    public func copy(
        directory url: URL,
        toStore store: String,
        logger: Logger = Logger(label: "Logbook", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws -> StoreCopyReport {
        let reader = LogReader(directory: url.path)
        guard !(try existingSegments(url)).isEmpty else {
            throw LogbookError(.notAStore, "\(url.path) holds no store to copy", path: url.path)
        }
        try refuseExternalValues(in: url, reader)
        let destination = makeLog(store, logger)
        defer { destination.close() }
        var report = StoreCopyReport()
        if let last = try destination.lastBatchStart() {
            report.resumedAfter = try checkResume(reader, destination, at: last)
            report.lastSequence = report.resumedAfter
        }
        var frames = FrameFiles()
        defer { frames.close() }
        var cursor = reader.batches(from: report.resumedAfter + 1)
        var page: [(frame: [UInt8], header: BatchHeader)] = []
        var pageBytes = 0
        func flush() throws(LogbookError) {
            guard let last = page.last else { return }
            try destination.append(page)
            report.batches += page.count
            report.bytes += pageBytes
            report.lastSequence = last.header.lastSequence
            logger.debug("copied \(report.batches) batches, up to sequence \(report.lastSequence)")
            page = []
            pageBytes = 0
        }
        while let batch = try cursor.next() {
            let frame = try frames.frame(of: batch)
            if !page.isEmpty && (page.count >= Self.copyPageBatches || pageBytes + frame.count > Self.copyPageBytes) {
                try flush()
            }
            page.append((frame, batch.header))
            pageBytes += frame.count
        }
        try flush()
        return report
    }

    /// Checks that the server's last batch of a store, starting at `start`, is the directory's
    /// batch there: the server holds what an earlier copy of this directory appended.
    ///
    /// - Returns: The sequence number of the last event the server holds.
    private func checkResume(
        _ reader: LogReader,
        _ destination: PostgresLog,
        at start: UInt64
    ) throws(LogbookError) -> UInt64 {
        let theirs = try destination.frame(at: start)
        var cursor = reader.batches(from: start)
        var frames = FrameFiles()
        defer { frames.close() }
        guard let theirs, let batch = try cursor.next(), batch.firstSequence == start,
            try frames.frame(of: batch) == theirs
        else {
            throw LogbookError(
                .conflict,
                "the server holds other batches under the store name '\(destination.store)' (its last batch, at sequence \(start), is not the directory's): copy into a new store name",
                path: destination.location,
                sequence: start
            )
        }
        return batch.lastSequence
    }

    /// Refuses a store whose batches refer to values kept in files beside its log
    /// (`.externalStorage`): a store kept in PostgreSQL holds its values in its rows, and the
    /// rows would refer to files no other host has. Only a store with such files is read
    /// through for it.
    private func refuseExternalValues(in url: URL, _ reader: LogReader) throws(LogbookError) {
        let files = url.appendingPathComponent("external").path
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: files), !names.isEmpty else { return }
        var cursor = reader.batches()
        while let batch = try cursor.next() {
            guard batch.header.refersToExternalValues else { continue }
            throw LogbookError(
                .invalidArgument,
                "the store keeps values of .externalStorage attributes in files beside its log (the batch at sequence \(batch.firstSequence) refers to them), which a store kept in PostgreSQL cannot hold: nothing was copied",
                path: url.path,
                sequence: batch.firstSequence
            )
        }
    }

    /// The segment files in a directory; none when there is no directory.
    private func existingSegments(_ url: URL) throws(LogbookError) -> [SegmentFile] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        return try LogReader(directory: url.path).segments()
    }

    private func makeLog(_ store: String, _ logger: Logger) -> PostgresLog {
        PostgresLog(
            store: store,
            client: client,
            inDoubtTimeout: inDoubtTimeout,
            migrationLockTimeout: migrationLockTimeout,
            ownedDirectory: nil,
            logger: logger
        )
    }
}

/// Reads batches' frames, as stored, from the segment files a ``LogReader`` read them from.
private struct FrameFiles {
    private var open: [String: SystemFile] = [:]

    mutating func frame(of batch: Batch) throws(LogbookError) -> [UInt8] {
        let file: SystemFile
        if let found = open[batch.segment] {
            file = found
        } else {
            file = try SystemFile.open(batch.segment, flags: O_RDONLY | O_NOFOLLOW, syscalls: PosixSyscalls())
            open[batch.segment] = file
        }
        var frame = [UInt8](repeating: 0, count: batch.header.frameSize)
        let read = try file.read(into: &frame, count: frame.count, at: batch.offset)
        guard read == frame.count else {
            throw LogbookError(
                .corruption,
                "the batch at sequence \(batch.firstSequence) ends past the end of its segment",
                path: batch.segment,
                offset: batch.offset,
                sequence: batch.firstSequence
            )
        }
        return frame
    }

    func close() {
        for file in open.values { file.close() }
    }
}
