package imgdec

/*
#cgo pkg-config: libturbojpeg spng libdeflate
#cgo CFLAGS: -O3
#include <stdlib.h>
#include <sys/mman.h>
#include <turbojpeg.h>
#include <spng.h>
#include "cdec.h"

// decodeSPNG decodes a PNG to RGBA8 with libspng into a buffer from
// pixels(). It returns 0 or a libspng error code.
static int decodeSPNG(const void *data, size_t size, int maxSide, unsigned char **out, int *w, int *h) {
	spng_ctx *ctx = spng_ctx_new(SPNG_CTX_IGNORE_ADLER32);
	if (!ctx) return SPNG_EMEM;
	int err = spng_set_png_buffer(ctx, data, size);
	if (!err) err = spng_set_image_limits(ctx, maxSide, maxSide);
	struct spng_ihdr ihdr;
	if (!err) err = spng_get_ihdr(ctx, &ihdr);
	size_t n = 0;
	if (!err) err = spng_decoded_image_size(ctx, SPNG_FMT_RGBA8, &n);
	unsigned char *buf = NULL;
	if (!err) {
		buf = pixels(n);
		if (!buf) err = SPNG_EMEM;
	}
	if (!err) err = spng_decode_image(ctx, buf, n, SPNG_FMT_RGBA8, SPNG_DECODE_TRNS);
	spng_ctx_free(ctx);
	if (err) {
		pixfree(buf, n);
		return err;
	}
	*out = buf;
	*w = ihdr.width;
	*h = ihdr.height;
	return 0;
}

// decodeJPEG decodes a JPEG to RGBA into a buffer it allocates with
// pixels(), replicating chroma samples as Go's image/jpeg does (no fancy
// upsampling) with the accurate integer IDCT. It returns 0, or -1 with the
// message in msg (which must be at least 200 bytes).
static int decodeJPEGScaled(const unsigned char *data, unsigned long size, int maxSide, int side, unsigned char **out, int *w, int *h, char *msg);

static int decodeJPEG(const unsigned char *data, unsigned long size, int maxSide, unsigned char **out, int *w, int *h, char *msg) {
	return decodeJPEGScaled(data, size, maxSide, 0, out, w, h, msg);
}

// decodeJPEGScaled is decodeJPEG at the smallest reduction among 1/1,
// 1/2, 1/4 and 1/8 whose sides are both at most side (1/8 when none is;
// side 0: full size). libjpeg-turbo reduces in the inverse DCT, so a
// quarter-size image costs about a third of the full decode.
static int decodeJPEGScaled(const unsigned char *data, unsigned long size, int maxSide, int side, unsigned char **out, int *w, int *h, char *msg) {
	tjhandle tj = tjInitDecompress();
	if (!tj) {
		snprintf(msg, 200, "%s", tjGetErrorStr2(NULL));
		return -1;
	}
	int width, height, subsamp, colorspace;
	if (tjDecompressHeader3(tj, data, size, &width, &height, &subsamp, &colorspace) != 0) {
		snprintf(msg, 200, "%s", tjGetErrorStr2(tj));
		tjDestroy(tj);
		return -1;
	}
	if (width <= 0 || height <= 0 || width > maxSide || height > maxSide) {
		snprintf(msg, 200, "image is %dx%d, larger than %dx%d", width, height, maxSide, maxSide);
		tjDestroy(tj);
		return -1;
	}
	if (side > 0) {
		int denom = 1;
		while (denom < 8 && ((width + denom - 1) / denom > side || (height + denom - 1) / denom > side)) denom *= 2;
		// TJSCALED: the reduced size rounds up.
		width = (width + denom - 1) / denom;
		height = (height + denom - 1) / denom;
	}
	unsigned char *buf = pixels((size_t)width * height * 4);
	if (!buf) {
		snprintf(msg, 200, "out of memory for %dx%d pixels", width, height);
		tjDestroy(tj);
		return -1;
	}
	// A warning (a truncated or damaged scan) counts as an error: the Go
	// decoder then decides, as before there was this one. A width and
	// height below the file's make libjpeg-turbo scale (the largest of
	// its factors that fits, here exactly denom).
	if (tjDecompress2(tj, data, size, buf, width, 0, height, TJPF_RGBA, TJFLAG_FASTUPSAMPLE | TJFLAG_ACCURATEDCT) != 0) {
		snprintf(msg, 200, "%s", tjGetErrorStr2(tj));
		pixfree(buf, (size_t)width * height * 4);
		tjDestroy(tj);
		return -1;
	}
	tjDestroy(tj);
	*out = buf;
	*w = width;
	*h = height;
	return 0;
}

// half writes the next mipmap level of a w x h RGBA image: each pixel the
// rounded average of a 2x2 block, the last row or column repeated when a
// side is odd.
static void half(const unsigned char *src, int w, int h, unsigned char *dst) {
	int hw = w > 1 ? w / 2 : 1, hh = h > 1 ? h / 2 : 1;
	for (int y = 0; y < hh; y++) {
		const unsigned char *r0 = src + (size_t)(2 * y < h ? 2 * y : h - 1) * w * 4;
		const unsigned char *r1 = src + (size_t)(2 * y + 1 < h ? 2 * y + 1 : h - 1) * w * 4;
		unsigned char *o = dst + (size_t)y * hw * 4;
		if (w > 1) {
			for (int x = 0; x < hw; x++) {
				for (int k = 0; k < 4; k++) {
					o[4 * x + k] = (unsigned char)((r0[8 * x + k] + r0[8 * x + 4 + k] + r1[8 * x + k] + r1[8 * x + 4 + k] + 2) >> 2);
				}
			}
		} else {
			for (int k = 0; k < 4; k++) o[k] = (unsigned char)((2 * r0[k] + 2 * r1[k] + 2) >> 2);
		}
	}
}
*/
import "C"

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	_ "image/jpeg" // the fallback for JPEGs libjpeg-turbo refuses (CMYK)
	_ "image/png"
	"unsafe"

	_ "golang.org/x/image/webp" // EXT_texture_webp

	"physview/render/imgdec/ktx2"
)

