import ArgumentParser
import Foundation
import Logbook

/// A poster whose image is kept beside the log: the model `_external-loop` saves.
@Model
final class LoopPoster {
    @Attribute(.unique) var number: Int
    @Attribute(.externalStorage) var image: Data?

    init(number: Int, image: Data?) {
        self.number = number
        self.image = image
    }
}

extension LogbookCommand {
    /// Saves numbered posters with large images (kept in files beside the log) and acknowledges
    /// each save on stdout once `save()` returned, or checks a store it wrote: the crash tests
    /// kill it at random moments and check that every acknowledged poster reads back whole.
    struct ExternalLoop: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "_external-loop",
            abstract: "Save posters with external images in a loop, or check them (for testing).",
            shouldDisplay: false
        )

        @OptionGroup var options: StoreOptions

        @Option(help: "Saves to make; 0 saves until killed.")
        var saves = 0

        @Option(help: "Check that posters 1 through this number read back whole, instead of saving.")
        var check: Int?

        func run() throws {
            let container = try ModelContainer(
                for: LoopPoster.self,
                configurations: ModelConfiguration(url: URL(fileURLWithPath: options.store))
            )
            let context = ModelContext(container)
            if let check {
                let posters = try context.fetch(FetchDescriptor<LoopPoster>(sortBy: [SortDescriptor(\.number)]))
                for number in 1...max(1, check) where check > 0 {
                    guard let poster = posters.first(where: { $0.number == number }) else {
                        throw CLIError("poster \(number) was acknowledged and is missing")
                    }
                    guard poster.image == Self.image(number) else {
                        throw CLIError("poster \(number) reads back other bytes")
                    }
                }
                print("checked \(posters.count) posters, \(check) acknowledged")
                return
            }
            var number = try context.fetchCount(FetchDescriptor<LoopPoster>())
            var saved = 0
            while saves == 0 || saved < saves {
                number += 1
                // Every third poster shows the image of the one before: one file for both.
                context.insert(LoopPoster(number: number, image: Self.image(number)))
                try context.save()
                FileHandle.standardOutput.write(Data("ack \(number)\n".utf8))
                saved += 1
            }
        }

        /// The image of poster `number`: 16 to 48 KiB, the same as the poster before it for
        /// every third one.
        static func image(_ number: Int) -> Data {
            let seed = number % 3 == 0 ? number - 1 : number
            let count = 16_384 + (seed * 7_919) % 32_768
            var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15
            var bytes = [UInt8](repeating: 0, count: count)
            for index in bytes.indices {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes[index] = UInt8(truncatingIfNeeded: state >> 56)
            }
            return Data(bytes)
        }
    }
}
