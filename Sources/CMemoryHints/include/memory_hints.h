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

/// Asks, for write, for the objects of the native strings stored at each of `count` byte
/// offsets from `object`: a `String` is two words, the second holding its object's address
/// under four bits that are all zero for a native string (as `AttributeValue`'s
/// `prefetchStringObject(at:)` reads it). Other strings (small ones, literals) and `nil` are
/// skipped.
///
/// The words are read without synchronization, and another thread may be writing them: an app
/// may still hold, and change, a model whose context is freeing its others. A word read torn or
/// stale costs only a wrong hint, as nothing is read through it, so the function is compiled out
/// of ThreadSanitizer's view instead of synchronizing every read.
void logbook_prefetch_string_objects(const void *object, const unsigned long *offsets, long count);

#endif
