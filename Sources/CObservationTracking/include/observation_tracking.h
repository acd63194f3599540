#ifndef LOGBOOK_OBSERVATION_TRACKING_H
#define LOGBOOK_OBSERVATION_TRACKING_H

#include <stddef.h>

/// The thread-local storage module of the Swift runtime's Observation library
/// (`libswiftObservation.so`), or 0 where it cannot be found: another platform or C library, a
/// statically linked runtime, a library without thread-local storage.
///
/// Observation keeps one pointer in that block: the access list of the innermost
/// `withObservationTracking` running on the thread, or NULL outside of one. Nothing here
/// assumes that; the Swift side checks it once per process before relying on it.
size_t logbook_observation_tls_module(void);

/// The pointer at the start of the calling thread's block of thread-local storage `module`,
/// which must be a module `logbook_observation_tls_module` returned.
void *logbook_observation_tls_load(size_t module);

#endif
