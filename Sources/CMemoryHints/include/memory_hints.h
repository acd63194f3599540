#ifndef LOGBOOK_MEMORY_HINTS_H
#define LOGBOOK_MEMORY_HINTS_H

// Hints to the processor and the allocator, and the ordered byte accesses that a value decoded
// on first read is published with, through documented compiler built-ins and C library calls
// only. Every address handed to them belongs to Logbook's own buffers.

/// Starts loading the cache line at `address`, which must lie in a buffer Logbook allocated.
static inline void logbook_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

/// Reads the byte at `address` with acquire ordering: what was written before a release store
/// of it (``logbook_store_release``) on another thread is visible after this read.
static inline unsigned char logbook_load_acquire(const unsigned char *address) {
    return __atomic_load_n(address, __ATOMIC_ACQUIRE);
}

/// Writes `value` to the byte at `address` with release ordering.
static inline void logbook_store_release(unsigned char *address, unsigned char value) {
    __atomic_store_n(address, value, __ATOMIC_RELEASE);
}

/// Changes the byte at `address` from 0 to 1 and returns 1 if it was 0; returns 0, changing
/// nothing, otherwise. Acquire ordering on success: one thread claims a value to decode.
static inline int logbook_claim(unsigned char *address) {
    unsigned char expected = 0;
    return __atomic_compare_exchange_n(address, &expected, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/// Subtracts `value` from the count at `address` and returns what it held before, with
/// acquire-release ordering.
static inline long logbook_load_relaxed(const long *address) {
    return __atomic_load_n(address, __ATOMIC_RELAXED);
}

static inline long logbook_fetch_subtract(long *address, long value) {
    return __atomic_fetch_sub(address, value, __ATOMIC_ACQ_REL);
}

/// Hands memory the allocator keeps free back to the system: glibc's `malloc_trim(0)`; does
/// nothing with another C library.
void logbook_trim_allocator(void);

#endif
