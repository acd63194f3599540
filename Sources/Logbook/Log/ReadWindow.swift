/// A read-ahead buffer over a file, so that scanning many small batches costs few system calls.
struct ReadWindow {
    /// How much to read at once when the caller asks for less.
    static let chunkSize = 1 << 20

    private var buffer: [UInt8] = []
    private var start: Int64 = 0
    private var count = 0

    /// Makes `length` bytes at `offset` available, reading from `file` when needed.
    ///
    /// - Returns: how many of the requested bytes are available; fewer than `length` only at the
    ///   end of the file.
    mutating func fill(from file: SystemFile, at offset: Int64, length: Int) throws(LogbookError) -> Int {
        if offset >= start && offset + Int64(length) <= start + Int64(count) {
            return length
        }
        let wanted = max(length, Self.chunkSize)
        if buffer.count < wanted {
            buffer = [UInt8](repeating: 0, count: wanted)
        }
        start = offset
        count = 0
        let result = buffer.withUnsafeMutableBytes { bytes in
            Result { () throws(LogbookError) -> Int in
                try file.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[..<wanted]), at: offset)
            }
        }
        let read = try result.get()
        count = read
        return min(read, length)
    }

    /// Calls `body` with `length` bytes at `offset`, which a call to ``fill(from:at:length:)``
    /// must have made available.
    func withBytes<T>(
        at offset: Int64,
        length: Int,
        _ body: (UnsafeRawBufferPointer) throws(LogbookError) -> T
    )
        throws(LogbookError) -> T
    {
        let from = Int(offset - start)
        precondition(from >= 0 && from + length <= count, "bytes requested outside the filled window")
        let result = buffer.withUnsafeBytes { bytes in
            Result { () throws(LogbookError) -> T in
                try body(UnsafeRawBufferPointer(rebasing: bytes[from..<(from + length)]))
            }
        }
        return try result.get()
    }

    /// Forgets the buffered bytes, for when the file may have changed under it.
    mutating func invalidate() {
        count = 0
    }
}