// MaxSide is the largest width or height accepted, the GL texture limit of
// Mesa's llvmpipe.
const MaxSide = 16384

// Image is a decoded image: Width x Height pixels of non-premultiplied
// RGBA, four bytes each, rows top first with no padding.
type Image struct {
	Width, Height int
	// Pix is valid until Free.
	Pix  []byte
	c    unsafe.Pointer // C allocation behind Pix, or nil when Pix is Go memory
	size int            // bytes allocated at c, at least len(Pix)
}

// Free releases the pixels; Pix is nil afterwards. Calling it twice is safe.
func (m *Image) Free() {
	if m == nil {
		return
	}
	if m.c != nil {
		C.pixfree(m.c, C.size_t(m.size))
		m.c = nil
	}
	m.Pix = nil
}

// NRGBA returns the pixels as an image.NRGBA sharing Pix (valid until Free).
func (m *Image) NRGBA() *image.NRGBA {
	return &image.NRGBA{Pix: m.Pix, Stride: 4 * m.Width, Rect: image.Rect(0, 0, m.Width, m.Height)}
}

var (
	pngMagic  = []byte("\x89PNG\r\n\x1a\n")
	jpegMagic = []byte{0xff, 0xd8}
)

// Decode decodes a PNG, JPEG, WebP, KTX 2.0 or AVIF image. PNGs and JPEGs are decoded
// into C memory, which the caller gives back with Free. When the C
// decoders refuse a file, the Go decoder has the last word: it reads
// what they cannot (CMYK JPEGs) and words the error for a broken file the
// same way as before.
func Decode(data []byte) (*Image, error) {
	var m *Image
	var err error
	switch {
	case bytes.HasPrefix(data, pngMagic):
		m, err = decodePNG(data)
	case bytes.HasPrefix(data, jpegMagic):
		m, err = decodeJPEG(data)
	case bytes.HasPrefix(data, ktx2.Magic):
		return decodeKTX2(data)
	case isAVIF(data):
		return decodeAVIF(data)
	default:
		return DecodeStd(data)
	}
	if err != nil {
		return DecodeStd(data)
	}
	return m, nil
}

// decodePNG decodes with the fast path of png.c, or with libspng the
// images it leaves aside (interlaced, 16-bit) or refuses.
func decodePNG(data []byte) (*Image, error) {
	if m, err := decodePNGFast(data); err == nil {
		return m, nil
	}
	return decodeSPNG(data)
}

// errUnsupported is decodePNGFast's answer for a PNG it leaves to libspng.
var errUnsupported = errors.New("png: interlaced or 16-bit, left to libspng")

func decodePNGFast(data []byte) (*Image, error) {
	var out *C.uchar
	var size C.size_t
	var w, h C.int
	rc := C.fastpng_decode((*C.uchar)(unsafe.Pointer(&data[0])), C.size_t(len(data)), MaxSide, &out, &size, &w, &h)
	switch {
	case rc == C.FASTPNG_UNSUPPORTED:
		return nil, errUnsupported
	case rc != 0:
		return nil, fmt.Errorf("png: %s", C.GoString(C.fastpng_strerror(rc)))
	}
	m := wrapC(out, int(w), int(h))
	m.size = int(size)
	return m, nil
}

