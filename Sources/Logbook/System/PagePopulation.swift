#if canImport(Glibc)
import Glibc
#endif

/// Maps the whole pages of a block of fresh memory in one call, where the system can
/// (`madvise(MADV_POPULATE_WRITE)`, Linux 5.14 and later), instead of one page fault per page
/// (4 KiB on most machines) as the block is first written. Elsewhere, or on an older kernel,
/// it does nothing, and the writes fault the pages in as they would have.
///
/// The pages' contents do not change. Only call it for memory the caller owns and is about to
/// write: every page it maps counts towards the process's resident memory.
func populatePages(_ start: UnsafeMutableRawPointer, bytes: Int) {
    #if canImport(Glibc)
    let page = systemPageSize
    guard page > 0 else { return }
    let first = (Int(bitPattern: start) &+ page &- 1) / page &* page
    let end = (Int(bitPattern: start) &+ bytes) / page &* page
    guard end > first else { return }
    _ = madvise(UnsafeMutableRawPointer(bitPattern: first), end &- first, MADV_POPULATE_WRITE)
    #endif
}

#if canImport(Glibc)
/// The size of a page of memory, which `madvise` wants its range aligned to.
private let systemPageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
#endif
