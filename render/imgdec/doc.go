// Package imgdec decodes the images of glTF textures to 8-bit
// non-premultiplied RGBA, four bytes a pixel, rows top first: PNG with
// the decoder of png.c (libdeflate's one-call inflate, SSE2 unfiltering),
// or libspng for the interlaced and 16-bit PNGs it leaves aside, JPEG with
// libjpeg-turbo (all through cgo, from Debian's libdeflate-dev,
// libspng-dev and libturbojpeg0-dev), KTX 2.0 (KHR_texture_basisu) with
// the Go decoder of package ktx2, AVIF (EXT_texture_avif) with libavif
// (Debian's libavif-dev, through cgo), anything else (WebP) with the Go
// decoders. The pixels of a PNG, JPEG or AVIF live in C memory, outside the Go
// heap, so that Free returns them to the system at once rather than at the
// next garbage collection.
package imgdec
