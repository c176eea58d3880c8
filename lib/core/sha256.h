/* SHA-256 (FIPS 180-4).  Library-internal. */
#ifndef BB_CORE_SHA256_H
#define BB_CORE_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct bb__sha256 {
	uint32_t h[8];
	uint64_t len;
	uint8_t buf[64];
	size_t fill;
} bb__sha256;

void bb__sha256_init(bb__sha256 *c);
void bb__sha256_update(bb__sha256 *c, const void *data, size_t n);
void bb__sha256_final(bb__sha256 *c, uint8_t out[32]);
/* 64 lowercase hex digits and a NUL. */
void bb__sha256_hex(const uint8_t digest[32], char out[65]);

#endif
