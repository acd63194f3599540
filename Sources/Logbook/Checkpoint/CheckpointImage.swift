/// A checkpoint laid out but not yet in one piece: its header with the directory, and each
/// section at its offset (see <doc:OnDiskFormat>). Written to its file section by section, so
/// that the bytes are never held twice.
struct CheckpointImage {
    /// The header and the directory, at offset 0.
    var head: [UInt8]
    /// Each section's bytes and offset, a multiple of 8, in file order.
    var sections: [(offset: Int, bytes: [UInt8])]
    /// The file's size: the end of the last section, rounded up to a multiple of 8.
    var size: Int

    /// Writes the file's bytes into `file`: every piece at its offset, and the zeros between
    /// them and at the end.
    func write(to file: SystemFile) throws(LogbookError) {
        var end = 0
        func zeros(upTo offset: Int) throws(LogbookError) {
            guard offset > end else { return }
            try file.writeAll([UInt8](repeating: 0, count: offset - end)[...], at: Int64(end))
            end = offset
        }
        try file.writeAll(head[...], at: 0)
        end = head.count
        for section in sections {
            try zeros(upTo: section.offset)
            try file.writeAll(section.bytes[...], at: Int64(section.offset))
            end = section.offset + section.bytes.count
        }
        try zeros(upTo: size)
    }

    /// The file's bytes in one array: for a store whose checkpoints are also kept elsewhere
    /// (`LogbookPostgres`).
    func contiguous() -> [UInt8] {
        var file = [UInt8](repeating: 0, count: size)
        file.replaceSubrange(0..<head.count, with: head)
        for section in sections {
            file.replaceSubrange(section.offset..<(section.offset + section.bytes.count), with: section.bytes)
        }
        return file
    }
}
