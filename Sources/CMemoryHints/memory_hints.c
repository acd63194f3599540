// Most hints are inline functions of the header; this file holds those that must not be inlined.
#include "memory_hints.h"

#include <stdint.h>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define LOGBOOK_NOT_SANITIZED_FOR_THREADS __attribute__((no_sanitize("thread")))
#endif
#endif
#ifndef LOGBOOK_NOT_SANITIZED_FOR_THREADS
#define LOGBOOK_NOT_SANITIZED_FOR_THREADS
#endif

LOGBOOK_NOT_SANITIZED_FOR_THREADS
void logbook_prefetch_string_objects(const void *object, const unsigned long *offsets, long count) {
    const unsigned char *base = (const unsigned char *)object;
    for (long index = 0; index < count; index++) {
        uintptr_t bits = *(const volatile uintptr_t *)(base + offsets[index] + sizeof(uintptr_t));
        if (bits != 0 && (bits >> 60) == 0) __builtin_prefetch((const void *)bits, 1, 3);
    }
}
