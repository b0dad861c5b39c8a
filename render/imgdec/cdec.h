// Declarations shared by the C files of package imgdec and its cgo
// preamble.
#ifndef IMGDEC_CDEC_H
#define IMGDEC_CDEC_H

#include <stddef.h>

// pixels allocates n bytes of pixels straight from the kernel, so that
// pixfree gives them back at once: malloc would keep freed blocks of a few
// megabytes in its arenas, and the peak memory of a load would grow by
// them. It returns NULL when out of memory.
unsigned char *pixels(size_t n);

// pixfree gives back n bytes from pixels (p may be NULL).
void pixfree(void *p, size_t n);

// Results of fastpng_decode besides 0 (success): FASTPNG_UNSUPPORTED
// means a valid PNG this decoder leaves to libspng (interlaced, 16-bit);
// the others are errors, named by fastpng_strerror.
enum {
	FASTPNG_UNSUPPORTED = 1,
	FASTPNG_ESIGNATURE = -1,
	FASTPNG_ETRUNCATED = -2,
	FASTPNG_ECRC = -3,
	FASTPNG_EIHDR = -4,
	FASTPNG_ETOOBIG = -5,
	FASTPNG_ECHUNK = -6,
	FASTPNG_EPLTE = -7,
	FASTPNG_ETRNS = -8,
	FASTPNG_ENOIDAT = -9,
	FASTPNG_EZLIB = -10,
	FASTPNG_ESIZE = -11,
	FASTPNG_EFILTER = -12,
	FASTPNG_EINDEX = -13,
	FASTPNG_ENOMEM = -14,
};

// fastpng_decode decodes a non-interlaced PNG of bit depth 8 (any colour
// type) or 1, 2 or 4 (grey or palette) to RGBA8 into a buffer from
// pixels() of *size bytes (at least 4 * *w * *h: the image is inflated
// into the same buffer). It returns 0, FASTPNG_UNSUPPORTED or an error.
int fastpng_decode(const unsigned char *data, size_t len, int maxSide,
		   unsigned char **out, size_t *size, int *w, int *h);

// fastpng_decode_reduced decodes as fastpng_decode, but reduced by
// 2^shift in each direction: each pixel is the rounded average of its
// 2^shift x 2^shift block (fewer pixels at the right and bottom edges),
// averaged as the rows are unfiltered, so that the whole image is never
// held. The filtered rows are inflated into *scratch (*scratchSize bytes,
// from pixels(), grown when too small and left to the caller to free with
// pixfree): a buffer reused from one image to the next.
int fastpng_decode_reduced(const unsigned char *data, size_t len, int maxSide, int shift,
			   unsigned char **scratch, size_t *scratchSize,
			   unsigned char **out, size_t *size, int *w, int *h);

// fastpng_strerror describes a result of fastpng_decode.
const char *fastpng_strerror(int code);

#endif
