import Foundation

/// A value kept in a file of its own beside the log: the bytes of a `Data` attribute marked
/// `.externalStorage`, named by their SHA-256, with their length and CRC32C.
///
/// Events carry it under the value tag `external` (see the `OnDiskFormat` article, External
/// values), checkpoints in a cell of that tag; the file is ``ExternalFiles/path(of:)``.
package struct ExternalReference: Hashable, Sendable, CustomStringConvertible {
    /// The number of bytes of the value.
    package var length: UInt64
    /// The SHA-256 of the value's bytes: 32 bytes.
    package var hash: [UInt8]
    /// The CRC32C of the value's bytes, which every read checks.
    package var checksum: UInt32

    /// The number of bytes a checkpoint cell's heap holds for a reference: the length as a
    /// `UInt64`, the hash, the checksum as a `UInt32`, all little-endian.
    static let fixedSize = 8 + 32 + 4

    package init(length: UInt64, hash: [UInt8], checksum: UInt32) {
        precondition(hash.count == 32, "a SHA-256 digest has 32 bytes")
        self.length = length
        self.hash = hash
        self.checksum = checksum
    }

    /// The reference of `bytes`.
    ///
    /// - Complexity: O(*n*) in the number of bytes, which are hashed twice.
    package init(of bytes: Data) {
        let checksum = bytes.withUnsafeBytes { CRC32C.checksum($0) }
        self.init(length: UInt64(bytes.count), hash: SHA256.hash(bytes), checksum: checksum)
    }

    /// The hash in 64 lowercase hexadecimal digits: the file's name.
    package var fileName: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in hash {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The file's path inside the store's directory: `external/<first two digits>/<fileName>`.
    package var relativePath: String {
        let name = fileName
        return "\(ExternalFiles.directoryName)/\(name.prefix(2))/\(name)"
    }

    package var description: String {
        "external \(length) bytes sha256 \(fileName) crc32c \(String(checksum, radix: 16))"
    }

    // MARK: - Encoding

    /// Writes the reference as an event's value does after its tag: length as a varint, the
    /// hash, the checksum.
    func write(into writer: inout BinaryWriter) {
        writer.writeVarint(length)
        writer.writeBytes(hash)
        writer.writeLittleEndian(checksum)
    }

    /// The ``fixedSize`` bytes a checkpoint stores for the reference.
    var fixedBytes: [UInt8] {
        var writer = BinaryWriter(capacity: Self.fixedSize)
        writer.writeLittleEndian(length)
        writer.writeBytes(hash)
        writer.writeLittleEndian(checksum)
        return writer.bytes
    }

    /// The reference a checkpoint stored as ``fixedBytes``, or `nil` when the bytes are not one.
    init?(fixedBytes bytes: some Collection<UInt8>) {
        guard bytes.count == Self.fixedSize else { return nil }
        var reader = BinaryReader(Array(bytes)[...])
        guard let length = reader.readLittleEndian(as: UInt64.self),
            let hash = reader.readBytes(32),
            let checksum = reader.readLittleEndian(as: UInt32.self)
        else { return nil }
        self.init(length: length, hash: Array(hash), checksum: checksum)
    }
}
