// Finds the thread-local storage of the Swift runtime's Observation library, so that Logbook can
// tell whether `withObservationTracking` is running on the calling thread without creating an
// observation registrar for every model read outside of one.
#if defined(__linux__)
#define _GNU_SOURCE  // dl_iterate_phdr
#endif

#include "observation_tracking.h"

#if defined(__linux__)
#include <link.h>
#include <string.h>
#endif

// `__GLIBC__` comes with the C library's headers, so the test follows the includes.
#if defined(__linux__) && defined(__GLIBC__) && (defined(__x86_64__) || defined(__aarch64__))

// The argument of the dynamic linker's `__tls_get_addr`, as the ELF thread-local storage ABI of
// these architectures defines it.
typedef struct {
    unsigned long module;
    unsigned long offset;
} logbook_tls_index;

extern void *__tls_get_addr(logbook_tls_index *index);

static int find_observation(struct dl_phdr_info *info, size_t size, void *found) {
    (void)size;
    const char *name = info->dlpi_name;
    if (name == NULL) return 0;
    const char *slash = strrchr(name, '/');
    const char *base = slash != NULL ? slash + 1 : name;
    if (strcmp(base, "libswiftObservation.so") != 0) return 0;
    for (ElfW(Half) index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        if (header->p_type == PT_TLS && header->p_memsz >= sizeof(void *) && info->dlpi_tls_modid != 0) {
            *(size_t *)found = info->dlpi_tls_modid;
        }
    }
    return 1;
}

size_t logbook_observation_tls_module(void) {
    size_t module = 0;
    dl_iterate_phdr(find_observation, &module);
    return module;
}

void *logbook_observation_tls_load(size_t module) {
    logbook_tls_index index = {module, 0};
    void *const *slot = __tls_get_addr(&index);
    return slot != NULL ? *slot : NULL;
}

// This library's own thread-local variable: in an executable the linker turns its access into
// a load at a fixed offset from the thread pointer.
static __thread void *const *bound_slot;

int logbook_observation_scope(void) {
    void *const *slot = bound_slot;
    if (slot == NULL) return -1;
    return *slot != NULL;
}

void logbook_observation_bind(size_t module) {
    logbook_tls_index index = {module, 0};
    bound_slot = __tls_get_addr(&index);
}

#else

size_t logbook_observation_tls_module(void) { return 0; }

void *logbook_observation_tls_load(size_t module) {
    (void)module;
    return NULL;
}

int logbook_observation_scope(void) { return -1; }

void logbook_observation_bind(size_t module) { (void)module; }

#endif
