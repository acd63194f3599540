import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Copies the sound part of a damaged store into a new store.
///
/// Salvage reads every batch of the damaged store in order and keeps each whole batch whose
/// framing, checksum and events are sound and whose sequence numbers continue the kept ones. It
/// stops keeping at the first damage: a store made of what lies on both sides of a hole would not
/// run without a gap, and a later event may depend on one that is lost. What follows the damage is
/// still read, so that the report lists exactly what was dropped.
///
/// The damaged store is only read: its files are opened read-only and its lock is not taken. The
/// new store is written through ``EventLog/append(_:)`` with durable appends, one append per kept
/// batch (so a save stays one batch), into a temporary directory beside the destination that is
/// renamed into place once everything is on disk. A salvage that fails or is killed leaves no
/// store under the destination's name.
package enum Salvage {
    /// Copies the sound prefix of the store in `damaged` into a new store at `destination`.
    ///
    /// - Parameters:
    ///   - damaged: the damaged store's directory.
    ///   - destination: where the new store goes; it must not exist, or be an empty directory.
    ///   - configuration: the new store's settings (durability is always durable) and the
    ///     system-call layer used for reading and writing.
    ///   - checkEvent: checks one event's bytes and describes what is wrong, or returns `nil`;
    ///     a batch with an event that fails the check is damaged.
    /// - Returns: what was kept and what was dropped.
    /// - Throws: ``LogbookError/Code/notAStore`` when `damaged` does not exist;
    ///   ``LogbookError/Code/invalidArgument`` when `destination` exists and is not an empty
    ///   directory, or lies inside `damaged`; ``LogbookError/Code/io`` or
    ///   ``LogbookError/Code/writerFailed`` when writing the new store fails. Damage in the old
    ///   store is never thrown: it is reported.
    package static func salvage(
        from damaged: String,
        to destination: String,
        configuration: LogConfiguration = LogConfiguration(),
        checkEvent: ((UnsafeRawBufferPointer) -> String?)? = nil
    ) throws(LogbookError) -> SalvageReport {
        let syscalls = configuration.syscalls
        let segments = try SegmentDirectory.segments(in: damaged, syscalls: syscalls)
        try checkDestination(destination, damaged: damaged, syscalls: syscalls)
        let temporary = try makeTemporaryDirectory(beside: destination, syscalls: syscalls)
        var writing = configuration
        writing.durability = .durable
        writing.createIfMissing = true
        var renamed = false
        do throws(LogbookError) {
            let log = try EventLog(directory: temporary, configuration: writing)
            var scan = SalvageScan(
                syscalls: syscalls,
                maximumBatchSize: configuration.maximumBatchSize,
                checkEvent: checkEvent
            )
            do throws(LogbookError) {
                try scan.run(segments) { (payload) throws(LogbookError) in _ = try log.append(payload) }
            } catch {
                log.close()
                throw error
            }
            log.close()
            let copied = try copyExternalFiles(from: damaged, to: temporary)
            try SegmentDirectory.syncDirectory(temporary, syscalls: syscalls)
            if case .failure(let errno) = syscalls.rename(temporary, to: destination) {
                throw LogbookError.system("rename", path: destination, errno)
            }
            renamed = true
            try SegmentDirectory.syncDirectory(SegmentDirectory.parent(of: destination), syscalls: syscalls)
            var report = scan.report
            report.quarantinedTails = Quarantine.tails(in: damaged, syscalls: syscalls)
            report.copiedExternalFiles = copied.files
            report.missingExternalFiles = copied.missing.map { damage in
                var named = damage
                named.path = ExternalFiles(storeDirectory: damaged).path(of: damage.reference)
                named.segment = SegmentDirectory.join(destination, SegmentDirectory.lastComponent(of: damage.segment))
                return named
            }
            return report
        } catch {
            if renamed { _ = syscalls.rename(destination, to: temporary) }
            removeStore(temporary, syscalls: syscalls)
            throw error
        }
    }

    // MARK: - The destination

    private static func checkDestination(
        _ destination: String,
        damaged: String,
        syscalls: any Syscalls
    ) throws(LogbookError) {
        switch syscalls.listDirectory(destination) {
        case .success(let names) where !names.isEmpty:
            throw LogbookError(
                .invalidArgument,
                "\(destination) already exists and is not empty; salvage writes only to a new path or an empty directory",
                path: destination
            )
        case .success:
            break
        case .failure(let errno) where errno == .noEntry:
            break
        case .failure(let errno) where errno == .notADirectory:
            throw LogbookError(
                .invalidArgument,
                "\(destination) already exists and is not a directory",
                path: destination
            )
        case .failure(let errno):
            throw LogbookError.system("opendir", path: destination, errno)
        }
        let store = resolved(damaged)
        let parent = resolved(SegmentDirectory.parent(of: destination))
        if parent == store || parent.hasPrefix(store.hasSuffix("/") ? store : store + "/") {
            throw LogbookError(
                .invalidArgument,
                "\(destination) lies inside the damaged store \(damaged); salvage never writes there",
                path: destination
            )
        }
    }

    private static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// Creates an empty directory beside `destination`, on the same file system, so that it can be
    /// renamed into place.
    private static func makeTemporaryDirectory(
        beside destination: String,
        syscalls: any Syscalls
    ) throws(LogbookError) -> String {
        let parent = SegmentDirectory.parent(of: destination)
        let name = SegmentDirectory.lastComponent(of: destination)
        var attempt = 0
        while true {
            let candidate = SegmentDirectory.join(parent, ".\(name).salvage-\(getpid())-\(attempt)")
            switch syscalls.makeDirectory(candidate) {
            case .success:
                return candidate
            case .failure(let errno) where errno == .exists && attempt < 100:
                attempt += 1
            case .failure(let errno):
                throw LogbookError.system("mkdir", path: candidate, errno)
            }
        }
    }

    /// Removes a store directory this salvage created, as far as it can.
    private static func removeStore(_ directory: String, syscalls: any Syscalls) {
        let external = SegmentDirectory.join(directory, ExternalFiles.directoryName)
        if case .success(let subdirectories) = syscalls.listDirectory(external) {
            for name in subdirectories {
                let subdirectory = SegmentDirectory.join(external, name)
                if case .success(let files) = syscalls.listDirectory(subdirectory) {
                    for file in files { _ = syscalls.unlink(SegmentDirectory.join(subdirectory, file)) }
                }
                _ = syscalls.removeDirectory(subdirectory)
            }
            _ = syscalls.removeDirectory(external)
        }
        if case .success(let names) = syscalls.listDirectory(directory) {
            for name in names { _ = syscalls.unlink(SegmentDirectory.join(directory, name)) }
        }
        _ = syscalls.removeDirectory(directory)
    }

    /// Copies the value files the new store's batches refer to from the damaged store, each
    /// checked as it is read; a missing or damaged one is not copied, and is reported.
    private static func copyExternalFiles(
        from damaged: String,
        to store: String
    ) throws(LogbookError) -> (files: Int, missing: [ExternalFilesCheck.Damage]) {
        let found = try ExternalFilesCheck.check(directory: store)
        guard found.references > 0 else { return (0, []) }
        let source = ExternalFiles(storeDirectory: damaged)
        let target = ExternalFiles(storeDirectory: store)
        var copied = 0
        var missing: [ExternalFilesCheck.Damage] = []
        for damage in found.damages {
            // Missing in the new store, as every file is before it is copied.
            do throws(LogbookError) {
                let bytes = try source.read(damage.reference)
                if (try? target.read(damage.reference)) == nil {
                    try target.write(bytes, as: damage.reference)
                    copied += 1
                }
            } catch {
                var reported = damage
                reported.reason = error.message
                missing.append(reported)
            }
        }
        return (copied, missing)
    }
}

