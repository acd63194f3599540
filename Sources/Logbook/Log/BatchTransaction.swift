import Foundation

/// The transaction record that begins a batch of format version 4 (``LogFormat/flagTransaction``):
/// when the save was made and by whom.
///
/// It is framed like an event (a varint length, then its bytes) but is not one: it takes no
/// sequence number and the batch's event count does not include it. Its bytes, little-endian:
///
/// ```
/// transaction = timestamp:u64 author
/// timestamp   = the bits of a Double: seconds since 2001-01-01 00:00:00 UTC
/// author      = 0 (none) | 1 string (varint length, UTF-8)
/// ```
package struct BatchTransaction: Hashable, Sendable {
    /// When the save was made, as the saving process's clock read it.
    package var timestamp: Date
    /// The saving context's ``ModelContext/author``, if it had one.
    package var author: String?

    package init(timestamp: Date, author: String?) {
        self.timestamp = timestamp
        self.author = author
    }

    /// Writes the record's bytes, without their length.
    package func encode(into writer: inout BinaryWriter) {
        writer.writeLittleEndian(timestamp.timeIntervalSinceReferenceDate.bitPattern)
        if let author {
            writer.write(1)
            writer.writeString(author)
        } else {
            writer.write(0)
        }
    }

    /// Decodes a record, every byte of it.
    ///
    /// - Throws: ``LogbookError/Code/corruption`` naming what is malformed.
    package static func decode(_ bytes: ArraySlice<UInt8>) throws(LogbookError) -> BatchTransaction {
        var reader = BinaryReader(bytes)
        guard let bits = reader.readLittleEndian(as: UInt64.self) else {
            throw LogbookError(.corruption, "undecodable transaction record: truncated timestamp")
        }
        let seconds = Double(bitPattern: bits)
        guard seconds.isFinite else {
            throw LogbookError(.corruption, "undecodable transaction record: the timestamp is not a finite number")
        }
        let author: String?
        switch reader.readByte() {
        case 0: author = nil
        case 1:
            guard let text = reader.readString() else {
                throw LogbookError(.corruption, "undecodable transaction record: invalid author")
            }
            author = text
        default:
            throw LogbookError(.corruption, "undecodable transaction record: invalid author marker")
        }
        guard reader.isAtEnd else {
            throw LogbookError(.corruption, "undecodable transaction record: \(reader.remaining) bytes after it")
        }
        return BatchTransaction(timestamp: Date(timeIntervalSinceReferenceDate: seconds), author: author)
    }
}
