package imgdec

/*
#cgo pkg-config: libavif
#include <stdio.h>
#include <avif/avif.h>
#include "cdec.h"

// decodeAVIF decodes the first image of an AVIF file to 8-bit RGBA (alpha
// not premultiplied) with libavif into a buffer from pixels(). It returns
// 0, or -1 with the message in msg (at least 200 bytes).
static int decodeAVIF(const uint8_t *data, size_t size, int maxSide, unsigned char **out, int *w, int *h, char *msg) {
	avifDecoder *dec = avifDecoderCreate();
	if (!dec) {
		snprintf(msg, 200, "out of memory");
		return -1;
	}
	dec->maxThreads = 1;
	dec->ignoreExif = AVIF_TRUE;
	dec->ignoreXMP = AVIF_TRUE;
	dec->imageSizeLimit = (uint32_t)maxSide * (uint32_t)maxSide;
	avifResult r = avifDecoderSetIOMemory(dec, data, size);
	if (r == AVIF_RESULT_OK) r = avifDecoderParse(dec);
	if (r == AVIF_RESULT_OK) r = avifDecoderNextImage(dec);
	if (r != AVIF_RESULT_OK) {
		snprintf(msg, 200, "%s", avifResultToString(r));
		avifDecoderDestroy(dec);
		return -1;
	}
	avifImage *im = dec->image;
	if (im->width == 0 || im->height == 0 || im->width > (uint32_t)maxSide || im->height > (uint32_t)maxSide) {
		snprintf(msg, 200, "image is %ux%u, larger than %dx%d", im->width, im->height, maxSide, maxSide);
		avifDecoderDestroy(dec);
		return -1;
	}
	avifRGBImage rgb;
	avifRGBImageSetDefaults(&rgb, im);
	rgb.format = AVIF_RGB_FORMAT_RGBA;
	rgb.depth = 8;
	rgb.rowBytes = im->width * 4;
	size_t n = (size_t)im->width * im->height * 4;
	rgb.pixels = pixels(n);
	if (!rgb.pixels) {
		snprintf(msg, 200, "out of memory for %ux%u pixels", im->width, im->height);
		avifDecoderDestroy(dec);
		return -1;
	}
	r = avifImageYUVToRGB(im, &rgb);
	if (r != AVIF_RESULT_OK) {
		snprintf(msg, 200, "%s", avifResultToString(r));
		pixfree(rgb.pixels, n);
		avifDecoderDestroy(dec);
		return -1;
	}
	*out = rgb.pixels;
	*w = im->width;
	*h = im->height;
	avifDecoderDestroy(dec);
	return 0;
}
*/
import "C"

import (
	"bytes"
	"fmt"
	"unsafe"
)

// isAVIF says data starts an AVIF file: an ISO-BMFF ftyp box whose major
// brand is avif (still image) or avis (sequence).
func isAVIF(data []byte) bool {
	return len(data) >= 12 && string(data[4:8]) == "ftyp" && (bytes.Equal(data[8:12], []byte("avif")) || bytes.Equal(data[8:12], []byte("avis")))
}

// decodeAVIF decodes an AVIF image (EXT_texture_avif) with libavif, through
// cgo from Debian's libavif-dev, into C memory.
func decodeAVIF(data []byte) (*Image, error) {
	var out *C.uchar
	var w, h C.int
	var msg [200]C.char
	if C.decodeAVIF((*C.uint8_t)(unsafe.Pointer(&data[0])), C.size_t(len(data)), MaxSide, &out, &w, &h, &msg[0]) != 0 {
		return nil, fmt.Errorf("avif: %s", C.GoString(&msg[0]))
	}
	return wrapC(out, int(w), int(h)), nil
}
