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

    /// The most bytes one write passes to the system: a chunk (see ``CheckpointFormat/chunkSize``).
    ///
    /// Readers map the file, and on Linux a read that faults one page of a mapping in maps
    /// the whole page-cache folio that holds it, while the size of a write sets the size of
    /// the folios it fills: a section written in one call left folios of megabytes, and a
    /// first screen that read a few values of a table held the pages of most of the file.
    /// Writes of 64 KiB leave folios no larger than what a fault maps around a page anyway.
    static let largestWrite = CheckpointFormat.chunkSize

    /// Writes the file's bytes into `file`: every piece at its offset, and the zeros between
    /// them and at the end, in writes of at most ``largestWrite`` bytes.
    func write(to file: SystemFile) throws(LogbookError) {
        var end = 0
        func put(_ bytes: ArraySlice<UInt8>, at offset: Int) throws(LogbookError) {
            var start = bytes.startIndex
            while start < bytes.endIndex {
                let stop = min(start + Self.largestWrite, bytes.endIndex)
                try file.writeAll(bytes[start..<stop], at: Int64(offset + start - bytes.startIndex))
                start = stop
            }
        }
        func zeros(upTo offset: Int) throws(LogbookError) {
            guard offset > end else { return }
            try put([UInt8](repeating: 0, count: offset - end)[...], at: end)
            end = offset
        }
        try put(head[...], at: 0)
        end = head.count
        for section in sections {
            try zeros(upTo: section.offset)
            try put(section.bytes[...], at: section.offset)
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
