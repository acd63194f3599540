#ifndef LOGBOOK_MEMORY_HINTS_H
#define LOGBOOK_MEMORY_HINTS_H

// Hints to the processor and the allocator, through documented compiler built-ins and C library
// calls only. Every address handed to them belongs to Logbook's own buffers.

/// Starts loading the cache line at `address`, which must lie in a buffer Logbook allocated.
static inline void logbook_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

/// Hands memory the allocator keeps free back to the system: glibc's `malloc_trim(0)`; does
/// nothing with another C library.
void logbook_trim_allocator(void);

#endif
