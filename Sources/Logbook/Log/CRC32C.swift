import CCRC32C

/// CRC32C (Castagnoli) checksums, computed with the processor's `crc32` instruction when it has
/// one and with slicing-by-8 otherwise.
package enum CRC32C {
    /// The checksum of `bytes`, continuing from `crc` (start from 0).
    package static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        logbook_crc32c_extend(crc, bytes.baseAddress, bytes.count)
    }

    /// The checksum of `bytes`, continuing from `crc` (start from 0).
    package static func checksum(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0, continuing: crc) }
    }

    /// The software-only checksum, for tests that compare both paths and for measurement.
    package static func softwareChecksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        logbook_crc32c_extend_software(crc, bytes.baseAddress, bytes.count)
    }

    /// Whether ``checksum(_:continuing:)-(UnsafeRawBufferPointer,_)`` uses a hardware instruction here.
    package static var isHardwareAccelerated: Bool {
        logbook_crc32c_is_hardware_accelerated() != 0
    }
}
