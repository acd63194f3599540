import Foundation

@testable import Logbook

/// Fuzzes the log reader: the input is the bytes of a segment file.
///
/// The first input byte picks a mode: when it is odd, the checksum of every batch the bytes frame
/// is recomputed first, so that mutations of lengths, flags and payloads get past the checksum and
/// reach LZ4 decompression and event framing. The segment is named after the first batch's
/// sequence number, so that the bytes, not the name, decide what the reader sees.
///
/// Each input is read the ways the library and the tool read a store: verification, replaying
/// every event through a batch cursor, and opening the store for writing (recovery).
/// Whatever is thrown must be a `LogbookError`; after an open that succeeds, an append must
/// succeed and a second open must find the log as the first left it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBatchReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let mode = data[0]
    var bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    if mode & 1 == 1 { FuzzSupport.fixChecksums(&bytes) }
    let store = FuzzSupport.freshStore()
    let first = FuzzSupport.firstSequence(of: bytes) ?? LogFormat.firstSequence
    let segment = SegmentDirectory.join(store, SegmentDirectory.fileName(forFirstSequence: first))
    guard FileManager.default.createFile(atPath: segment, contents: Data(bytes)) else {
        FuzzSupport.failure("cannot write \(segment)")
    }
    let maximumBatchSize = 1 << 20
    let reader = LogReader(directory: store, maximumBatchSize: maximumBatchSize)

    do {
        _ = try LogVerifier.verify(directory: store, maximumBatchSize: maximumBatchSize) {
            EventCodec.validate($0)
        }
    } catch {
        FuzzSupport.failure("verification threw instead of reporting: \(error)")
    }

    do {
        // What `logbook replay` does: the recorded schemas, then every batch through a cursor,
        // every event decoded and applied.
        _ = try Projection.replaying(reader)
    } catch is LogbookError {
    } catch {
        FuzzSupport.failure("replaying threw something other than a LogbookError: \(error)")
    }

    var configuration = LogConfiguration()
    configuration.maximumBatchSize = maximumBatchSize
    configuration.durability = .relaxed
    configuration.createIfMissing = false
    let next: UInt64
    do {
        let log = try EventLog(directory: store, configuration: configuration)
        next = log.nextSequence
        let appended = try log.append([[0x66, 0x75, 0x7A, 0x7A]])
        guard appended == next...next else { FuzzSupport.failure("appended \(appended), expected \(next)") }
        log.close()
    } catch {
        return 0
    }
    do {
        let reopened = try EventLog(directory: store, configuration: configuration)
        defer { reopened.close() }
        guard reopened.recovery.cutTail == nil, reopened.nextSequence == next &+ 1 else {
            FuzzSupport.failure(
                "after an append, a second open found next sequence \(reopened.nextSequence) (expected \(next &+ 1)), cut tail \(String(describing: reopened.recovery.cutTail))"
            )
        }
    } catch {
        FuzzSupport.failure("a store that opened and took an append does not open again: \(error)")
    }
    return 0
}