/// The walk over the damaged store: decides, batch by batch, what is kept, and records it.
private struct SalvageScan {
    let syscalls: any Syscalls
    let maximumBatchSize: Int
    let checkEvent: ((UnsafeRawBufferPointer) -> String?)?
    var report = SalvageReport()
    /// Whether batches are still kept: `false` from the first damage on.
    private var keeping = true
    /// The sequence number the next batch should start with, or `nil` after damage whose extent
    /// is not known yet.
    private var expected: UInt64? = LogFormat.firstSequence
    /// A damaged entry whose events end where the next sound batch starts.
    private var openDamage: Int?
    /// The entry the next batch extends, when it follows on in the same segment.
    private var run: Int?

    init(syscalls: any Syscalls, maximumBatchSize: Int, checkEvent: ((UnsafeRawBufferPointer) -> String?)?) {
        self.syscalls = syscalls
        self.maximumBatchSize = maximumBatchSize
        self.checkEvent = checkEvent
    }

    mutating func run(
        _ segments: [SegmentFile],
        append: (BatchPayload) throws(LogbookError) -> Void
    ) throws(LogbookError) {
        // A store whose history was deleted starts with its base, whose events are numbered up
        // to the horizon: the copy numbers them from 1 like any other (see `OnDiskFormat`).
        if let base = segments.first, base.horizon != nil { expected = base.firstSequence }
        for (index, segment) in segments.enumerated() {
            report.segments += 1
            run = nil
            try scan(segment, isLast: index == segments.count - 1, append: append)
        }
    }

