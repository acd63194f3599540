#include "memory_hints.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

void logbook_trim_allocator(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}
