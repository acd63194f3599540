import Foundation

@testable import Logbook

/// Deterministic event bytes: event `n` is recognisable and of varying length.
func sampleEvent(_ n: UInt64, length: Int? = nil) -> [UInt8] {
    let size = length ?? (Int(n % 97) + 1)
    var bytes = [UInt8](repeating: 0, count: size)
    var state = n &* 0x9E37_79B9_7F4A_7C15 | 1
    for index in bytes.indices {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        // Half the bytes repeat so that payloads compress, half are noise.
        bytes[index] = index % 2 == 0 ? UInt8(truncatingIfNeeded: n) : UInt8(truncatingIfNeeded: state)
    }
    return bytes
}

/// Every event in the store, in order, with its sequence number.
func readAll(_ directory: String, from sequence: UInt64 = 1) throws -> [(UInt64, [UInt8])] {
    var cursor = LogReader(directory: directory).batches(from: sequence)
    var events: [(UInt64, [UInt8])] = []
    while let batch = try cursor.next() {
        for (seq, bytes) in batch.events where seq >= sequence {
            events.append((seq, [UInt8](bytes)))
        }
    }
    return events
}

func testConfiguration(
    segmentSize: Int = 64 << 20,
    durability: LogDurability = .relaxed,
    syscalls: any Syscalls = PosixSyscalls()
) -> LogConfiguration {
    var configuration = LogConfiguration()
    configuration.segmentSize = segmentSize
    configuration.durability = durability
    configuration.syscalls = syscalls
    return configuration
}

/// The segment files of a store, in order.
func segmentPaths(_ directory: String) throws -> [String] {
    try LogReader(directory: directory).segments().map(\.path)
}

/// Removes the store's durable record, as a writer killed before it recorded its last batches
/// leaves the store: an open can then tell nothing about those batches but what their bytes say.
func forgetDurablePoint(_ directory: String) throws {
    let path = SegmentDirectory.join(directory, DurableRecord.fileName)
    if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
}

/// The quarantined tails of a store, with their bytes.
func quarantinedTails(_ directory: String) throws -> [(Quarantine.Tail, [UInt8])] {
    try Quarantine.tails(in: directory).map { ($0, try ByteSurgery.bytes(of: $0.path)) }
}
