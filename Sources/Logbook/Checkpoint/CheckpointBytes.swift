#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of a checkpoint file, mapped from disk or held in memory, read-only, for as long as
/// anything refers to them.
///
/// A checkpoint opened from a file is mapped (`mmap`), so that its pages are read from the page
/// cache when they are first touched and count as memory the system can reclaim: the values a
/// table decodes only when they are read (see ``ValueColumn``) point into this region. Bytes
/// that arrive in memory (a checkpoint downloaded from a shared store, or a layer of system calls
/// that does not map files) are held in an allocation of their own instead.
///
/// A mapping stays valid after the file is removed or replaced by a rename, which is how
/// checkpoints are ever removed or replaced; a file cut short in place by another program would
/// end the process with `SIGBUS` on the next read of a lost page, as with any mapped file.
final class CheckpointBytes: @unchecked Sendable {
    /// The first byte.
    let base: UnsafeRawPointer
    /// The number of bytes.
    let count: Int
    private let release: Release

    private enum Release {
        case unmap(any Syscalls)
        case free
        case nothing
    }

    /// The bytes of `array`, copied.
    init(copying array: [UInt8]) {
        count = array.count
        guard !array.isEmpty else {
            base = UnsafeRawPointer(Self.empty)
            release = .nothing
            return
        }
        let block = UnsafeMutableRawPointer.allocate(byteCount: array.count, alignment: 16)
        array.withUnsafeBytes { source in
            if let start = source.baseAddress { block.copyMemory(from: start, byteCount: array.count) }
        }
        base = UnsafeRawPointer(block)
        release = .free
    }

    /// A region whose first `count` bytes `syscalls` mapped at `base`.
    init(mapped base: UnsafeRawPointer, count: Int, syscalls: any Syscalls) {
        self.base = base
        self.count = count
        release = .unmap(syscalls)
    }

    deinit {
        switch release {
        case .unmap(let syscalls): syscalls.unmap(base, length: count)
        case .free: UnsafeMutableRawPointer(mutating: base).deallocate()
        case .nothing: break
        }
    }

    /// All the bytes.
    var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// The bytes in `range`, which must lie within the region.
    func buffer(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "a range outside the checkpoint")
        return UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count)
    }

    /// Lets the memory of the pages wholly inside `range` go, for a mapped region: an open that
    /// read a section through (for its checksum, or to load it) then holds only what it reads
    /// again. A region held in memory keeps its bytes.
    func dropPages(_ range: Range<Int>) {
        guard case .unmap(let syscalls) = release else { return }
        let page = Self.pageSize
        // The mapping starts on a page; only whole pages within the range are let go.
        let start = (range.lowerBound + page - 1) / page * page
        let end = Swift.min(range.upperBound, count) / page * page
        guard end > start else { return }
        syscalls.dropPages(base + start, length: end - start)
    }

    /// Lets go of the memory of the chunks of the file (the 64 KiB at multiples of
    /// ``CheckpointFormat/chunkSize``, which one fault maps) that hold the bytes of `range`: for
    /// a read of a few bytes at random, which will not come back to them.
    func dropChunks(holding range: Range<Int>) {
        let chunk = CheckpointFormat.chunkSize
        let start = range.lowerBound / chunk * chunk
        let end = (Swift.max(range.upperBound, range.lowerBound + 1) + chunk - 1) / chunk * chunk
        dropPages(start..<end)
    }

    /// The bytes read through before their pages are let go of, when a whole section is read
    /// once at the open (for its checksum, or to check its cells): the memory such a pass holds.
    static let stretch = 4 << 20

    private static let pageSize = Swift.max(Int(sysconf(Int32(_SC_PAGESIZE))), 4_096)

    /// A copy of the bytes in `range`, for the small sections that are parsed whole.
    func copy(_ range: Range<Int>) -> [UInt8] {
        Array(buffer(range))
    }

    private nonisolated(unsafe) static let empty = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 16)
}
