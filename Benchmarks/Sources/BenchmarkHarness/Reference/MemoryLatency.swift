import SampleTripsData

/// How long this machine takes to read memory that is not in its caches.
///
/// A lookup by unique name in a large store reads a few cache lines that depend on one another
/// (the index's bucket, then the key, the registry entry and the row it points to, then the
/// object), and the lines of one lookup are far from the previous lookup's. Its time follows
/// this figure more than the processor's speed: on a shared host the figure moves from one
/// hour to the next, and W1 and W3 move with it.
public struct MemoryLatencyFigure: Codable, Hashable, Sendable {
    /// The size of the buffer read, in bytes.
    public var bufferBytes: Int
    /// Reads timed, in each of the two measurements.
    public var reads: Int
    /// Nanoseconds per read when each read's address comes from the read before: the latency.
    public var dependentNanoseconds: Double
    /// Nanoseconds per read when four such chains of reads run side by side, so that four
    /// reads can wait at once: how much of the latency the processor overlaps.
    public var fourChainsNanoseconds: Double

    public init(bufferBytes: Int, reads: Int, dependentNanoseconds: Double, fourChainsNanoseconds: Double) {
        self.bufferBytes = bufferBytes
        self.reads = reads
        self.dependentNanoseconds = dependentNanoseconds
        self.fourChainsNanoseconds = fourChainsNanoseconds
    }
}

/// Follows a chain of pointers through a buffer, one per cache line, in a random order.
public enum MemoryLatency {
    static let lineBytes = 64

    /// Measures reads in a buffer of `bufferBytes` (64 MiB, far beyond the caches, by default):
    /// `reads` reads along one chain, then `reads` reads along four chains at once.
    public static func measure(
        bufferBytes: Int = 64 << 20,
        reads: Int = 2_000_000,
        seed: UInt64 = 0x6C6F_6762_6F6F_6B21
    ) -> MemoryLatencyFigure {
        let lines = max(bufferBytes / lineBytes, 4)
        let order = cycleOrder(lines: lines, seed: seed)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: lines * lineBytes, alignment: lineBytes)
        defer { buffer.deallocate() }
        // Each line holds the byte offset of the line after it in the cycle.
        for (line, after) in successors(of: order).enumerated() {
            buffer.storeBytes(of: after &* lineBytes, toByteOffset: line &* lineBytes, as: Int.self)
        }
        // Four starting points a quarter of the cycle apart, so that no chain reads lines
        // another has just read.
        let starts = (0..<4).map { order[$0 &* lines / 4] &* lineBytes }
        // A first pass warms the page tables, as a store's arrays are warm after it opens.
        _ = chase(buffer, from: [0], steps: min(reads, lines))
        let (oneChain, _) = Stopwatch.measure { chase(buffer, from: [starts[0]], steps: reads) }
        let (fourChains, _) = Stopwatch.measure { chase(buffer, from: starts, steps: reads / 4) }
        return MemoryLatencyFigure(
            bufferBytes: lines * lineBytes,
            reads: reads,
            dependentNanoseconds: oneChain * 1e9 / Double(max(reads, 1)),
            fourChainsNanoseconds: fourChains * 1e9 / Double(max(reads / 4 * 4, 1))
        )
    }

    /// Every one of `lines` lines once, in a random order (Fisher–Yates): the chain of reads
    /// goes from each line to the next in this order, and from the last back to the first.
    static func cycleOrder(lines: Int, seed: UInt64) -> [Int] {
        var order = Array(0..<lines)
        var random = SplitMix64(seed: seed)
        var index = lines - 1
        while index > 0 {
            order.swapAt(index, random.next(below: index &+ 1))
            index -= 1
        }
        return order
    }

    /// The line after each line in the chain of reads: one cycle through all `lines` lines.
    public static func successors(lines: Int, seed: UInt64) -> [Int] {
        successors(of: cycleOrder(lines: lines, seed: seed))
    }

    /// The line after each line when the chain goes through `order` and back to its start.
    static func successors(of order: [Int]) -> [Int] {
        var next = Array(repeating: 0, count: order.count)
        for (position, line) in order.enumerated() {
            next[line] = order[position &+ 1 == order.count ? 0 : position &+ 1]
        }
        return next
    }

    /// Takes `steps` steps along each chain, the chains interleaved; returns where they ended,
    /// so that the reads cannot be left out.
    @inline(never)
    static func chase(_ buffer: UnsafeMutableRawPointer, from starts: [Int], steps: Int) -> Int {
        var offsets = starts
        var end = 0
        offsets.withUnsafeMutableBufferPointer { chains in
            for _ in 0..<steps {
                for chain in chains.indices {
                    chains[chain] = buffer.load(fromByteOffset: chains[chain], as: Int.self)
                }
            }
            end = chains.reduce(0, &+)
        }
        return end
    }
}
