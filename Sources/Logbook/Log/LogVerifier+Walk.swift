import Dispatch

/// The walk behind `LogVerifier.verify`: batches found and checksummed in file order, payloads
/// decoded on every core a group at a time, the results taken in file order.
extension LogVerifier {
    /// A batch found sound by its checksum, whose payload is still to be decoded.
    struct Pending: Sendable {
        var header: BatchHeader
        var offset: Int64
        var stored: [UInt8]
    }

    /// What decoding a pending batch found: why it does not decode, or the problems of its events.
    enum Decoded: Sendable {
        case failed
        case decoded(problems: [(index: Int, detail: String)])
    }

    struct Walk {
        let decompress: Bool
        let checkEvent: (@Sendable (UnsafeRawBufferPointer) -> String?)?
        let eachBatch: ((Batch) -> Void)?
        var report = VerificationReport()
        var expected: UInt64?
        /// The check of the store's durable point, fed every sound batch.
        var durableCheck: DurablePointCheck?
        private var pending: [Pending] = []
        private var pendingBytes = 0

        init(
            decompress: Bool,
            checkEvent: (@Sendable (UnsafeRawBufferPointer) -> String?)?,
            eachBatch: ((Batch) -> Void)?
        ) {
            self.decompress = decompress
            self.checkEvent = checkEvent
            self.eachBatch = eachBatch
        }

        mutating func check(
            _ segment: SegmentFile,
            _ file: SystemFile,
            isLast: Bool,
            maximumBatchSize: Int
        ) throws(LogbookError) {
            report.segments += 1
            if let expectedSequence = expected, segment.firstSequence != expectedSequence {
                report.damages.append(
                    LogDamage(
                        segment: segment.path,
                        offset: 0,
                        byteCount: 0,
                        reason: .sequenceGap(expected: expectedSequence, found: segment.firstSequence)
                    )
                )
            }
            expected = segment.firstSequence
            var scanner = try SegmentScanner(file: file, maximumBatchSize: maximumBatchSize)
            report.storedBytes += scanner.size
            if scanner.size == 0 && !isLast {
                report.damages.append(
                    LogDamage(segment: segment.path, offset: 0, byteCount: 0, reason: .emptySealedSegment)
                )
            }
            // One batch at a time from a batch whose payload did not decode; in groups otherwise.
            var oneAtATime = !decompress || eachBatch != nil
            scan: while true {
                let step = try scanner.next(decompress && oneAtATime ? .decode : .checksum)
                if !oneAtATime {
                    if case .batch(let header, let offset, _) = step {
                        pending.append(
                            Pending(
                                header: header,
                                offset: offset,
                                stored: try scanner.storedPayload(of: header, at: offset)
                            )
                        )
                        pendingBytes += Int(header.storedLength)
                        guard pending.count >= LogVerifier.groupBatches || pendingBytes >= LogVerifier.groupBytes else {
                            continue
                        }
                    }
                    if let failed = decodePending(segment: segment.path) {
                        scanner.seek(to: failed)
                        oneAtATime = true
                        continue
                    }
                    if case .batch = step { continue }
                }
                switch step {
                case .batch(let header, let offset, let batch):
                    var problems: [(index: Int, detail: String)] = []
                    if let checkEvent, let batch {
                        problems = Self.problems(of: batch, checkEvent)
                    }
                    account(header, offset: offset, segment: segment.path, problems: problems)
                    if let eachBatch, let batch { eachBatch(batch) }
                case .end:
                    break scan
                case .damaged(var damage):
                    var probe = scanner
                    let next = try probe.nextSoundBatch(after: damage.offset)
                    if next == nil && isLast && damage.reason.couldBeTornWrite,
                        try scanner.assessTail(damage).kind == .torn
                    {
                        report.incompleteTail = damage
                        break scan
                    }
                    guard let next else {
                        report.damages.append(damage)
                        break scan
                    }
                    damage.byteCount = next - damage.offset
                    report.damages.append(damage)
                    // Carry on from the next sound batch, so that one report lists all the damage.
                    scanner.seek(to: next)
                    expected = nil
                }
            }
        }

