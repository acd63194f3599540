import BenchmarkHarness
import Foundation
import SampleTripsData
import Testing

struct ReferenceFigureTests {
    /// The golden format-1 store of the main package.
    static let goldenStore = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("../../../Fixtures/log-format-1")
        .standardized

    @Test func theSegmentReaderReadsEveryBatchOfTheGoldenStore() throws {
        let segments = SegmentReader.segmentFiles(in: Self.goldenStore)
        #expect(segments.map(\.lastPathComponent).first == "00000000000000000001.log")
        var nextSequence: UInt64 = 1
        for segment in segments {
            let bytes = try FileBytes.read(path: segment.path)
            let batches = SegmentReader.batches(in: bytes)
            #expect(!batches.isEmpty)
            #expect(batches.last?.payload.upperBound == bytes.count)
            for batch in batches {
                #expect(batch.firstSequence == nextSequence)
                nextSequence += UInt64(batch.eventCount)
            }
        }
    }

    @Test func theSegmentReaderStopsAtATornBatch() throws {
        let segment = try #require(SegmentReader.segmentFiles(in: Self.goldenStore).first)
        let bytes = try FileBytes.read(path: segment.path)
        let whole = SegmentReader.batches(in: bytes)
        let torn = SegmentReader.batches(in: Array(bytes.dropLast()))
        #expect(torn.count == whole.count - 1)
        #expect(SegmentReader.batches(in: Array(bytes.prefix(31))).isEmpty)
    }

    @Test func generatedPayloadDecompressesToItsOwnSize() throws {
        let figure = try LZ4Reference.generatedPayload(
            SampleTripsDataSet(tripCount: 2_500),
            tripsPerBlock: 1_000,
            minimumSeconds: 0
        )
        #expect(figure.blocks == 3)
        #expect(figure.uncompressedBytes > figure.compressedBytes)
        #expect(figure.megabytesPerSecond > 0)
    }

    /// The golden format-3 store keeps its compressible batches in LZ4 pieces: each decompresses
    /// to its declared size, as the store's reader decompresses it.
    @Test func piecesOfTheFormatThreeStoreDecompressToTheirSize() throws {
        let store = Self.goldenStore.deletingLastPathComponent().appendingPathComponent("log-format-3")
        let batches = try SegmentReader.segmentFiles(in: store).flatMap { segment in
            SegmentReader.batches(in: try FileBytes.read(path: segment.path))
        }
        #expect(batches.count == 9)
        #expect(batches.filter(\.isInPieces).count == 7)
        let figure = try #require(try LZ4Reference.storePayload(store, minimumSeconds: 0))
        #expect(figure.blocks == 7)
        #expect(figure.source.hasSuffix("7 of 7 batches in pieces (LZ4_decompress_safe_usingDict)"))
        #expect(figure.uncompressedBytes > figure.compressedBytes)
    }

    @Test func sequentialReadCountsEveryByteOfADirectory() throws {
        let figure = try SequentialRead.measure(directory: Self.goldenStore, passes: 1)
        let expected = FileBytes.regularFiles(in: Self.goldenStore).reduce(0) { $0 + FileBytes.size(of: $1) }
        #expect(figure.bytes == expected)
        #expect(figure.files == 5)
    }

    @Test func theChainOfReadsVisitsEveryLineOnceBeforeItCloses() {
        let lines = 1_000
        let next = MemoryLatency.successors(lines: lines, seed: 7)
        var visited = Set<Int>()
        var line = 0
        repeat {
            #expect(visited.insert(line).inserted, "line \(line) visited twice")
            line = next[line]
        } while line != 0 && visited.count <= lines
        #expect(visited.count == lines)
        // A different seed, a different order.
        #expect(MemoryLatency.successors(lines: lines, seed: 8) != next)
    }

    @Test func memoryLatencyTimesTheReadsItWasAskedFor() {
        let figure = MemoryLatency.measure(bufferBytes: 1 << 20, reads: 20_000)
        #expect(figure.bufferBytes == 1 << 20)
        #expect(figure.reads == 20_000)
        #expect(figure.dependentNanoseconds > 0)
        #expect(figure.fourChainsNanoseconds > 0)
    }

    @Test func theReportPrintsTheMemoryLatency() {
        var report = ResultTableTests.report(logbook: true)
        report.memoryLatency = MemoryLatencyFigure(
            bufferBytes: 64 << 20,
            reads: 2_000_000,
            dependentNanoseconds: 183.26,
            fourChainsNanoseconds: 47.5
        )
        let text = ResultTable.render(report)
        #expect(
            text.contains(
                "Random reads in 64 MiB, each at the address the read before found: 183.3 ns per read; "
                    + "four such chains at once: 47.5 ns per read"
            )
        )
        #expect(!text.contains("none measured"))
    }
}
