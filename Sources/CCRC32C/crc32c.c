// CRC32C (Castagnoli, reflected polynomial 0x82F63B78), as used by iSCSI, ext4 and many logs.
#include "crc32c.h"

#include <pthread.h>
#include <string.h>

#define POLY 0x82F63B78u

static uint32_t table[8][256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void build_table(void) {
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t crc = n;
        for (int k = 0; k < 8; k++) {
            crc = (crc & 1) ? (crc >> 1) ^ POLY : crc >> 1;
        }
        table[0][n] = crc;
    }
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t crc = table[0][n];
        for (int k = 1; k < 8; k++) {
            crc = table[0][crc & 0xFF] ^ (crc >> 8);
            table[k][n] = crc;
        }
    }
}

uint32_t logbook_crc32c_extend_software(uint32_t crc, const void *data, size_t length) {
    pthread_once(&table_once, build_table);
    const unsigned char *p = data;
    crc = ~crc;
    while (length >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        word = __builtin_bswap64(word);
#endif
        word ^= crc;
        crc = table[7][word & 0xFF] ^ table[6][(word >> 8) & 0xFF] ^ table[5][(word >> 16) & 0xFF] ^
              table[4][(word >> 24) & 0xFF] ^ table[3][(word >> 32) & 0xFF] ^ table[2][(word >> 40) & 0xFF] ^
              table[1][(word >> 48) & 0xFF] ^ table[0][word >> 56];
        p += 8;
        length -= 8;
    }
    while (length--) {
        crc = table[0][(crc ^ *p++) & 0xFF] ^ (crc >> 8);
    }
    return ~crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2")))
static uint32_t extend_hardware(uint32_t crc, const void *data, size_t length) {
    const unsigned char *p = data;
    uint64_t c = ~crc;
    while (length >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        c = __builtin_ia32_crc32di(c, word);
        p += 8;
        length -= 8;
    }
    uint32_t c32 = (uint32_t)c;
    while (length--) {
        c32 = __builtin_ia32_crc32qi(c32, *p++);
    }
    return ~c32;
}

int logbook_crc32c_is_hardware_accelerated(void) {
    return __builtin_cpu_supports("sse4.2");
}

uint32_t logbook_crc32c_extend(uint32_t crc, const void *data, size_t length) {
    static int hardware = -1;
    int known = __atomic_load_n(&hardware, __ATOMIC_RELAXED);
    if (known < 0) {
        known = __builtin_cpu_supports("sse4.2") ? 1 : 0;
        __atomic_store_n(&hardware, known, __ATOMIC_RELAXED);
    }
    return known ? extend_hardware(crc, data, length) : logbook_crc32c_extend_software(crc, data, length);
}
#else
int logbook_crc32c_is_hardware_accelerated(void) { return 0; }

uint32_t logbook_crc32c_extend(uint32_t crc, const void *data, size_t length) {
    return logbook_crc32c_extend_software(crc, data, length);
}
#endif
