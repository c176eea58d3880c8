/* The fast PNG path (png-fast.c, png-fast-x86.c): row filters chosen per
 * row, then one deflate block of Huffman-coded bytes in which runs of zero
 * bytes are distance-1 matches, with a code built per image from a sample
 * of its rows.  Internal to lib/image; not installed.
 *
 * Every path (scalar, SSE4.1, AVX2) gives the same bytes: the SIMD code
 * only filters rows and sums the row costs, exactly, and the choice and
 * the coding are shared. */
#ifndef BB_PNG_FAST_H
#define BB_PNG_FAST_H

#include <stddef.h>
#include <stdint.h>

typedef enum bb__png_simd {
	BB__PNG_SCALAR = 0,
	BB__PNG_SSE4,
	BB__PNG_AVX2,
	BB__PNG_SIMD_COUNT
} bb__png_simd;

/* 1 when this machine (CPU and build) runs path s.  Thread-safe. */
int bb__png_simd_available(bb__png_simd s);
/* The path encoders take: BONEBAKE_PNG_SIMD=scalar|sse4|avx2 when set to
 * a path that is available, else the best available.  Thread-safe. */
bb__png_simd bb__png_simd_default(void);
/* "scalar", "sse4", "avx2". */
const char *bb__png_simd_name(bb__png_simd s);

/* Filters h rows of n = 4 * width bytes (the first at px, `stride` bytes
 * apart) into raw: per row its filter type byte, then n filtered bytes.
 * `zero` is n zero bytes, the first row's prior row. */
void bb__png_fast_filter(bb__png_simd s, const uint8_t *px, size_t stride,
                         size_t n, size_t h, const uint8_t *zero,
                         uint8_t *raw);

/* Bytes bb__png_fast_zlib may write for size bytes of filtered rows; 0
 * when that overflows. */
size_t bb__png_fast_bound(size_t size);
/* The zlib stream of raw (size bytes, rows of `row` bytes type byte
 * included) into out (bb__png_fast_bound bytes); returns its length. */
size_t bb__png_fast_zlib(const uint8_t *raw, size_t size, size_t row,
                         uint8_t *out);

/* The scalar pieces of a row filter, shared by every path.  Row x (prior
 * row b) of n bytes: byte i's predictor is 0 (None), x[i-4] (Sub), b[i]
 * (Up), their floored mean (Average) or Paeth's, with x[i-4] = b[i-4] = 0
 * for i < 4.  costs adds to c[t], for bytes from..to-1, the absolute value
 * of (x[i] - predictor) read as a signed byte; pick returns the type with
 * the smallest sum, the first on ties; put writes bytes from..to-1 of the
 * row filtered with type into d (d[i], no type byte). */
void bb__png_fast_costs(const uint8_t *x, const uint8_t *b, size_t from,
                        size_t to, uint64_t c[5]);
int bb__png_fast_pick(const uint64_t c[5]);
void bb__png_fast_put(const uint8_t *x, const uint8_t *b, size_t from,
                      size_t to, int type, uint8_t *d);

/* The SIMD paths' row filters (png-fast-x86.c): as the scalar one in
 * png-fast.c, for one row x (prior row b) of n bytes into d (type byte
 * first). */
void bb__png_fast_row_sse4(const uint8_t *x, const uint8_t *b, size_t n,
                           uint8_t *d);
void bb__png_fast_row_avx2(const uint8_t *x, const uint8_t *b, size_t n,
                           uint8_t *d);

#endif
