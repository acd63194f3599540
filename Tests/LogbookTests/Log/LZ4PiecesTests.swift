import Testing

@testable import Logbook

struct LZ4PiecesTests {
    /// Text that compresses well, bytes that do not compress at all, and the two interleaved,
    /// so that pieces end inside matches, inside literals and on the edges between.
    static func sources() -> [(name: String, bytes: [UInt8])] {
        var generator = SeededGenerator(seed: 0x4C5A_3450_4945_4345)
        let sentence = Array("Lisbon Food 1287: tram 28 to the castle, pastéis in Belém. ".utf8)
        let text = (0..<6_000).flatMap { index in sentence + Array(String(index).utf8) }
        let noise = (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        var mixed: [UInt8] = []
        for round in 0..<40 {
            mixed += text[(round * 997)..<(round * 997 + 3_000)]
            mixed += (0..<(round * 37 % 500)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        }
        return [
            ("text", text), ("noise", noise), ("mixed", mixed),
            ("one byte", [7]), ("twelve bytes", Array("twelve bytes".utf8)),
            ("a run", [UInt8](repeating: 0x61, count: 70_000)),
        ]
    }

    /// Compresses `source` piece by piece after a prefix of the caller's.
    static func compress(_ source: [UInt8], pieces: Int) -> [UInt8]? {
        source.withUnsafeBytes { bytes -> [UInt8]? in
            guard let base = bytes.baseAddress, var compressor = LZ4Pieces(source: base, appendingTo: [0xAB, 0xCD])
            else { return nil }
            var end = 0
            while end < bytes.count {
                end = min(end + pieces, bytes.count)
                guard compressor.compress(upTo: end) else { return nil }
            }
            return compressor.finish()
        }
    }

    /// Decompresses pieces as every reader does.
    static func decompress(_ pieces: [UInt8], count: Int) -> [UInt8]? {
        var restored = [UInt8](repeating: 0, count: count)
        let decompressed = pieces.withUnsafeBytes { pieces in
            restored.withUnsafeMutableBytes { LZ4.decompress(pieces: pieces, into: $0) }
        }
        return decompressed ? restored : nil
    }

    @Test(arguments: [1, 5, 13, 100, 4_096, 65_536, 1 << 30])
    func piecesDecompressToTheSource(pieces: Int) throws {
        for (name, source) in Self.sources() where pieces > 1 || source.count <= 20_000 {
            let output = try #require(Self.compress(source, pieces: pieces), "\(name)")
            #expect(Array(output.prefix(2)) == [0xAB, 0xCD], "the caller's bytes stay at the start")
            let restored = try #require(Self.decompress(Array(output.dropFirst(2)), count: source.count), "\(name)")
            // Compared first: a failed expectation on the arrays themselves would describe their
            // differences, element by element.
            let isSource = restored == source
            #expect(isSource, "\(name) in pieces of \(pieces) bytes")
        }
    }

    @Test func compressesAboutAsWellAsTheWholeSourceAtOnce() throws {
        for (name, source) in Self.sources() where source.count > 50_000 {
            let pieces = try #require(Self.compress(source, pieces: 65_536)).count - 2
            let whole = source.withUnsafeBytes { LZ4.compress($0) }?.count ?? source.count
            // Each piece refers back to the 64 KiB before it, as the whole-source compression does.
            #expect(Double(pieces) <= Double(whole) * 1.01 + 64, "\(name): \(pieces) bytes against \(whole)")
        }
    }

    @Test func refusesPiecesThatDoNotAccountForTheirBytes() throws {
        let source = Array(String(repeating: "Trip to Lisbon, bucket list: tram 28. ", count: 4_000).utf8)
        let pieces = Array(try #require(Self.compress(source, pieces: 65_536)).dropFirst(2))
        #expect(Self.decompress(pieces, count: source.count) == source)
        // A size too small or too large, a length cut short, a length past the end, a zero
        // length, and a byte left over after the last piece.
        #expect(Self.decompress(pieces, count: source.count - 1) == nil)
        #expect(Self.decompress(pieces, count: source.count + 1) == nil)
        #expect(Self.decompress(pieces + [1, 0], count: source.count) == nil)
        var past = pieces
        past.replaceSubrange(0..<4, with: [0xFF, 0xFF, 0xFF, 0x00])
        #expect(Self.decompress(past, count: source.count) == nil)
        #expect(Self.decompress([0, 0, 0, 0] + pieces, count: source.count) == nil)
        #expect(Self.decompress(pieces + [0x10, 0, 0, 0], count: source.count) == nil)
        #expect(Self.decompress([], count: 0) == [])
        #expect(Self.decompress([], count: 1) == nil)
    }
}
