import ArgumentParser
import Foundation
import Logbook

extension LogbookCommand {
    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a store's segments, batches, events and sequence range."
        )

        @OptionGroup var options: StoreOptions

        func run() throws {
            try options.checkStore()
            let report = try LogVerifier.verify(directory: options.store)
            let segments = try LogReader(directory: options.store).segments()
            print("store:     \(options.store)")
            print("segments:  \(report.segments)")
            for segment in segments {
                let size =
                    (try? FileManager.default.attributesOfItem(atPath: segment.path)[.size] as? NSNumber)?.int64Value
                    ?? 0
                print("  \((segment.path as NSString).lastPathComponent)  \(formatBytes(size))")
            }
            print("batches:   \(report.batches) (\(report.compressedBatches) LZ4-compressed)")
            print("events:    \(report.events)")
            if let first = report.firstSequence, let last = report.lastSequence {
                print("sequence:  \(first)...\(last)")
            } else {
                print("sequence:  empty")
            }
            let ratio = report.storedBytes > 0 ? Double(report.payloadBytes) / Double(report.storedBytes) : 0
            print(
                "stored:    \(formatBytes(report.storedBytes)) (payload \(formatBytes(report.payloadBytes)), ratio \(String(format: "%.2f", ratio)))"
            )
            if !report.isSound {
                print("damage:    \(report.damages.count) region(s); run `logbook verify` for details")
            }
        }
    }
}
