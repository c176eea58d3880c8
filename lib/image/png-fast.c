/* The fast PNG path: what `render` writes frames with by default.
 *
 * An LZ77 search is what makes deflate slow, and on rendered frames it
 * mostly finds runs: transparent areas, flat colour after a filter.  So
 * this path, after the published fast encoders' idea (fpnge, fpng),
 * searches nothing.  Each row gets the filter whose output has the
 * smallest sum of absolute (signed) bytes; the filtered bytes are coded
 * with one Huffman code built per image from a sample of its rows; a run
 * of zero bytes is a literal zero and distance-1 matches.  One dynamic
 * deflate block, written 64 bits at a time.  Any inflater reads it.
 *
 * The SIMD paths (png-fast-x86.c) filter rows and sum their costs exactly
 * as row_scalar does; the choice, the sample, the code and the bit packing
 * are the same code for every path, so every path gives the same bytes. */
#include "config.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

#include "image/png-fast.h"
#include "image/png-int.h"

/* ---- paths -------------------------------------------------------------- */

#if defined(__x86_64__)
#define HAVE_X86_PATHS 1
#else
#define HAVE_X86_PATHS 0
#endif

const char *bb__png_simd_name(bb__png_simd s)
{
	switch (s) {
	case BB__PNG_SSE4: return "sse4";
	case BB__PNG_AVX2: return "avx2";
	case BB__PNG_SCALAR:
	case BB__PNG_SIMD_COUNT:
		break;
	}
	return "scalar";
}

int bb__png_simd_available(bb__png_simd s)
{
	switch (s) {
	case BB__PNG_SCALAR:
		return 1;
	case BB__PNG_SSE4:
#if HAVE_X86_PATHS
		return __builtin_cpu_supports("sse4.1");
#else
		return 0;
#endif
	case BB__PNG_AVX2:
#if HAVE_X86_PATHS
		return __builtin_cpu_supports("avx2");
#else
		return 0;
#endif
	case BB__PNG_SIMD_COUNT:
		break;
	}
	return 0;
}

bb__png_simd bb__png_simd_default(void)
{
	const char *env = getenv("BONEBAKE_PNG_SIMD");
	int s;

	if (env)
		for (s = 0; s < BB__PNG_SIMD_COUNT; s++)
			if (strcmp(env, bb__png_simd_name((bb__png_simd)s)) == 0 &&
			    bb__png_simd_available((bb__png_simd)s))
				return (bb__png_simd)s;
	for (s = BB__PNG_SIMD_COUNT - 1; s > 0; s--)
		if (bb__png_simd_available((bb__png_simd)s))
			return (bb__png_simd)s;
	return BB__PNG_SCALAR;
}

/* ---- row filters ---------------------------------------------------------- */

/* A filtered byte's cost: its absolute value read as signed. */
static unsigned cost(uint8_t v)
{
	return v < 128 ? v : 256u - v;
}

/* Paeth's predictor without branches (see png-fast-x86.c for why pc
 * can be formed from pa and pb): the same value as bb__png_paeth. */
static inline unsigned paeth(unsigned a, unsigned b, unsigned c)
{
	unsigned pa = b > c ? b - c : c - b, pb = a > c ? a - c : c - a;
	unsigned pc = (b >= c) == (a >= c) ? pa + pb : pa > pb ? pa - pb : pb - pa;
	unsigned bc = pb <= pc ? b : c;

	return pa <= pb && pa <= pc ? a : bc;
}

/* One byte's five costs (x the byte, a left, b above, c above-left). */
static inline void add_costs(unsigned x, unsigned a, unsigned b, unsigned c,
                             uint32_t s[5])
{
	s[0] += cost((uint8_t)x);
	s[1] += cost((uint8_t)(x - a));
	s[2] += cost((uint8_t)(x - b));
	s[3] += cost((uint8_t)(x - ((a + b) >> 1)));
	s[4] += cost((uint8_t)(x - paeth(a, b, c)));
}

/* The costs of the 16 bytes at x (4 or more bytes into the row) added to
 * s, in a loop of fixed length that compilers turn into vector code on
 * any target (SSE2, NEON).  A lane gains at most 128 per call. */
