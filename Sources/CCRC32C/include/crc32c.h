#ifndef LOGBOOK_CRC32C_H
#define LOGBOOK_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/// Extends a CRC32C (Castagnoli) checksum over `length` bytes.
///
/// Start with `crc = 0`; feed the result of one call into the next to checksum data in pieces.
/// Uses the SSE4.2 `crc32` instruction when the processor has it, and slicing-by-8 otherwise.
uint32_t logbook_crc32c_extend(uint32_t crc, const void *data, size_t length);

/// The same checksum, always computed in software (slicing-by-8); for tests and measurement.
uint32_t logbook_crc32c_extend_software(uint32_t crc, const void *data, size_t length);

/// Whether `logbook_crc32c_extend` uses a hardware instruction on this machine.
int logbook_crc32c_is_hardware_accelerated(void);

#endif
