import Logbook

/// How a checkpoint is kept in the `checkpoint` column of `logbook_checkpoints`: compressed
/// with LZ4, so that a new host downloads a fraction of it (see the PostgreSQLTables article).
///
/// A compressed row is ``magic``, the checkpoint's length as an unsigned 64-bit little-endian
/// integer, then one LZ4 block of the checkpoint file's bytes. A row that does not start with
/// ``magic`` is the checkpoint file itself, as earlier releases kept it, and as this one keeps a
/// checkpoint that LZ4 cannot make smaller or that is larger than one LZ4 block can hold.
enum SharedCheckpointEncoding {
    /// The first 8 bytes of a compressed row; a checkpoint file starts otherwise.
    static let magic: [UInt8] = Array("LBCZLZ4".utf8) + [1]

    /// The bytes of the row that keeps `checkpoint`.
    static func encode(_ checkpoint: [UInt8]) -> [UInt8] {
        guard let compressed = checkpoint.withUnsafeBytes({ LZ4.compress($0) }),
            compressed.count + magic.count + 8 < checkpoint.count
        else { return checkpoint }
        var row = magic
        row.reserveCapacity(magic.count + 8 + compressed.count)
        withUnsafeBytes(of: UInt64(checkpoint.count).littleEndian) { row.append(contentsOf: $0) }
        row.append(contentsOf: compressed)
        return row
    }

    /// The checkpoint a row keeps; `nil` when the row starts as a compressed one but does not
    /// decompress to the length it declares.
    static func decode(_ row: [UInt8]) -> [UInt8]? {
        guard row.count >= magic.count + 8, row.starts(with: magic) else { return row }
        let length = row.withUnsafeBytes {
            UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: magic.count, as: UInt64.self))
        }
        guard length <= UInt64(Int32.max) else { return nil }
        var valid = false
        let checkpoint = [UInt8](unsafeUninitializedCapacity: Int(length)) { destination, initialized in
            valid = row.withUnsafeBytes { source in
                LZ4.decompress(
                    UnsafeRawBufferPointer(rebasing: source[(magic.count + 8)...]),
                    into: UnsafeMutableRawBufferPointer(destination)
                )
            }
            initialized = valid ? Int(length) : 0
        }
        return valid ? checkpoint : nil
    }
}
