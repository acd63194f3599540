import Testing

@testable import Logbook

struct BinaryCodingTests {
    @Test func everyKindOfFieldRoundTrips() throws {
        var writer = BinaryWriter()
        writer.write(7)
        writer.writeLittleEndian(UInt32(0xDEAD_BEEF))
        writer.writeLittleEndian(Int64.min)
        writer.writeVarint(300)
        for value: Int64 in [0, -1, 1, .min, .max, -64, 64] { writer.writeSignedVarint(value) }
        writer.writeString("Lisbon – Tromsø")
        writer.writeLengthPrefixed([1, 2, 3])
        #expect(Array(writer.bytes[1...4]) == [0xEF, 0xBE, 0xAD, 0xDE], "little-endian")

        var reader = BinaryReader(writer.bytes)
        #expect(reader.readByte() == 7)
        #expect(reader.readLittleEndian(as: UInt32.self) == 0xDEAD_BEEF)
        #expect(reader.readLittleEndian(as: Int64.self) == .min)
        #expect(reader.readVarint() == 300)
        for value: Int64 in [0, -1, 1, .min, .max, -64, 64] { #expect(reader.readSignedVarint() == value) }
        #expect(reader.readString() == "Lisbon – Tromsø")
        #expect(reader.readLengthPrefixed().map(Array.init) == [1, 2, 3])
        #expect(reader.isAtEnd)
        #expect(reader.readByte() == nil)
    }

    @Test func smallSignedValuesStayShort() {
        var writer = BinaryWriter()
        writer.writeSignedVarint(-1)
        writer.writeSignedVarint(63)
        #expect(writer.bytes == [1, 126])
    }

    @Test func shortOrMalformedInputReturnsNilAndDoesNotMove() {
        var reader = BinaryReader([0x05, 0x41, 0x42])  // claims 5 bytes, has 2
        #expect(reader.readString() == nil)
        #expect(reader.offset == 0)
        #expect(reader.readLittleEndian(as: UInt64.self) == nil)
        var invalid = BinaryReader([0x02, 0xC3, 0x28])  // not UTF-8
        #expect(invalid.readString() == nil)
        #expect(invalid.offset == 0)
        var slice = BinaryReader([9, 9, 0x01, 0x41][2...])
        #expect(slice.readString() == "A")
        #expect(slice.readBytes(-1) == nil)
    }
}