func decodeSPNG(data []byte) (*Image, error) {
	var out *C.uchar
	var w, h C.int
	rc := C.decodeSPNG(unsafe.Pointer(&data[0]), C.size_t(len(data)), MaxSide, &out, &w, &h)
	if rc != 0 {
		return nil, fmt.Errorf("png: %s", C.GoString(C.spng_strerror(rc)))
	}
	return wrapC(out, int(w), int(h)), nil
}

func decodeJPEG(data []byte) (*Image, error) {
	var out *C.uchar
	var w, h C.int
	var msg [200]C.char
	if C.decodeJPEG((*C.uchar)(unsafe.Pointer(&data[0])), C.ulong(len(data)), MaxSide, &out, &w, &h, &msg[0]) != 0 {
		return nil, fmt.Errorf("jpeg: %s", C.GoString(&msg[0]))
	}
	return wrapC(out, int(w), int(h)), nil
}

// ErrNotReduced is DecodeReduced's answer for an image it does not
// decode reduced: not a JPEG or a PNG its fast path reads, or no larger
// than the size asked for.
var ErrNotReduced = errors.New("imgdec: not a JPEG or PNG larger than the size asked for")

// DecodeReduced decodes a JPEG or PNG larger than side (in width or
// height) straight to a reduced size, a half, a quarter, an eighth (or,
// for a PNG, less) of its own, the largest whose sides are both at most
// side (for a JPEG an eighth when none is). A JPEG is reduced by
// libjpeg-turbo in its inverse DCT, so a 2048x2048 JPEG decoded to
// 512x512 costs about a third of the full decode. A PNG has no such
// shortcut: its rows are unfiltered as for the whole image, and each
// pixel of the result is the rounded average of its block (the box filter
// of the mipmaps), summed as the rows come, so that the whole image is
// never held. Other images, interlaced or 16-bit PNGs, and images of side
// or less return ErrNotReduced (decode them with Decode).
func DecodeReduced(data []byte, side int) (*Image, error) {
	var s Scratch
	defer s.Free()
	return s.DecodeReduced(data, side)
}

// Scratch is memory a decoder reuses from one image to the next: a
// PNG's inflated rows for DecodeReduced. A fresh image-sized buffer
// costs its page faults (the kernel clears every page) on each image;
// one worker decoding many images reuses its Scratch. The zero value is
// empty; Free gives the memory back. A Scratch is not safe for
// concurrent use.
type Scratch struct {
	p    *C.uchar
	size C.size_t
}

// Free gives the scratch memory back; the Scratch can be used again.
func (s *Scratch) Free() {
	if s.p != nil {
		C.pixfree(unsafe.Pointer(s.p), s.size)
	}
	s.p, s.size = nil, 0
}

// DecodeReduced is the package's DecodeReduced with s's memory.
func (s *Scratch) DecodeReduced(data []byte, side int) (*Image, error) {
	if side <= 0 {
		return nil, ErrNotReduced
	}
	w, h, ok := Dimensions(data)
	if !ok || (w <= side && h <= side) {
		return nil, ErrNotReduced
	}
	switch {
	case bytes.HasPrefix(data, pngMagic):
		return s.decodePNGReduced(data, w, h, side)
	case !bytes.HasPrefix(data, jpegMagic):
		return nil, ErrNotReduced
	}
	var out *C.uchar
	var cw, ch C.int
	var msg [200]C.char
	if C.decodeJPEGScaled((*C.uchar)(unsafe.Pointer(&data[0])), C.ulong(len(data)), MaxSide, C.int(side), &out, &cw, &ch, &msg[0]) != 0 {
		return nil, fmt.Errorf("jpeg: %s", C.GoString(&msg[0]))
	}
	return wrapC(out, int(cw), int(ch)), nil
}

// ReducedShift is the reduction DecodeReduced gives a PNG of w x h: the
// least power of two 2^shift by which both sides, rounded up, are at most
// side.
func ReducedShift(w, h, side int) int {
	shift := 0
	for shift < 14 && ((w+(1<<shift)-1)>>shift > side || (h+(1<<shift)-1)>>shift > side) {
		shift++
	}
	return shift
}