static inline void add_costs16(const uint8_t *x, const uint8_t *b,
                               uint16_t s[5][16])
{
	int j;

	for (j = 0; j < 16; j++) {
		unsigned xv = x[j], av = x[j - 4], bv = b[j], cv = b[j - 4];

		s[0][j] = (uint16_t)(s[0][j] + cost((uint8_t)xv));
		s[1][j] = (uint16_t)(s[1][j] + cost((uint8_t)(xv - av)));
		s[2][j] = (uint16_t)(s[2][j] + cost((uint8_t)(xv - bv)));
		s[3][j] = (uint16_t)(s[3][j] + cost((uint8_t)(xv - ((av + bv) >> 1))));
		s[4][j] = (uint16_t)(s[4][j] + cost((uint8_t)(xv - paeth(av, bv, cv))));
	}
}

void bb__png_fast_costs(const uint8_t *x, const uint8_t *b, size_t from,
                        size_t to, uint64_t c[5])
{
	uint32_t s[5] = { 0, 0, 0, 0, 0 };
	uint16_t v[5][16];
	size_t i, blocks = 0;
	int t, j;

	for (i = from; i < to && i < 4; i++)
		add_costs(x[i], 0, b[i], 0, s);
	memset(v, 0, sizeof v);
	for (; i + 16 <= to; i += 16) {
		add_costs16(x + i, b + i, v);
		if (++blocks == 500) {          /* 500 x 128 < 2^16 per lane */
			for (t = 0; t < 5; t++)
				for (j = 0; j < 16; j++) {
					c[t] += v[t][j];
					v[t][j] = 0;
				}
			blocks = 0;
		}
	}
	for (t = 0; t < 5; t++)
		for (j = 0; j < 16; j++)
			c[t] += v[t][j];
	for (; i < to; i++)
		add_costs(x[i], x[i - 4], b[i], b[i - 4], s);
	for (t = 0; t < 5; t++)
		c[t] += s[t];
}

int bb__png_fast_pick(const uint64_t c[5])
{
	int t, best = 0;

	for (t = 1; t < 5; t++)
		if (c[t] < c[best])
			best = t;
	return best;
}

void bb__png_fast_put(const uint8_t *x, const uint8_t *b, size_t from,
                      size_t to, int type, uint8_t *d)
{
	size_t i = from;

	/* the first pixel: no left neighbours */
	for (; i < to && i < 4; i++)
		d[i] = (uint8_t)(x[i] - (type == 2 || type == 4 ? b[i] :
		                         type == 3 ? b[i] >> 1 : 0));
	switch (type) {
	case 1:
		for (; i < to; i++)
			d[i] = (uint8_t)(x[i] - x[i - 4]);
		break;
	case 2:
		for (; i < to; i++)
			d[i] = (uint8_t)(x[i] - b[i]);
		break;
	case 3:
		for (; i < to; i++)
			d[i] = (uint8_t)(x[i] - ((x[i - 4] + b[i]) >> 1));
		break;
	case 4:
		for (; i < to; i++)
			d[i] = (uint8_t)(x[i] - paeth(x[i - 4], b[i], b[i - 4]));
		break;
	default:
		memcpy(d + i, x + i, to > i ? to - i : 0);
		break;
	}
}

static void row_scalar(const uint8_t *x, const uint8_t *b, size_t n,
                       uint8_t *d)
{
	uint64_t c[5] = { 0, 0, 0, 0, 0 };

	bb__png_fast_costs(x, b, 0, n, c);
	d[0] = (uint8_t)bb__png_fast_pick(c);
	bb__png_fast_put(x, b, 0, n, d[0], d + 1);
}

void bb__png_fast_filter(bb__png_simd s, const uint8_t *px, size_t stride,
                         size_t n, size_t h, const uint8_t *zero,
                         uint8_t *raw)
{
	void (*row)(const uint8_t *, const uint8_t *, size_t, uint8_t *) = row_scalar;
	size_t y;

#if HAVE_X86_PATHS
	if (s == BB__PNG_AVX2)
		row = bb__png_fast_row_avx2;
	else if (s == BB__PNG_SSE4)
		row = bb__png_fast_row_sse4;
#else
	(void)s;
#endif
	for (y = 0; y < h; y++)
		row(px + y * stride, y ? px + (y - 1) * stride : zero, n,
		    raw + y * (n + 1));
}

