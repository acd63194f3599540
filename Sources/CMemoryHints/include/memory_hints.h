#ifndef LOGBOOK_MEMORY_HINTS_H
#define LOGBOOK_MEMORY_HINTS_H

/// Asks the processor to start loading the cache line at `address` for a read, without waiting
/// for it: a later load of the line then overlaps with whatever the caller does meanwhile,
/// instead of following it. A hint only; any address may be given, and nothing is read.
static inline void logbook_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

/// As `logbook_prefetch`, for a line the caller is about to write: a reference count it is
/// about to change, for example.
static inline void logbook_prefetch_for_write(const void *address) {
    __builtin_prefetch(address, 1, 3);
}

#endif
