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

/// Whether a tracking scope runs on the calling thread, read through the address that
/// `logbook_observation_bind` kept for the thread: 1 when one does, 0 when none does, -1 when
/// the thread is not bound yet.
///
/// The address of a module's thread-local block does not change while the thread runs, so the
/// dynamic linker is asked for it once per thread instead of on every read of a model.
int logbook_observation_scope(void);

/// Keeps, for the calling thread, the address of the pointer `logbook_observation_tls_load`
/// reads from `module`.
void logbook_observation_bind(size_t module);

#endif