        /// Decodes the pending batches on every core and accounts for them in order, up to the
        /// first one that does not decode.
        ///
        /// - Returns: the offset of the first batch that does not decode, which is left to the
        ///   one-at-a-time walk, with every batch after it.
        private mutating func decodePending(segment: String) -> Int64? {
            defer {
                pending.removeAll(keepingCapacity: true)
                pendingBytes = 0
            }
            guard !pending.isEmpty else { return nil }
            let results = Self.decode(pending, segment: segment, checkEvent: checkEvent)
            for (batch, result) in zip(pending, results) {
                guard case .decoded(let problems) = result else { return batch.offset }
                account(batch.header, offset: batch.offset, segment: segment, problems: problems)
            }
            return nil
        }

        private static func decode(
            _ pending: [Pending],
            segment: String,
            checkEvent: (@Sendable (UnsafeRawBufferPointer) -> String?)?
        ) -> [Decoded] {
            let results = Slots(base: .allocate(capacity: pending.count))
            defer {
                results.base.deinitialize()
                results.base.deallocate()
            }
            results.base.initialize(repeating: .failed)
            DispatchQueue.concurrentPerform(iterations: pending.count) { index in
                let batch = pending[index]
                let decoded = batch.stored.withUnsafeBytes { stored in
                    SegmentScanner.decode(stored: stored, header: batch.header, segment: segment, offset: batch.offset)
                }
                guard case .success(let events) = decoded else { return }
                results.base[index] = .decoded(problems: checkEvent.map { problems(of: events, $0) } ?? [])
            }
            return Array(results.base)
        }

        /// One result per pending batch. Each iteration of the concurrent loop writes only its own
        /// slot, and the slots are read once the loop has returned.
        private struct Slots: @unchecked Sendable {
            let base: UnsafeMutableBufferPointer<Decoded>
        }

        /// The events of a batch that `checkEvent` finds wrong.
        private static func problems(
            of batch: Batch,
            _ checkEvent: (UnsafeRawBufferPointer) -> String?
        ) -> [(index: Int, detail: String)] {
            // One pass over the payload's bytes, without a slice (and its reference count
            // traffic) for every event.
            batch.payload.withUnsafeBytes { payload in
                var problems: [(index: Int, detail: String)] = []
                for (index, range) in batch.eventRanges.enumerated() {
                    if let problem = checkEvent(UnsafeRawBufferPointer(rebasing: payload[range])) {
                        problems.append((index, problem))
                    }
                }
                return problems
            }
        }

        /// Counts a sound batch, checks that its sequence numbers follow, and records the
        /// events that do not decode.
        private mutating func account(
            _ header: BatchHeader,
            offset: Int64,
            segment: String,
            problems: [(index: Int, detail: String)]
        ) {
            if let expectedSequence = expected, header.firstSequence != expectedSequence {
                report.damages.append(
                    LogDamage(
                        segment: segment,
                        offset: offset,
                        byteCount: Int64(header.frameSize),
                        reason: .sequenceGap(expected: expectedSequence, found: header.firstSequence)
                    )
                )
            }
            expected = header.lastSequence &+ 1
            durableCheck?.note(header, segment: segment, offset: offset)
            report.batches += 1
            report.events += Int(header.eventCount)
            report.payloadBytes += Int64(header.uncompressedLength)
            for problem in problems {
                report.damages.append(
                    LogDamage(
                        segment: segment,
                        offset: offset,
                        byteCount: Int64(header.frameSize),
                        reason: .undecodableEvent(
                            sequence: header.firstSequence + UInt64(problem.index),
                            detail: problem.detail
                        )
                    )
                )
            }
            if header.isCompressed { report.compressedBatches += 1 }
            report.batchesByVersion[header.version, default: 0] += 1
            if header.eventCount > 0 {
                if report.firstSequence == nil { report.firstSequence = header.firstSequence }
                report.lastSequence = header.lastSequence
            }
        }
    }
}
