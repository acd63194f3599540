import Testing

@testable import Logbook

struct CRC32CTests {
    @Test func matchesTheStandardCheckValue() {
        // The CRC-32C check value of "123456789" (RFC 3720, appendix B.4).
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(CRC32C.checksum([]) == 0)
        #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
    }

    @Test func hardwareAndSoftwareAgreeAndChecksumsCanBeChained() {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 7, 8, 9, 63, 64, 65, 1000, 4099] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let whole = CRC32C.checksum(bytes)
            let software = bytes.withUnsafeBytes { CRC32C.softwareChecksum($0) }
            #expect(whole == software, "length \(length)")
            let split = length / 3
            let chained = CRC32C.checksum(Array(bytes[split...]), continuing: CRC32C.checksum(Array(bytes[..<split])))
            #expect(chained == whole, "length \(length)")
        }
    }
}

struct LZ4Tests {
    @Test func roundTripsAndRefusesToGrowIncompressibleInput() throws {
        let text = Array(String(repeating: "Trip to Lisbon, bucket list: tram 28. ", count: 50).utf8)
        let compressed = try #require(text.withUnsafeBytes { LZ4.compress($0) })
        #expect(compressed.count < text.count / 4)
        var output = [UInt8](repeating: 0, count: text.count)
        #expect(
            compressed.withUnsafeBytes { source in output.withUnsafeMutableBytes { LZ4.decompress(source, into: $0) } }
        )
        #expect(output == text)
        #expect([UInt8]([1, 2, 3]).withUnsafeBytes { LZ4.compress($0) } == nil)
    }

    @Test func rejectsWrongSizesAndGarbage() throws {
        let text = Array(String(repeating: "abcdefgh", count: 100).utf8)
        let compressed = try #require(text.withUnsafeBytes { LZ4.compress($0) })
        for size in [text.count - 1, text.count + 1, 0] {
            var output = [UInt8](repeating: 0, count: size)
            #expect(
                !compressed.withUnsafeBytes { source in
                    output.withUnsafeMutableBytes { LZ4.decompress(source, into: $0) }
                }
            )
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let garbage = (0..<Int.random(in: 1...64, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            var output = [UInt8](repeating: 0, count: 256)
            _ = garbage.withUnsafeBytes { source in output.withUnsafeMutableBytes { LZ4.decompress(source, into: $0) } }
        }
    }
}

struct LEB128Tests {
    @Test(arguments: [UInt64(0), 1, 127, 128, 300, 16_383, 16_384, UInt64(UInt32.max), UInt64.max])
    func roundTrips(value: UInt64) {
        var bytes: [UInt8] = []
        LEB128.append(value, to: &bytes)
        #expect(bytes.count == LEB128.length(of: value))
        var offset = 0
        #expect(bytes.withUnsafeBytes { LEB128.read($0, at: &offset) } == value)
        #expect(offset == bytes.count)
    }

    @Test func rejectsTruncatedAndOverlongEncodings() {
        var offset = 0
        #expect([UInt8]([0x80, 0x80]).withUnsafeBytes { LEB128.read($0, at: &offset) } == nil)
        #expect(offset == 0)
        let overflow = [UInt8](repeating: 0xFF, count: 9) + [0x02]
        #expect(overflow.withUnsafeBytes { LEB128.read($0, at: &offset) } == nil)
        let tooLong = [UInt8](repeating: 0x80, count: 10) + [0x00]
        #expect(tooLong.withUnsafeBytes { LEB128.read($0, at: &offset) } == nil)
    }
}

struct SegmentDirectoryTests {
    @Test func namesRoundTripAndOtherFilesAreIgnored() {
        #expect(SegmentDirectory.fileName(forFirstSequence: 1) == "00000000000000000001.log")
        #expect(SegmentDirectory.fileName(forFirstSequence: UInt64.max) == "18446744073709551615.log")
        #expect(SegmentDirectory.firstSequence(ofFileName: "00000000000000000042.log") == 42)
        #expect(SegmentDirectory.firstSequence(ofFileName: "42.log") == nil)
        #expect(SegmentDirectory.firstSequence(ofFileName: "LOCK") == nil)
        #expect(SegmentDirectory.firstSequence(ofFileName: "0000000000000000004x.log") == nil)
        #expect(SegmentDirectory.firstSequence(ofFileName: "99999999999999999999.log") == nil)
    }
}
