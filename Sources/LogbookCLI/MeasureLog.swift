import ArgumentParser
import Foundation
import Logbook

extension LogbookCommand {
    /// Measures the raw event log on this machine: CRC32C, appends with and without `fdatasync`,
    /// and scanning. Run it from a release build; see README.md, "Measuring".
    struct MeasureLog: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "_measure-log",
            abstract: "Measure the event log's append and scan speed (for development).",
            shouldDisplay: false
        )

        @Argument(help: "A scratch directory; stores are created in it and removed afterwards.")
        var scratch: String

        @Option(help: "Megabytes of payload appended without fdatasync and then scanned.")
        var megabytes = 256

        @Option(help: "Batches appended with fdatasync.")
        var durableBatches = 200

        @Option(help: "Bytes in each batch.")
        var batchBytes = 64 << 10

        func run() throws {
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            let events = Self.batch(bytes: batchBytes)
            let payload = events.reduce(0) { $0 + $1.count }
            print("batch: \(events.count) events, \(payload) bytes of payload")
            measureChecksum()

            let relaxedStore = scratch + "/relaxed-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: relaxedStore) }
            let relaxedBatches = max(1, megabytes << 20 / payload)
            let relaxed = try append(events, batches: relaxedBatches, to: relaxedStore, durability: .relaxed)
            report("append, relaxed (no fdatasync)", bytes: payload * relaxedBatches, seconds: relaxed)

            let durableStore = scratch + "/durable-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: durableStore) }
            let durable = try append(events, batches: durableBatches, to: durableStore, durability: .durable)
            report("append, durable (fdatasync each batch)", bytes: payload * durableBatches, seconds: durable)
            print(
                String(
                    format: "  %.1f µs per durable %d KiB append",
                    durable / Double(durableBatches) * 1e6,
                    batchBytes >> 10
                )
            )

            let smallStore = scratch + "/small-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: smallStore) }
            let small = try append([Array(events[0].prefix(200))], batches: 2_000, to: smallStore, durability: .durable)
            print(String(format: "append, durable, one 200-byte event: %.1f µs each", small / 2_000 * 1e6))

            for round in 1...3 {
                let (seconds, bytes, count) = try scan(relaxedStore)
                report("scan, warm page cache, round \(round) (\(count) events)", bytes: bytes, seconds: seconds)
            }
        }

        private func measureChecksum() {
            let bytes = [UInt8](repeating: 0xA5, count: 64 << 20)
            for (name, software) in [("hardware", false), ("slicing-by-8", true)] {
                if !software && !CRC32C.isHardwareAccelerated { continue }
                let start = DispatchTime.now().uptimeNanoseconds
                var sink: UInt32 = 0
                for _ in 0..<4 {
                    sink &+= bytes.withUnsafeBytes { software ? CRC32C.softwareChecksum($0) : CRC32C.checksum($0) }
                }
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                report(
                    "crc32c, \(name) (checksum \(String(sink, radix: 16)))",
                    bytes: bytes.count * 4,
                    seconds: seconds
                )
            }
        }

        private func append(
            _ events: [[UInt8]],
            batches: Int,
            to store: String,
            durability: LogDurability
        ) throws -> Double {
            var configuration = LogConfiguration()
            configuration.durability = durability
            let log = try EventLog(directory: store, configuration: configuration)
            defer { log.close() }
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<batches {
                _ = try log.append(events)
            }
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }

        private func scan(_ store: String) throws -> (Double, Int, Int) {
            let start = DispatchTime.now().uptimeNanoseconds
            var cursor = LogReader(directory: store).batches()
            var bytes = 0
            var count = 0
            while let batch = try cursor.next() {
                for index in 0..<batch.count {
                    bytes += batch.event(at: index).count
                }
                count += batch.count
            }
            return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, bytes, count)
        }

        private func report(_ name: String, bytes: Int, seconds: Double) {
            print(
                String(
                    format: "%@: %.0f MB/s (%.1f MB in %.3f s)",
                    name,
                    Double(bytes) / seconds / 1e6,
                    Double(bytes) / 1e6,
                    seconds
                )
            )
        }

        /// About `bytes` of events that look like encoded SampleTrips inserts: names, places,
        /// dates and identifiers, so that LZ4 sees realistic redundancy.
        static func batch(bytes: Int) -> [[UInt8]] {
            let places = ["Lisbon", "Kyoto", "Reykjavik", "Cusco", "Marrakesh", "Hobart", "Tromsø", "Oaxaca"]
            var events: [[UInt8]] = []
            var total = 0
            var n = 0
            while total < bytes {
                let place = places[n % places.count]
                let text =
                    "\u{1}Trip\u{2}\(UInt64(n) &* 0x9E37_79B9_7F4A_7C15)\u{3}name\u{4}Trip \(n) to \(place)\u{5}destination\u{6}\(place)\u{7}startDate\u{8}\(1_780_000_000 + n * 86_400)\u{9}endDate\u{A}\(1_780_000_000 + n * 86_400 + 604_800)\u{B}bucketList\u{C}\(n * 5)...\(n * 5 + 4)"
                let event = Array(text.utf8)
                events.append(event)
                total += event.count + 1
                n += 1
            }
            return events
        }
    }
}