/* ---- Huffman codes (RFC 1951 3.2.2) ----------------------------------------- */

enum {
	NLIT = 286,         /* literals, end of block, lengths 3..258 */
	NCL = 19,           /* code length alphabet */
	MAX_BITS = 15,
	MAX_CL_BITS = 7,
	RUN_MIN = 3,        /* shortest zero run taken as a match after its literal */
	MATCH_MAX = 258
};

typedef struct sym_freq {
	uint32_t f;
	uint16_t s;
} sym_freq;

static int by_freq(const void *pa, const void *pb)
{
	const sym_freq *a = pa, *b = pb;

	if (a->f != b->f)
		return a->f < b->f ? -1 : 1;
	return a->s < b->s ? -1 : a->s > b->s;
}

/* Code lengths of at most `limit` bits for the n symbols of freq (each at
 * least 1): Huffman's, with the counts halved until the longest fits. */
static void huff_lengths(const uint32_t *freq, int n, int limit, uint8_t *len)
{
	sym_freq leaf[NLIT];
	uint32_t f[NLIT], w[2 * NLIT];
	int parent[2 * NLIT], depth[2 * NLIT];
	int i, max;

	for (i = 0; i < n; i++)
		f[i] = freq[i];
	for (;;) {
		int li = 0, ni = n, nn = n, k;

		for (i = 0; i < n; i++) {
			leaf[i].f = f[i];
			leaf[i].s = (uint16_t)i;
		}
		qsort(leaf, (size_t)n, sizeof *leaf, by_freq);
		for (i = 0; i < n; i++)
			w[i] = leaf[i].f;
		/* two queues: the sorted leaves (0..n-1) and the internal nodes
		 * (n..), made in increasing weight */
		for (k = 0; k < n - 1; k++) {
			int pick[2], j;

			for (j = 0; j < 2; j++) {
				if (li < n && (ni >= nn || w[li] <= w[ni]))
					pick[j] = li++;
				else
					pick[j] = ni++;
			}
			w[nn] = w[pick[0]] + w[pick[1]];
			parent[pick[0]] = parent[pick[1]] = nn;
			nn++;
		}
		depth[nn - 1] = 0;
		for (i = nn - 2; i >= 0; i--)
			depth[i] = depth[parent[i]] + 1;
		max = 0;
		for (i = 0; i < n; i++) {
			len[leaf[i].s] = (uint8_t)(n == 1 ? 1 : depth[i]);
			if (len[leaf[i].s] > max)
				max = len[leaf[i].s];
		}
		if (max <= limit)
			return;
		for (i = 0; i < n; i++)
			f[i] = (f[i] >> 1) + 1;
	}
}

/* Canonical codes for lengths len[0..n-1], bit-reversed for writing
 * least significant bit first. */
static void huff_codes(const uint8_t *len, int n, uint16_t *code)
{
	uint16_t count[MAX_BITS + 1] = { 0 }, next[MAX_BITS + 1];
	unsigned c = 0;
	int i, b;

	for (i = 0; i < n; i++)
		count[len[i]]++;
	count[0] = 0;
	for (b = 1; b <= MAX_BITS; b++) {
		c = (c + count[b - 1]) << 1;
		next[b] = (uint16_t)c;
	}
	for (i = 0; i < n; i++) {
		unsigned v = len[i] ? next[len[i]]++ : 0, r = 0;

		for (b = 0; b < len[i]; b++)
			r |= ((v >> b) & 1u) << (len[i] - 1 - b);
		code[i] = (uint16_t)r;
	}
}

/* ---- the stream ------------------------------------------------------------ */

/* Length symbol of a match length 3..258: RFC 1951 3.2.5. */
static const uint16_t len_base[29] = {
	3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
	35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258
};
static const uint8_t len_extra[29] = {
	0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
	3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0
};

static int len_symbol(unsigned l)
{
	int k = 28;

	while (len_base[k] > l)
		k--;
	return k;
}

