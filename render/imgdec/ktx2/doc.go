// Package ktx2 decodes KTX 2.0 texture files to 8-bit RGBA, the image
// format of glTF's KHR_texture_basisu: the container (header, level index,
// data format descriptor, key/value data), its supercompression (BasisLZ,
// Zstandard with github.com/klauspost/compress, zlib) and the payloads
// glTF files carry: Basis Universal ETC1S (the BasisLZ global codebooks,
// Huffman-coded slices and ETC1S blocks), UASTC LDR 4x4 blocks, and the
// plain R8, R8G8, R8G8B8 and R8G8B8A8 formats (UNORM and SRGB).
//
// It is written from the KTX 2.0 specification (with its BasisLZ/ETC1S
// bitstream appendix), the UASTC texture specification of Basis Universal
// and the ASTC section of the Khronos Data Format specification (unquantization,
// partition patterns, weight interpolation). Pixels are returned as the
// file stores them: sRGB-encoded values stay sRGB-encoded (see
// Texture.SRGB); rows are top first (a file whose KTXorientation says rows
// go up is flipped).
//
// Decoding never panics on bad input: every offset, length, count and
// code is checked, and a file that does not follow the format gives an
// error naming what is wrong.
package ktx2
