import ArgumentParser
import Foundation
import Logbook

extension LogbookCommand {
    /// Appends numbered batches and acknowledges each one on stdout once it is durable; the
    /// crash and concurrency tests kill it at random moments and check what it acknowledged.
    struct AppendLoop: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "_append-loop",
            abstract: "Append test batches in a loop (for testing).",
            shouldDisplay: false
        )

        @OptionGroup var options: StoreOptions

        @Option(help: "Batches to append; 0 appends until killed.")
        var batches = 0

        @Option(help: "Events in each batch.")
        var eventsPerBatch = 5

        @Option(help: "Segment size in bytes.")
        var segmentSize = 64 << 20

        @Flag(help: "Leave flushing to the operating system.")
        var relaxed = false

        @Flag(help: "Write incompressible events, so that batches are stored without LZ4.")
        var noise = false

        @Option(help: "Compress each batch in LZ4 pieces of this many bytes (format version 3).")
        var pieces: Int?

        func run() throws {
            var configuration = LogConfiguration()
            configuration.segmentSize = segmentSize
            configuration.durability = relaxed ? .relaxed : .durable
            let log = try EventLog(directory: options.store, configuration: configuration)
            var appended = 0
            while batches == 0 || appended < batches {
                let first = log.nextSequence
                let events = (first..<(first + UInt64(eventsPerBatch))).map(noise ? Self.noiseEvent : Self.event)
                let range = try pieces.map { try log.append(events, inPiecesOf: max($0, 1)) } ?? log.append(events)
                // Written unbuffered, so that what a killed process acknowledged is what the parent read.
                FileHandle.standardOutput.write(Data("ack \(range.lowerBound) \(range.upperBound)\n".utf8))
                appended += 1
            }
        }

        /// The bytes of test event `sequence`: recognisable and of varying length.
        static func event(_ sequence: UInt64) -> [UInt8] {
            Array(String(repeating: "event \(sequence);", count: Int(sequence % 13) + 1).utf8)
        }

        /// 64 pseudo-random bytes determined by `sequence` (xorshift64), which LZ4 cannot shrink.
        static func noiseEvent(_ sequence: UInt64) -> [UInt8] {
            var state = sequence &* 0x9E37_79B9_7F4A_7C15 | 1
            return (0..<64).map { _ in
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                return UInt8(truncatingIfNeeded: state >> 24)
            }
        }
    }
}