func (s *Scratch) decodePNGReduced(data []byte, w, h, side int) (*Image, error) {
	var out *C.uchar
	var size C.size_t
	var cw, ch C.int
	rc := C.fastpng_decode_reduced((*C.uchar)(unsafe.Pointer(&data[0])), C.size_t(len(data)), MaxSide, C.int(ReducedShift(w, h, side)),
		&s.p, &s.size, &out, &size, &cw, &ch)
	switch {
	case rc == C.FASTPNG_UNSUPPORTED:
		return nil, ErrNotReduced
	case rc != 0:
		return nil, fmt.Errorf("png: %s", C.GoString(C.fastpng_strerror(rc)))
	}
	m := wrapC(out, int(cw), int(ch))
	m.size = int(size)
	return m, nil
}

func wrapC(p *C.uchar, w, h int) *Image {
	return &Image{Width: w, Height: h, Pix: unsafe.Slice((*byte)(unsafe.Pointer(p)), 4*w*h), c: unsafe.Pointer(p), size: 4 * w * h}
}

// DecodeStd decodes with the Go standard library (and x/image/webp) to the
// same layout as Decode, in Go memory: the reference Decode is tested
// against, and the decoder for WebP.
func DecodeStd(data []byte) (*Image, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	if cfg.Width > MaxSide || cfg.Height > MaxSide {
		return nil, fmt.Errorf("%s: image is %dx%d, larger than %dx%d", format, cfg.Width, cfg.Height, MaxSide, MaxSide)
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	b := img.Bounds()
	if b.Empty() {
		return nil, errors.New("image has no pixels")
	}
	switch m := img.(type) {
	case *image.NRGBA:
		if m.Stride == 4*b.Dx() && b.Min == (image.Point{}) {
			return &Image{Width: b.Dx(), Height: b.Dy(), Pix: m.Pix}, nil
		}
	case *image.RGBA:
		// PNGs without alpha decode to opaque RGBA, whose bytes are the
		// same as non-premultiplied NRGBA: no conversion needed.
		if m.Stride == 4*b.Dx() && b.Min == (image.Point{}) && opaque(m.Pix) {
			return &Image{Width: b.Dx(), Height: b.Dy(), Pix: m.Pix}, nil
		}
	}
	n := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	switch m := img.(type) {
	case *image.NRGBA64:
		// Straight alpha kept as is: going through premultiplied colour
		// would lose the colour of transparent pixels, which an OPAQUE
		// material shows.
		for y := 0; y < b.Dy(); y++ {
			src := m.Pix[(y)*m.Stride:]
			dst := n.Pix[y*n.Stride:]
			for i := 0; i < 4*b.Dx(); i++ {
				dst[i] = src[2*i]
			}
		}
	case *image.Paletted:
		var pal [256]color.NRGBA
		for i, c := range m.Palette {
			pal[i] = color.NRGBAModel.Convert(c).(color.NRGBA)
		}
		for y := 0; y < b.Dy(); y++ {
			for x := 0; x < b.Dx(); x++ {
				c := pal[m.Pix[y*m.Stride+x]]
				copy(n.Pix[y*n.Stride+4*x:], []byte{c.R, c.G, c.B, c.A})
			}
		}
	default:
		draw.Draw(n, n.Bounds(), img, b.Min, draw.Src)
	}
	return &Image{Width: b.Dx(), Height: b.Dy(), Pix: n.Pix}, nil
}

func opaque(pix []uint8) bool {
	for i := 3; i < len(pix); i += 4 {
		if pix[i] != 255 {
			return false
		}
	}
	return true
}

// Clone returns a copy of m's pixels in C memory (give it back with
// Free), or nil when out of memory.
func Clone(m *Image) *Image {
	p := C.pixels(C.size_t(len(m.Pix)))
	if p == nil {
		return nil
	}
	c := wrapC((*C.uchar)(p), m.Width, m.Height)
	copy(c.Pix, m.Pix)
	return c
}

// Mipmaps returns levels 1 and down of m's mipmap chain to 1x1, in C
// memory (give each back with Free): each pixel is the rounded average of
// the 2x2 block above it, the last row or column repeated where a side is
// odd. Averaging is done on the stored values, as most tools do for sRGB
// textures too.
func Mipmaps(m *Image) []*Image {
	var levels []*Image
	for cur := m; cur.Width > 1 || cur.Height > 1; {
		w, h := max(cur.Width/2, 1), max(cur.Height/2, 1)
		p := C.pixels(C.size_t(4 * w * h))
		if p == nil {
			break
		}
		C.half((*C.uchar)(unsafe.Pointer(&cur.Pix[0])), C.int(cur.Width), C.int(cur.Height), (*C.uchar)(p))
		next := wrapC((*C.uchar)(p), w, h)
		levels = append(levels, next)
		cur = next
	}
	return levels
}
