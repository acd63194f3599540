import Testing

@testable import Logbook

struct LZ4PiecewiseBlockTests {
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

    /// Compresses `source` piece by piece after a prefix of the caller's, and decompresses the
    /// block with the one-call decompression every reader uses.
    static func roundTrip(_ source: [UInt8], pieces: Int) throws -> (block: [UInt8], restored: [UInt8]) {
        let prefix: [UInt8] = [0xAB, 0xCD, 0xEF]
        let output = try source.withUnsafeBytes { bytes -> [UInt8] in
            guard let base = bytes.baseAddress, var block = LZ4PiecewiseBlock(source: base, appendingTo: prefix) else {
                Issue.record("no piecewise block over \(bytes.count) bytes")
                return []
            }
            var end = 0
            var compressed = true
            while end < bytes.count, compressed {
                end = min(end + pieces, bytes.count)
                compressed = block.compress(upTo: end)
            }
            #expect(compressed, "every piece compressed")
            let finished = block.finish()
            return try #require(finished)
        }
        #expect(Array(output.prefix(3)) == prefix, "the caller's bytes stay at the start")
        let block = Array(output.dropFirst(3))
        var restored = [UInt8](repeating: 0, count: source.count)
        let decompressed = block.withUnsafeBytes { block in
            restored.withUnsafeMutableBytes { LZ4.decompress(block, into: $0) }
        }
        #expect(decompressed, "the joined block is one valid LZ4 block")
        return (block, restored)
    }

    @Test(arguments: [1, 5, 13, 100, 4_096, 65_536, 1 << 30])
    func piecesJoinIntoOneBlockThatDecompressesToTheSource(pieces: Int) throws {
        for (name, source) in Self.sources() where pieces > 1 || source.count <= 20_000 {
            let (_, restored) = try Self.roundTrip(source, pieces: pieces)
            // Compared first: a failed expectation on the arrays themselves would describe their
            // differences, element by element.
            let isSource = restored == source
            #expect(isSource, "\(name) in pieces of \(pieces) bytes")
        }
    }

    @Test func compressesAboutAsWellAsTheWholeSourceAtOnce() throws {
        for (name, source) in Self.sources() where source.count > 50_000 {
            let (block, _) = try Self.roundTrip(source, pieces: 65_536)
            let whole = source.withUnsafeBytes { LZ4.compress($0) }?.count ?? source.count
            // Each piece refers back to the 64 KiB before it, as the whole-source compression does.
            #expect(Double(block.count) <= Double(whole) * 1.01 + 64, "\(name): \(block.count) bytes against \(whole)")
        }
    }

    @Test func readsTheShapeOfABlock() throws {
        // "abcde" as literals only.
        let literals: [UInt8] = [0x50] + Array("abcde".utf8)
        let shape = try #require(literals.withUnsafeBytes { LZ4PiecewiseBlock.shape(of: $0) })
        #expect(shape.isLiteralsOnly)
        #expect(shape.lastLiterals == (start: 1, count: 5))
        // "ab", then a match of 4 bytes at offset 2 ("abab"), then "xyzzy" alone.
        let matched: [UInt8] = [0x20] + Array("ab".utf8) + [2, 0] + [0x50] + Array("xyzzy".utf8)
        let second = try #require(matched.withUnsafeBytes { LZ4PiecewiseBlock.shape(of: $0) })
        #expect(!second.isLiteralsOnly)
        #expect(second.firstLiteralCount == 2 && second.afterFirstLiterals == 3)
        #expect(second.lastStart == 5 && second.lastLiterals == (start: 6, count: 5))
        // Literals that run past the end, a match with no offset, and a length cut short.
        for broken: [UInt8] in [[0x50, 1, 2], [0x21, 1, 2, 9], [0xF0, 255], []] {
            #expect(broken.withUnsafeBytes { LZ4PiecewiseBlock.shape(of: $0) } == nil, "\(broken)")
        }
    }

    @Test func literalsLongerThanFifteenCarryTheirLengthOnward() throws {
        // 300 literals, then "q" matched at offset 1 four times: the length takes 15 + 255 + 30.
        var block: [UInt8] = [0xF0, 255, 30] + [UInt8](repeating: 0x71, count: 300) + [1, 0]
        block += [0x50] + Array("tail!".utf8)
        let shape = try #require(block.withUnsafeBytes { LZ4PiecewiseBlock.shape(of: $0) })
        #expect(shape.firstLiteralCount == 300 && shape.afterFirstLiterals == 303)
        #expect(shape.lastStart == 305)
    }
}