    private mutating func scan(
        _ segment: SegmentFile,
        isLast: Bool,
        append: (BatchPayload) throws(LogbookError) -> Void
    ) throws(LogbookError) {
        let file: SystemFile
        var scanner: SegmentScanner
        do throws(LogbookError) {
            file = try SegmentDirectory.open(segment, writable: false, syscalls: syscalls)
        } catch {
            recordDamage(LogDamage(segment: segment.path, offset: 0, byteCount: 0, reason: .unreadable("\(error)")))
            return
        }
        defer { file.close() }
        do throws(LogbookError) {
            scanner = try SegmentScanner(file: file, maximumBatchSize: maximumBatchSize)
        } catch {
            recordDamage(LogDamage(segment: segment.path, offset: 0, byteCount: 0, reason: .unreadable("\(error)")))
            return
        }
        while true {
            let step: SegmentScanner.Step
            do throws(LogbookError) {
                step = try scanner.next(keeping ? .decode : .checksum)
            } catch {
                let offset = scanner.offset
                recordDamage(
                    LogDamage(
                        segment: segment.path,
                        offset: offset,
                        byteCount: scanner.size - offset,
                        reason: .unreadable("\(error)")
                    )
                )
                return
            }
            switch step {
            case .end:
                return
            case .batch(let header, let offset, let batch):
                try accept(header, at: offset, batch, in: segment.path, append: append)
            case .damaged(var damage):
                run = nil
                var probe = scanner
                let next = try? probe.nextSoundBatch(after: damage.offset)
                if next == nil && isLast && damage.reason.couldBeTornWrite,
                    (try? scanner.assessTail(damage).kind) == .torn
                {
                    keeping = false
                    report.entries.append(
                        SalvageReport.Entry(
                            disposition: .tornTail(damage.reason),
                            segment: segment.path,
                            offset: damage.offset,
                            byteCount: damage.byteCount,
                            firstSequence: nil,
                            eventCount: nil,
                            batchCount: 0
                        )
                    )
                    return
                }
                damage.byteCount = (next ?? scanner.size) - damage.offset
                recordDamage(damage)
                guard let next else { return }
                scanner.seek(to: next)
            }
        }
    }

