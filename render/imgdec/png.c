// A PNG decoder for the common case of glTF textures: non-interlaced,
// 8 bits a sample (or 1, 2, 4 for grey and palette), straight to RGBA8.
// It inflates all the image data in one call with libdeflate, which is
// 2-3 times faster than zlib's streaming inflate libspng uses, into the
// output buffer itself (no second image-sized buffer to fault in), then
// unfilters row by row into a small row buffer that stays in cache and
// expands each row to RGBA in place. Anything else is left to libspng.
//
// Every chunk's CRC is checked (libdeflate's crc32 is fast enough not to
// matter) and so is the zlib stream's Adler-32 (libdeflate always checks
// it): a damaged file is an error here and goes on to libspng, which
// decides as before.

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <libdeflate.h>

#include "cdec.h"

#define CHUNK(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

static uint32_t be32(const unsigned char *p) {
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static unsigned be16(const unsigned char *p) {
	return (unsigned)p[0] << 8 | p[1];
}

// png is what the chunks say about the image.
struct png {
	uint32_t w, h;
	int depth, ctype, channels;
	int nplte;                  // palette entries (colour type 3)
	unsigned char plte[256][4]; // RGBA, alpha from tRNS
	int haskey;                 // tRNS gives a transparent grey or RGB value
	unsigned key[3];
	const unsigned char *idat;  // the first IDAT chunk (its length field)
	size_t zlen;                // bytes of image data in all IDATs
	int nidat;
};

// parse reads the chunks up to IEND.
static int parse(const unsigned char *data, size_t len, int maxSide, struct png *p) {
	static const unsigned char sig[8] = {137, 'P', 'N', 'G', '\r', '\n', 26, '\n'};
	if (len < 8 || memcmp(data, sig, 8) != 0) return FASTPNG_ESIGNATURE;
	size_t pos = 8;
	int seenPLTE = 0, seenTRNS = 0;
	int idat = 0; // 0 before the IDATs, 1 among them, 2 after them
	for (int first = 1;; first = 0) {
		if (len - pos < 12) return FASTPNG_ETRUNCATED;
		uint32_t n = be32(data + pos);
		if (n > 0x7fffffff || n > len - pos - 12) return FASTPNG_ETRUNCATED;
		const unsigned char *type = data + pos + 4, *body = data + pos + 8;
		if (libdeflate_crc32(0, type, 4 + (size_t)n) != be32(body + n)) return FASTPNG_ECRC;
		uint32_t t = be32(type);
		const unsigned char *chunk = data + pos;
		pos += 12 + (size_t)n;
		if (first) {
			if (t != CHUNK('I', 'H', 'D', 'R') || n != 13) return FASTPNG_EIHDR;
			p->w = be32(body);
			p->h = be32(body + 4);
			p->depth = body[8];
			p->ctype = body[9];
			if (p->w == 0 || p->h == 0 || p->w > 0x7fffffff || p->h > 0x7fffffff) return FASTPNG_EIHDR;
			if (body[10] != 0 || body[11] != 0 || body[12] > 1) return FASTPNG_EIHDR;
			int d = p->depth;
			switch (p->ctype) {
			case 0: p->channels = 1; if (d != 1 && d != 2 && d != 4 && d != 8 && d != 16) return FASTPNG_EIHDR; break;
			case 2: p->channels = 3; if (d != 8 && d != 16) return FASTPNG_EIHDR; break;
			case 3: p->channels = 1; if (d != 1 && d != 2 && d != 4 && d != 8) return FASTPNG_EIHDR; break;
			case 4: p->channels = 2; if (d != 8 && d != 16) return FASTPNG_EIHDR; break;
			case 6: p->channels = 4; if (d != 8 && d != 16) return FASTPNG_EIHDR; break;
			default: return FASTPNG_EIHDR;
			}
			if (p->w > (uint32_t)maxSide || p->h > (uint32_t)maxSide) return FASTPNG_ETOOBIG;
			if (d == 16 || body[12] == 1) return FASTPNG_UNSUPPORTED;
			continue;
		}
		if (idat == 1 && t != CHUNK('I', 'D', 'A', 'T')) idat = 2;
		switch (t) {
		case CHUNK('P', 'L', 'T', 'E'):
			if (seenPLTE || idat || seenTRNS) return FASTPNG_EPLTE;
			seenPLTE = 1;
			if (n == 0 || n % 3 != 0 || n / 3 > 256 || p->ctype == 0 || p->ctype == 4) return FASTPNG_EPLTE;
			if (p->ctype != 3) break; // a suggested palette for a true-colour image
			if (n / 3 > 1u << p->depth) return FASTPNG_EPLTE;
			p->nplte = n / 3;
			for (int i = 0; i < p->nplte; i++) {
				memcpy(p->plte[i], body + 3 * i, 3);
				p->plte[i][3] = 255;
			}
			break;
		case CHUNK('t', 'R', 'N', 'S'):
			if (seenTRNS || idat) return FASTPNG_ETRNS;
			seenTRNS = 1;
			switch (p->ctype) {
			case 0:
				if (n != 2) return FASTPNG_ETRNS;
				p->key[0] = be16(body);
				// A key no sample can have: libspng decides what it means.
				if (p->key[0] >= 1u << p->depth) return FASTPNG_UNSUPPORTED;
				p->haskey = 1;
				break;
			case 2:
				if (n != 6) return FASTPNG_ETRNS;
				for (int i = 0; i < 3; i++) {
					p->key[i] = be16(body + 2 * i);
					if (p->key[i] > 255) return FASTPNG_UNSUPPORTED;
				}
				p->haskey = 1;
				break;
			case 3:
				if (!seenPLTE || n > (uint32_t)p->nplte) return FASTPNG_ETRNS;
				for (uint32_t i = 0; i < n; i++) p->plte[i][3] = body[i];
				break;
			default:
				return FASTPNG_ETRNS;
			}
			break;
		case CHUNK('I', 'D', 'A', 'T'):
			if (idat == 2) return FASTPNG_ECHUNK; // IDATs must be consecutive
			if (p->ctype == 3 && !seenPLTE) return FASTPNG_EPLTE;
			if (idat == 0) p->idat = chunk;
			idat = 1;
			p->zlen += n;
			p->nidat++;
			break;
		case CHUNK('I', 'E', 'N', 'D'):
			return idat ? 0 : FASTPNG_ENOIDAT;
		case CHUNK('I', 'H', 'D', 'R'):
			return FASTPNG_ECHUNK;
		default:
			// Ancillary chunks (lower-case first letter) are skipped;
			// an unknown critical one is an error.
			if (!(type[0] & 0x20)) return FASTPNG_ECHUNK;
		}
	}
}

// paeth is the Paeth predictor written as the spec gives it: a (left),
// b (above) or c (above left), whichever is nearest a + b - c, ties in
// that order.
static inline int paeth(int a, int b, int c) {
	int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
	if (pa <= pb && pa <= pc) return a;
	return pb <= pc ? b : c;
}

// unfilter undoes a row's filter f into cur from in and the previous row
// prev. cur and prev have bpp zero bytes before them, the left neighbours
// of the first pixel. Inlined with a constant bpp, the loops are
// specialised per pixel size.
static inline __attribute__((always_inline)) int unfilter(int f, unsigned char *restrict cur, const unsigned char *restrict in,
							  const unsigned char *restrict prev, size_t n, const int bpp) {
	switch (f) {
	case 0:
		memcpy(cur, in, n);
		return 0;
	case 1:
		for (size_t i = 0; i < n; i++) cur[i] = in[i] + cur[i - bpp];
		return 0;
	case 2:
		for (size_t i = 0; i < n; i++) cur[i] = in[i] + prev[i];
		return 0;
	case 3:
		for (size_t i = 0; i < n; i++) cur[i] = in[i] + ((cur[i - bpp] + prev[i]) >> 1);
		return 0;
	case 4:
		// Paeth dominates the time of photographic textures: the left
		// pixel is carried in registers, not reloaded from cur, so each
		// channel's chain is only the predictor's arithmetic.
		if (bpp >= 3) {
			int a[4] = {0, 0, 0, 0}, c[4] = {0, 0, 0, 0};
			for (size_t i = 0; i < n; i += bpp) {
				for (int k = 0; k < bpp; k++) {
					int b = prev[i + k];
					a[k] = (unsigned char)(in[i + k] + paeth(a[k], b, c[k]));
					cur[i + k] = (unsigned char)a[k];
					c[k] = b;
				}
			}
		} else {
			for (size_t i = 0; i < n; i++) cur[i] = in[i] + paeth(cur[i - bpp], prev[i], prev[i - bpp]);
		}
		return 0;
	}
	return FASTPNG_EFILTER;
}

#ifdef __SSE2__
#include <emmintrin.h>

// The SSE2 versions of Sub, Average and Paeth for 3 and 4 bytes a pixel
// work on a whole pixel at a time (Paeth in 16-bit lanes), so that the
// chain from one pixel to the next is one pixel's arithmetic instead of
// three or four bytes' through memory. Loads and stores of 3-byte pixels
// move 4 bytes where there is room after the pixel: always in the row
// buffers (cur and prev), in the inflated image (in) for all but the
// last pixel of the row.

// load3 builds the pixel in a register: copying 3 bytes to memory and
// loading 4 would stall on store forwarding.
static inline __m128i load3(const unsigned char *p) {
	uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
	return _mm_cvtsi32_si128((int)v);
}

static inline __m128i load4(const unsigned char *p) {
	uint32_t v;
	memcpy(&v, p, 4);
	return _mm_cvtsi32_si128((int)v);
}

static inline void store4(unsigned char *p, __m128i v) {
	uint32_t x = (uint32_t)_mm_cvtsi128_si32(v);
	memcpy(p, &x, 4);
}

static inline __attribute__((always_inline)) int unfilterSSE2(int f, unsigned char *restrict cur, const unsigned char *restrict in,
							      const unsigned char *restrict prev, size_t n, const int bpp) {
	const __m128i zero = _mm_setzero_si128(), one = _mm_set1_epi8(1);
	__m128i a = zero, c = zero;
	switch (f) {
	case 1:
		for (size_t i = 0; i < n; i += bpp) {
			a = _mm_add_epi8(bpp == 4 || i + 3 < n ? load4(in + i) : load3(in + i), a);
			store4(cur + i, a);
		}
		return 0;
	case 3:
		for (size_t i = 0; i < n; i += bpp) {
			__m128i b = load4(prev + i);
			// _mm_avg_epu8 rounds up; the filter rounds down.
			__m128i avg = _mm_sub_epi8(_mm_avg_epu8(a, b), _mm_and_si128(_mm_xor_si128(a, b), one));
			a = _mm_add_epi8(bpp == 4 || i + 3 < n ? load4(in + i) : load3(in + i), avg);
			store4(cur + i, a);
		}
		return 0;
	case 4:
		// a, b and c in 16-bit lanes, where a + b - c cannot overflow.
		for (size_t i = 0; i < n; i += bpp) {
			__m128i b = _mm_unpacklo_epi8(load4(prev + i), zero);
			__m128i pa = _mm_sub_epi16(b, c);  // p - a
			__m128i pb = _mm_sub_epi16(a, c);  // p - b
			__m128i pc = _mm_add_epi16(pa, pb); // p - c
			pa = _mm_max_epi16(pa, _mm_sub_epi16(zero, pa));
			pb = _mm_max_epi16(pb, _mm_sub_epi16(zero, pb));
			pc = _mm_max_epi16(pc, _mm_sub_epi16(zero, pc));
			__m128i least = _mm_min_epi16(pc, _mm_min_epi16(pa, pb));
			// Ties go to a, then b, then c.
			__m128i isa = _mm_cmpeq_epi16(least, pa), isb = _mm_cmpeq_epi16(least, pb);
			__m128i bc = _mm_or_si128(_mm_and_si128(isb, b), _mm_andnot_si128(isb, c));
			__m128i pred = _mm_or_si128(_mm_and_si128(isa, a), _mm_andnot_si128(isa, bc));
			__m128i d = _mm_add_epi8(bpp == 4 || i + 3 < n ? load4(in + i) : load3(in + i), _mm_packus_epi16(pred, pred));
			store4(cur + i, d);
			a = _mm_unpacklo_epi8(d, zero);
			c = b;
		}
		return 0;
	}
	return unfilter(f, cur, in, prev, n, bpp);
}
#endif

// unfilterRow picks the loops for the pixel size. cur and prev must have
// 8 bytes of room after the row.
static int unfilterRow(int f, unsigned char *cur, const unsigned char *in, const unsigned char *prev, size_t n, int bpp) {
	switch (bpp) {
	case 1: return unfilter(f, cur, in, prev, n, 1);
	case 2: return unfilter(f, cur, in, prev, n, 2);
#ifdef __SSE2__
	case 3: return unfilterSSE2(f, cur, in, prev, n, 3);
	default: return unfilterSSE2(f, cur, in, prev, n, 4);
#else
	case 3: return unfilter(f, cur, in, prev, n, 3);
	default: return unfilter(f, cur, in, prev, n, 4);
#endif
	}
}

// The places of R, G, B and A in a 32-bit word read from RGBA bytes.
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
enum { R_SHIFT = 24, G_SHIFT = 16, B_SHIFT = 8, ALPHA_SHIFT = 0 };
#else
enum { R_SHIFT = 0, G_SHIFT = 8, B_SHIFT = 16, ALPHA_SHIFT = 24 };
#endif

// expand writes one unfiltered row as RGBA8. row must have room for a
// byte after it.
static int expand(const struct png *p, const unsigned char *row, unsigned char *out) {
	uint32_t w = p->w;
	switch (p->ctype) {
	case 6:
		memcpy(out, row, 4 * (size_t)w);
		return 0;
	case 2: {
		// Pixel by pixel as a 32-bit word (the row buffer has room for
		// the fourth byte read after the last pixel): the compiler's
		// vectorisation of the byte loop shuffles through the stack.
		const uint32_t alpha = 0xffu << ALPHA_SHIFT, rgb = ~alpha;
		uint32_t key = p->haskey ? (uint32_t)p->key[0] << R_SHIFT | (uint32_t)p->key[1] << G_SHIFT | (uint32_t)p->key[2] << B_SHIFT : 0;
		for (uint32_t x = 0; x < w; x++, row += 3, out += 4) {
			uint32_t v;
			memcpy(&v, row, 4);
			v &= rgb;
			v |= p->haskey && v == key ? 0 : alpha;
			memcpy(out, &v, 4);
		}
		return 0;
	}
	case 4:
		for (uint32_t x = 0; x < w; x++, row += 2, out += 4) {
			out[0] = out[1] = out[2] = row[0];
			out[3] = row[1];
		}
		return 0;
	}
	// Grey or palette, 1 to 8 bits a pixel.
	int d = p->depth;
	unsigned mask = (1u << d) - 1, scale = 255 / mask;
	for (uint32_t x = 0; x < w; x++, out += 4) {
		size_t bit = (size_t)x * d;
		unsigned v = (row[bit / 8] >> (8 - d - bit % 8)) & mask;
		if (p->ctype == 3) {
			if ((int)v >= p->nplte) return FASTPNG_EINDEX;
			memcpy(out, p->plte[v], 4);
		} else {
			out[0] = out[1] = out[2] = (unsigned char)(v * scale);
			out[3] = p->haskey && v == p->key[0] ? 0 : 255;
		}
	}
	return 0;
}

// inflate checks the zlib stream of p's image data and inflates it into
// dst (filtered bytes), joining the IDATs first in *scratch when there are
// several (scratch, of *scratchSize bytes, is grown from pixels() as
// needed and left to the caller).
static int inflate(const struct png *p, unsigned char *dst, size_t filtered, unsigned char **scratch, size_t *scratchSize, size_t at) {
	const unsigned char *z = p->idat + 8;
	if (p->nidat > 1) {
		if (*scratchSize < at + p->zlen + 1) {
			// From pixels, not malloc, whose arenas would keep a few
			// megabytes per decoding thread after free (+ 1: mmap
			// refuses 0 bytes).
			unsigned char *b = pixels(at + p->zlen + 1);
			if (!b) return FASTPNG_ENOMEM;
			pixfree(*scratch, *scratchSize);
			*scratch = b;
			*scratchSize = at + p->zlen + 1;
			if (at) dst = b; // the caller's dst was the old scratch
		}
		unsigned char *joined = *scratch + at;
		size_t off = 0;
		for (const unsigned char *c = p->idat; off < p->zlen;) {
			uint32_t n = be32(c);
			memcpy(joined + off, c + 8, n);
			off += n;
			c += 12 + (size_t)n;
		}
		z = joined;
	}
	struct libdeflate_decompressor *dec = libdeflate_alloc_decompressor();
	if (!dec) return FASTPNG_ENOMEM;
	enum libdeflate_result r = libdeflate_zlib_decompress(dec, z, p->zlen, dst, filtered, NULL);
	libdeflate_free_decompressor(dec);
	if (r == LIBDEFLATE_SHORT_OUTPUT || r == LIBDEFLATE_INSUFFICIENT_SPACE) return FASTPNG_ESIZE;
	if (r != LIBDEFLATE_SUCCESS) return FASTPNG_EZLIB;
	return 0;
}

int fastpng_decode(const unsigned char *data, size_t len, int maxSide, unsigned char **out, size_t *size, int *w, int *h) {
	struct png p;
	memset(&p, 0, sizeof p);
	int rc = parse(data, len, maxSide, &p);
	if (rc) return rc;

	size_t bits = (size_t)p.depth * p.channels;
	int bpp = bits >= 8 ? (int)(bits / 8) : 1;
	size_t rowbytes = ((size_t)p.w * bits + 7) / 8, stride = 1 + rowbytes;
	size_t filtered = stride * p.h, outsize = (size_t)4 * p.w * p.h;
	// The filtered rows are inflated into the end of the output buffer
	// and row y of RGBA is written only after filtered row y was read:
	// the write never reaches filtered row y+1, since a filtered row is
	// at most one byte longer than an RGBA one and the buffer is large
	// enough for both.
	size_t alloc = filtered > outsize ? filtered : outsize;

	unsigned char *joined = NULL;
	size_t joinedSize = 0;
	unsigned char *buf = pixels(alloc);
	// Two rows, each after 8 zero bytes (the left neighbours of the
	// first pixel; 8 keeps the rows aligned) and before 8 bytes of room.
	unsigned char *rows = calloc(2, 16 + rowbytes);
	if (!buf || !rows) {
		rc = FASTPNG_ENOMEM;
		goto done;
	}
	unsigned char *src = buf + (alloc - filtered);
	rc = inflate(&p, src, filtered, &joined, &joinedSize, 0);
	if (rc) goto done;
	unsigned char *cur = rows + 8, *prev = rows + 8 + (16 + rowbytes);
	for (uint32_t y = 0; y < p.h; y++) {
		const unsigned char *in = src + y * stride;
		rc = unfilterRow(in[0], cur, in + 1, prev, rowbytes, bpp);
		if (!rc) rc = expand(&p, cur, buf + (size_t)y * 4 * p.w);
		if (rc) goto done;
		unsigned char *t = cur;
		cur = prev;
		prev = t;
	}

done:
	free(rows);
	pixfree(joined, joinedSize);
	if (rc) {
		pixfree(buf, alloc);
		return rc;
	}
	*out = buf;
	*size = alloc;
	*w = (int)p.w;
	*h = (int)p.h;
	return 0;
}

// average writes one row of the reduced image from the column sums of
// its rows (nch channels a pixel, 3 for RGB, whose alpha is 255): each
// pixel the rounded average of its block, over fewer pixels for the
// blocks cut by the image's right edge. A block's sums are 64-bit: from
// 4105 x 4105 pixels (a side of 1 to 3 asked of a large image) they pass
// 32 bits.
static void average(const uint32_t *cols, int nch, uint32_t ow, uint32_t w, int shift, uint32_t rows, unsigned char *out) {
	uint32_t f = 1u << shift;
	for (uint32_t x = 0; x < ow; x++) {
		uint32_t first = x << shift;
		uint64_t n = (first + f <= w ? f : w - first);
		uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
		const uint32_t *c = cols + (size_t)nch * first, *end = c + (size_t)nch * n;
		if (nch == 4) {
			for (; c < end; c += 4) {
				s0 += c[0];
				s1 += c[1];
				s2 += c[2];
				s3 += c[3];
			}
		} else {
			for (; c < end; c += 3) {
				s0 += c[0];
				s1 += c[1];
				s2 += c[2];
			}
		}
		n *= rows;
		out[4 * x] = (unsigned char)((s0 + n / 2) / n);
		out[4 * x + 1] = (unsigned char)((s1 + n / 2) / n);
		out[4 * x + 2] = (unsigned char)((s2 + n / 2) / n);
		out[4 * x + 3] = nch == 4 ? (unsigned char)((s3 + n / 2) / n) : 255;
	}
}

// addRow adds a row of n bytes to the column sums of up to 256 rows
// (loops the compiler vectorises); flush moves those into the block's.
static void addRow(uint16_t *restrict cols, const unsigned char *restrict row, size_t n) {
	for (size_t i = 0; i < n; i++) cols[i] += row[i];
}

static void flush(uint32_t *restrict sums, uint16_t *restrict cols, size_t n) {
	for (size_t i = 0; i < n; i++) sums[i] += cols[i];
	memset(cols, 0, n * sizeof *cols);
}

int fastpng_decode_reduced(const unsigned char *data, size_t len, int maxSide, int shift,
			   unsigned char **scratch, size_t *scratchSize,
			   unsigned char **out, size_t *size, int *w, int *h) {
	struct png p;
	memset(&p, 0, sizeof p);
	int rc = parse(data, len, maxSide, &p);
	if (rc) return rc;
	if (shift < 0 || shift > 14) return FASTPNG_EIHDR;

	size_t bits = (size_t)p.depth * p.channels;
	int bpp = bits >= 8 ? (int)(bits / 8) : 1;
	size_t rowbytes = ((size_t)p.w * bits + 7) / 8, stride = 1 + rowbytes;
	size_t filtered = stride * p.h;
	uint32_t f = 1u << shift, ow = (p.w + f - 1) >> shift, oh = (p.h + f - 1) >> shift;
	size_t outsize = (size_t)4 * ow * oh;

	// The filtered rows go to the scratch buffer, reused from one image
	// to the next: no page of it is faulted in (and cleared by the
	// kernel) again, as the pages of a fresh buffer are.
	// The joined IDATs, when there are several, go after the rows.
	size_t need = filtered + (p.nidat > 1 ? p.zlen + 1 : 0);
	if (*scratchSize < need) {
		unsigned char *b = pixels(need);
		if (!b) return FASTPNG_ENOMEM;
		pixfree(*scratch, *scratchSize);
		*scratch = b;
		*scratchSize = need;
	}
	unsigned char *buf = pixels(outsize);
	unsigned char *rows = calloc(2, 16 + rowbytes);
	unsigned char *rgba = malloc(4 * (size_t)p.w + 8);
	// The sums of each column (and channel) of the rows of the blocks
	// under way: of up to 256 rows in 16 bits, of the block in 32.
	// 8-bit RGB without a transparent key and RGBA are summed as
	// unfiltered; the other formats expanded to RGBA first.
	int direct = p.depth == 8 && (p.ctype == 6 || (p.ctype == 2 && !p.haskey));
	int nch = direct && p.ctype == 2 ? 3 : 4;
	size_t ncols = (size_t)nch * p.w;
	uint16_t *cols = calloc(ncols, sizeof *cols);
	uint32_t *sums = calloc(ncols, sizeof *sums);
	if (!buf || !rows || !rgba || !cols || !sums) {
		rc = FASTPNG_ENOMEM;
		goto done;
	}
	rc = inflate(&p, *scratch, filtered, scratch, scratchSize, filtered);
	if (rc) goto done;
	const unsigned char *src = *scratch;
	unsigned char *cur = rows + 8, *prev = rows + 8 + (16 + rowbytes);
	uint32_t first = 0; // the first image row of the output row under way
	for (uint32_t y = 0; y < p.h; y++) {
		const unsigned char *in = src + y * stride;
		rc = unfilterRow(in[0], cur, in + 1, prev, rowbytes, bpp);
		if (rc) goto done;
		if (direct) {
			addRow(cols, cur, ncols);
		} else {
			rc = expand(&p, cur, rgba);
			if (rc) goto done;
			addRow(cols, rgba, ncols);
		}
		uint32_t n = y + 1 - first;
		if (n == f || y + 1 == p.h || n % 256 == 0) flush(sums, cols, ncols);
		if (n == f || y + 1 == p.h) {
			average(sums, nch, ow, p.w, shift, n, buf + (size_t)4 * ow * (first >> shift));
			memset(sums, 0, ncols * sizeof *sums);
			first = y + 1;
		}
		unsigned char *t = cur;
		cur = prev;
		prev = t;
	}

done:
	free(sums);
	free(cols);
	free(rgba);
	free(rows);
	if (rc) {
		pixfree(buf, outsize);
		return rc;
	}
	*out = buf;
	*size = outsize;
	*w = (int)ow;
	*h = (int)oh;
	return 0;
}

const char *fastpng_strerror(int code) {
	switch (code) {
	case 0: return "success";
	case FASTPNG_UNSUPPORTED: return "interlaced or 16-bit image";
	case FASTPNG_ESIGNATURE: return "not a PNG signature";
	case FASTPNG_ETRUNCATED: return "truncated chunk";
	case FASTPNG_ECRC: return "chunk CRC mismatch";
	case FASTPNG_EIHDR: return "invalid IHDR";
	case FASTPNG_ETOOBIG: return "image larger than the limit";
	case FASTPNG_ECHUNK: return "misplaced or unknown critical chunk";
	case FASTPNG_EPLTE: return "invalid or missing PLTE";
	case FASTPNG_ETRNS: return "invalid tRNS";
	case FASTPNG_ENOIDAT: return "no IDAT before IEND";
	case FASTPNG_EZLIB: return "invalid zlib stream in IDAT";
	case FASTPNG_ESIZE: return "image data of the wrong size";
	case FASTPNG_EFILTER: return "invalid filter type";
	case FASTPNG_EINDEX: return "palette index out of range";
	case FASTPNG_ENOMEM: return "out of memory";
	}
	return "unknown error";
}