static uint32_t load32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* Zero bytes from p (p[0..3] are) up to end. */
static inline size_t zero_run(const uint8_t *p, const uint8_t *end)
{
	const uint8_t *q = p + 4;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while (end - q >= 8) {
		uint64_t v;

		memcpy(&v, q, 8);
		if (v)
			return (size_t)(q - p) + (size_t)(__builtin_ctzll(v) >> 3);
		q += 8;
	}
#endif
	while (q < end && !*q)
		q++;
	return (size_t)(q - p);
}

/* How bytes become symbols (count_bytes counts what put_bytes writes):
 * where four zero bytes start, the run of zeros is one literal zero and
 * distance-1 matches of 258 bytes, then one of the rest (1 or 2 left:
 * literal zeros); any other byte is its literal. */
static void count_bytes(const uint8_t *p, const uint8_t *end, uint32_t *freq)
{
	const uint8_t *stop = end - (end - p < 3 ? end - p : 3);

	while (p < end) {
		size_t r;

		if (p >= stop || load32(p) != 0) {
			freq[*p++]++;
			continue;
		}
		r = zero_run(p, end) - 1;
		p += r + 1;
		freq[0]++;
		for (; r >= MATCH_MAX; r -= MATCH_MAX)
			freq[257 + len_symbol(MATCH_MAX)]++;
		if (r >= RUN_MIN)
			freq[257 + len_symbol((unsigned)r)]++;
		else
			freq[0] += (uint32_t)r;
	}
}

typedef struct bits {
	uint8_t *out;
	uint64_t buf;
	unsigned n;       /* bits in buf: < 8 after a flush, and at most 30
	                     bits are put between flushes, so n < 64 */
} bits;

static inline void put(bits *w, uint32_t v, unsigned n)
{
	w->buf |= (uint64_t)v << w->n;
	w->n += n;
}

/* Writes the whole bytes of buf (8 bytes are stored: out has room). */
static inline void flush(bits *w)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(w->out, &w->buf, 8);
#else
	int i;

	for (i = 0; i < 8; i++)
		w->out[i] = (uint8_t)(w->buf >> (8 * i));
#endif
	w->out += w->n >> 3;
	w->buf >>= w->n & ~7u;
	w->n &= 7;
}

/* Writes bytes p..end with the literal codes lit (code | length << 16)
 * and the match codes match[l] for lengths l = RUN_MIN..258 (the length
 * code, its extra bits and the distance code: code | length << 24). */
static void put_bytes(bits *w, const uint8_t *p, const uint8_t *end,
                      const uint32_t *lit, const uint32_t *match)
{
	const uint8_t *stop = end - (end - p < 3 ? end - p : 3);

	while (p < end) {
		size_t r;

		if (p >= stop || load32(p) != 0) {
			uint32_t e = lit[*p++];

			put(w, e & 0xffff, e >> 16);
			flush(w);
			continue;
		}
		r = zero_run(p, end) - 1;
		p += r + 1;
		put(w, lit[0] & 0xffff, lit[0] >> 16);
		flush(w);
		for (; r >= MATCH_MAX; r -= MATCH_MAX) {
			put(w, match[MATCH_MAX] & 0xffffff, match[MATCH_MAX] >> 24);
			flush(w);
		}
		if (r >= RUN_MIN) {
			put(w, match[r] & 0xffffff, match[r] >> 24);
		} else {
			for (; r > 0; r--)
				put(w, lit[0] & 0xffff, lit[0] >> 16);
		}
		flush(w);
	}
}

/* The block header's code lengths (HLIT lengths, then two distance codes
 * of one bit: distance 1 and an unused one, so the code is complete), in
 * the code length alphabet with repeats (16). */