    private mutating func accept(
        _ header: BatchHeader,
        at offset: Int64,
        _ batch: Batch?,
        in segment: String,
        append: (BatchPayload) throws(LogbookError) -> Void
    ) throws(LogbookError) {
        guard header.eventCount > 0 else { return }
        if let open = openDamage {
            openDamage = nil
            if let first = report.entries[open].firstSequence, header.firstSequence >= first {
                report.entries[open].eventCount = Int(header.firstSequence - first)
            }
        } else if let expected, header.firstSequence > expected {
            run = nil
            keeping = false
            report.entries.append(
                SalvageReport.Entry(
                    disposition: .missing,
                    segment: segment,
                    offset: offset,
                    byteCount: 0,
                    firstSequence: expected,
                    eventCount: Int(header.firstSequence - expected),
                    batchCount: 0
                )
            )
        } else if let expected, header.firstSequence < expected {
            dropBatch(header, at: offset, in: segment, .sequenceGap(expected: expected, found: header.firstSequence))
            return
        }
        expected = header.lastSequence &+ 1
        guard keeping else {
            extendRun(.afterDamage, header, at: offset, in: segment)
            return
        }
        guard let batch else { preconditionFailure("the scanner decodes every batch while salvage keeps them") }
        if let checkEvent {
            let failure: (Int, String)? = batch.payload.withUnsafeBytes { payload in
                for (index, range) in batch.eventRanges.enumerated() {
                    if let problem = checkEvent(UnsafeRawBufferPointer(rebasing: payload[range])) {
                        return (index, problem)
                    }
                }
                return nil
            }
            if let (index, problem) = failure {
                let sequence = header.firstSequence + UInt64(index)
                dropBatch(header, at: offset, in: segment, .undecodableEvent(sequence: sequence, detail: problem))
                return
            }
        }
        // The transaction record, when the batch has one, is kept with its events.
        var payload = BatchPayload()
        if let range = batch.transactionRange { payload.appendTransaction(encoded: batch.payload[range]) }
        for range in batch.eventRanges { payload.append(Array(batch.payload[range])) }
        if header.flags & LogFormat.flagExternal != 0 { payload.markExternalReferences() }
        try append(payload)
        extendRun(.kept, header, at: offset, in: segment)
    }

    /// Records a whole batch that is intact but cannot be kept.
    private mutating func dropBatch(
        _ header: BatchHeader,
        at offset: Int64,
        in segment: String,
        _ reason: LogDamage.Reason
    ) {
        run = nil
        keeping = false
        expected = header.lastSequence &+ 1
        report.entries.append(
            SalvageReport.Entry(
                disposition: .damaged(reason),
                segment: segment,
                offset: offset,
                byteCount: Int64(header.frameSize),
                firstSequence: header.firstSequence,
                eventCount: Int(header.eventCount),
                batchCount: 1
            )
        )
    }

    /// Records a damaged region; its events run from the expected sequence number to where the
    /// next sound batch starts.
    private mutating func recordDamage(_ damage: LogDamage) {
        run = nil
        keeping = false
        report.entries.append(
            SalvageReport.Entry(
                disposition: .damaged(damage.reason),
                segment: damage.segment,
                offset: damage.offset,
                byteCount: damage.byteCount,
                firstSequence: openDamage == nil ? expected : nil,
                eventCount: nil,
                batchCount: 0
            )
        )
        openDamage = report.entries.count - 1
        expected = nil
    }

    private mutating func extendRun(
        _ disposition: SalvageReport.Entry.Disposition,
        _ header: BatchHeader,
        at offset: Int64,
        in segment: String
    ) {
        let size = Int64(header.frameSize)
        if let index = run, report.entries[index].disposition == disposition,
            report.entries[index].offset + report.entries[index].byteCount == offset
        {
            report.entries[index].byteCount += size
            report.entries[index].eventCount = (report.entries[index].eventCount ?? 0) + Int(header.eventCount)
            report.entries[index].batchCount += 1
            return
        }
        report.entries.append(
            SalvageReport.Entry(
                disposition: disposition,
                segment: segment,
                offset: offset,
                byteCount: size,
                firstSequence: header.firstSequence,
                eventCount: Int(header.eventCount),
                batchCount: 1
            )
        )
        run = report.entries.count - 1
    }
}