static void put_header(bits *w, const uint8_t *lit_len)
{
	static const uint8_t order[NCL] = {
		16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15
	};
	uint8_t seq[NLIT + 2], sym[NLIT + 2], extra[NLIT + 2];
	uint8_t cl_len[NCL];
	uint16_t cl_code[NCL];
	uint32_t cl_freq[NCL];
	int n = NLIT + 2, ns = 0, i, k, hclen;

	memcpy(seq, lit_len, NLIT);
	seq[NLIT] = seq[NLIT + 1] = 1;
	for (i = 0; i < n;) {
		int run = 1;

		sym[ns] = seq[i];
		extra[ns++] = 0;
		while (i + run < n && seq[i + run] == seq[i])
			run++;
		i += run;
		for (run--; run >= 3; run -= k) {
			k = run < 6 ? run : 6;
			sym[ns] = 16;
			extra[ns++] = (uint8_t)(k - 3);
		}
		for (; run > 0; run--) {
			sym[ns] = seq[i - 1];
			extra[ns++] = 0;
		}
	}
	for (k = 0; k < NCL; k++)
		cl_freq[k] = 1;
	for (i = 0; i < ns; i++)
		cl_freq[sym[i]]++;
	huff_lengths(cl_freq, NCL, MAX_CL_BITS, cl_len);
	huff_codes(cl_len, NCL, cl_code);
	for (hclen = NCL; hclen > 4 && cl_len[order[hclen - 1]] == 0; hclen--)
		;
	put(w, 1, 1);                        /* BFINAL */
	put(w, 2, 2);                        /* dynamic Huffman */
	put(w, NLIT - 257, 5);
	put(w, 2 - 1, 5);
	put(w, (uint32_t)(hclen - 4), 4);
	flush(w);
	for (k = 0; k < hclen; k++) {
		put(w, cl_len[order[k]], 3);
		flush(w);
	}
	for (i = 0; i < ns; i++) {
		put(w, cl_code[sym[i]], cl_len[sym[i]]);
		if (sym[i] == 16)
			put(w, extra[i], 2);
		flush(w);
	}
}

size_t bb__png_fast_bound(size_t size)
{
	/* a byte is at most one 15-bit literal; the header is < 400 bytes */
	if (size > (SIZE_MAX - 1024) / 2)
		return 0;
	return 2 * size + 1024;
}

size_t bb__png_fast_zlib(const uint8_t *raw, size_t size, size_t row,
                         uint8_t *out)
{
	uint32_t freq[NLIT], lit[256], match[MATCH_MAX + 1];
	uint8_t len[NLIT];
	uint16_t code[NLIT];
	size_t rows = size / row, step, y;
	uint32_t adler;
	bits w;
	unsigned l;
	int i;

	/* the code from about an eighth of the rows (all of a small image),
	 * each symbol counted at least once so every byte has a code */
	step = rows / 64;
	step = step < 1 ? 1 : step > 8 ? 8 : step;
	for (i = 0; i < NLIT; i++)
		freq[i] = 1;
	for (y = step / 2; y < rows; y += step)
		count_bytes(raw + y * row, raw + (y + 1) * row, freq);
	huff_lengths(freq, NLIT, MAX_BITS, len);
	huff_codes(len, NLIT, code);
	for (i = 0; i < 256; i++)
		lit[i] = code[i] | (uint32_t)len[i] << 16;
	for (l = RUN_MIN; l <= MATCH_MAX; l++) {
		int k = len_symbol(l);
		unsigned s = 257 + (unsigned)k, n = len[s];
		uint32_t v = code[s] | (l - len_base[k]) << n;

		/* then distance code 0 (distance 1): one 0 bit */
		match[l] = v | (n + len_extra[k] + 1u) << 24;
	}

	out[0] = 0x78;                       /* deflate, 32 KiB window */
	out[1] = 0x01;                       /* (0x7801 % 31 == 0) */
	w.out = out + 2;
	w.buf = 0;
	w.n = 0;
	put_header(&w, len);
	put_bytes(&w, raw, raw + size, lit, match);
	put(&w, code[256], len[256]);
	flush(&w);
	if (w.n) {
		w.n = 8;
		flush(&w);
	}
	adler = libdeflate_adler32(1, raw, size);
	w.out[0] = (uint8_t)(adler >> 24);
	w.out[1] = (uint8_t)(adler >> 16);
	w.out[2] = (uint8_t)(adler >> 8);
	w.out[3] = (uint8_t)adler;
	return (size_t)(w.out + 4 - out);
}
