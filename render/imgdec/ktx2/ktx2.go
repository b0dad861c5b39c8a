package ktx2

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// Magic is the identifier every KTX 2.0 file starts with.
var Magic = []byte("\xabKTX 20\xbb\r\n\x1a\n")

// MaxSide is the largest width or height accepted.
const MaxSide = 16384

// Supercompression schemes (KTX 2.0 section 3.8).
const (
	SchemeNone    = 0
	SchemeBasisLZ = 1
	SchemeZstd    = 2
	SchemeZlib    = 3
)

// Colour models of the data format descriptor that this package decodes
// besides the plain RGBA ones (KHR_DF_MODEL_*).
const (
	ModelRGBSDA = 1
	ModelETC1S  = 163
	ModelUASTC  = 166
)

// Vulkan formats of the plain (uncompressed) images this package decodes.
const (
	vkUndefined = 0
	vkR8Unorm   = 9
	vkR8SRGB    = 15
	vkR8G8Unorm = 16
	vkR8G8SRGB  = 22
	vkRGB8Unorm = 23
	vkRGB8SRGB  = 29
	vkRGBA8Unor = 37
	vkRGBA8SRGB = 43
)

// plainFormats maps the plain Vulkan formats to their bytes per pixel.
var plainFormats = map[uint32]int{
	vkR8Unorm: 1, vkR8SRGB: 1, vkR8G8Unorm: 2, vkR8G8SRGB: 2,
	vkRGB8Unorm: 3, vkRGB8SRGB: 3, vkRGBA8Unor: 4, vkRGBA8SRGB: 4,
}

// Header is the fixed part of a KTX 2.0 file (section 3.1 to 3.9).
type Header struct {
	VkFormat               uint32
	TypeSize               uint32
	PixelWidth             uint32
	PixelHeight            uint32
	PixelDepth             uint32
	LayerCount             uint32
	FaceCount              uint32
	LevelCount             uint32
	SupercompressionScheme uint32
	DFDByteOffset          uint32
	DFDByteLength          uint32
	KVDByteOffset          uint32
	KVDByteLength          uint32
	SGDByteOffset          uint64
	SGDByteLength          uint64
}

// Level is one entry of the level index: where a mip level's (possibly
// supercompressed) data lies in the file.
type Level struct {
	ByteOffset, ByteLength, UncompressedByteLength uint64
}

// DFD is what this package reads of the basic data format descriptor
// block.
type DFD struct {
	ColorModel, ColorPrimaries, TransferFunction, Flags uint8
	// TexelBlockDimension holds the block size minus one on each axis.
	TexelBlockDimension [4]uint8
	// Channels lists each sample's channel id (the low four bits of its
	// channelType), in sample order.
	Channels []uint8
}

// File is a parsed KTX 2.0 file whose levels can be decoded one by one.
type File struct {
	Header Header
	Levels []Level
	DFD    DFD
	// KeyValues holds the key/value data (values without their
	// terminating NUL when they are strings the spec defines so).
	KeyValues map[string][]byte

	data []byte
	gd   *basisLZ // BasisLZ global data, for ETC1S
}

// Texture is a decoded KTX 2.0 image: its mip levels from the largest,
// each 8-bit non-premultiplied RGBA, rows top first.
type Texture struct {
	Width, Height int
	// Format names the payload: "ETC1S", "UASTC" or a Vulkan format name.
	Format string
	// SRGB says the colour channels hold sRGB-encoded values (the data
	// format descriptor's transfer function is sRGB).
	SRGB   bool
	Levels []Image
}

// Image is one decoded level: Width x Height pixels, four bytes each.
type Image struct {
	Width, Height int
	Pix           []byte
}

// Decode parses a KTX 2.0 file and decodes every mip level it holds
// (layer 0, face 0 of arrays and cube maps).
func Decode(data []byte) (*Texture, error) {
	f, err := Parse(data)
	if err != nil {
		return nil, err
	}
	t := &Texture{Width: int(f.Header.PixelWidth), Height: int(f.Header.PixelHeight), Format: f.Format(), SRGB: f.SRGB()}
	for l := range f.Levels {
		img, err := f.DecodeLevel(l)
		if err != nil {
			return nil, err
		}
		t.Levels = append(t.Levels, img)
	}
	return t, nil
}

// Format names the payload: "ETC1S", "UASTC", or the Vulkan format.
func (f *File) Format() string {
	switch {
	case f.Header.VkFormat == vkUndefined && f.DFD.ColorModel == ModelETC1S:
		return "ETC1S"
	case f.Header.VkFormat == vkUndefined && f.DFD.ColorModel == ModelUASTC:
		return "UASTC"
	}
	names := map[uint32]string{
		vkR8Unorm: "R8_UNORM", vkR8SRGB: "R8_SRGB", vkR8G8Unorm: "R8G8_UNORM", vkR8G8SRGB: "R8G8_SRGB",
		vkRGB8Unorm: "R8G8B8_UNORM", vkRGB8SRGB: "R8G8B8_SRGB", vkRGBA8Unor: "R8G8B8A8_UNORM", vkRGBA8SRGB: "R8G8B8A8_SRGB",
	}
	if n, ok := names[f.Header.VkFormat]; ok {
		return n
	}
	return fmt.Sprintf("VkFormat %d", f.Header.VkFormat)
}

// SRGB says the colour channels hold sRGB-encoded values.
func (f *File) SRGB() bool { return f.DFD.TransferFunction == 2 }

// LevelSize returns the width and height of mip level l.
func (f *File) LevelSize(l int) (int, int) {
	return max(int(f.Header.PixelWidth)>>l, 1), max(int(f.Header.PixelHeight)>>l, 1)
}

// Parse reads and checks a KTX 2.0 file's header, level index, data
// format descriptor, key/value data and (for BasisLZ) global data. It
// accepts the 2D textures glTF uses, arrays and cube maps included (of
// which layer 0, face 0 is decoded); 3D textures are refused.
func Parse(data []byte) (*File, error) {
	if !bytes.HasPrefix(data, Magic) {
		return nil, errors.New("ktx2: not a KTX 2.0 file (bad identifier)")
	}
	const fixed = 80
	if len(data) < fixed {
		return nil, fmt.Errorf("ktx2: file is %d bytes, shorter than the %d-byte header", len(data), fixed)
	}
	le := binary.LittleEndian
	u32 := func(o int) uint32 { return le.Uint32(data[o:]) }
	h := Header{
		VkFormat: u32(12), TypeSize: u32(16), PixelWidth: u32(20), PixelHeight: u32(24), PixelDepth: u32(28),
		LayerCount: u32(32), FaceCount: u32(36), LevelCount: u32(40), SupercompressionScheme: u32(44),
		DFDByteOffset: u32(48), DFDByteLength: u32(52), KVDByteOffset: u32(56), KVDByteLength: u32(60),
		SGDByteOffset: le.Uint64(data[64:]), SGDByteLength: le.Uint64(data[72:]),
	}
	f := &File{Header: h, data: data, KeyValues: map[string][]byte{}}
	switch {
	case h.PixelWidth == 0 || h.PixelHeight == 0:
		return nil, fmt.Errorf("ktx2: image is %dx%d: only 2D textures are decoded", h.PixelWidth, h.PixelHeight)
	case h.PixelWidth > MaxSide || h.PixelHeight > MaxSide:
		return nil, fmt.Errorf("ktx2: image is %dx%d, larger than %dx%d", h.PixelWidth, h.PixelHeight, MaxSide, MaxSide)
	case h.PixelDepth != 0:
		return nil, fmt.Errorf("ktx2: a 3D texture (depth %d) is not a glTF image", h.PixelDepth)
	case h.FaceCount != 1 && h.FaceCount != 6:
		return nil, fmt.Errorf("ktx2: faceCount is %d, must be 1 or 6", h.FaceCount)
	case h.LayerCount > 1<<16:
		return nil, fmt.Errorf("ktx2: layerCount %d is implausible", h.LayerCount)
	}
	levels := max(int(h.LevelCount), 1)
	maxLevels := 1
	for s := max(h.PixelWidth, h.PixelHeight); s > 1; s >>= 1 {
		maxLevels++
	}
	if levels > maxLevels {
		return nil, fmt.Errorf("ktx2: levelCount %d is more than a %dx%d image has (%d)", h.LevelCount, h.PixelWidth, h.PixelHeight, maxLevels)
	}
	if len(data) < fixed+24*levels {
		return nil, fmt.Errorf("ktx2: the level index (%d levels) is cut off", levels)
	}
	for l := 0; l < levels; l++ {
		o := fixed + 24*l
		lv := Level{le.Uint64(data[o:]), le.Uint64(data[o+8:]), le.Uint64(data[o+16:])}
		if lv.ByteOffset > uint64(len(data)) || lv.ByteLength > uint64(len(data))-lv.ByteOffset {
			return nil, fmt.Errorf("ktx2: level %d (offset %d, %d bytes) reaches past the end of the file (%d bytes)", l, lv.ByteOffset, lv.ByteLength, len(data))
		}
		f.Levels = append(f.Levels, lv)
	}
	if err := f.parseDFD(); err != nil {
		return nil, err
	}
	if err := f.parseKVD(); err != nil {
		return nil, err
	}
	switch h.SupercompressionScheme {
	case SchemeNone, SchemeZstd, SchemeZlib:
	case SchemeBasisLZ:
		if h.VkFormat != vkUndefined || f.DFD.ColorModel != ModelETC1S {
			return nil, fmt.Errorf("ktx2: BasisLZ supercompression with colour model %d (only ETC1S, model %d, is defined)", f.DFD.ColorModel, ModelETC1S)
		}
		gd, err := parseBasisLZ(f)
		if err != nil {
			return nil, err
		}
		f.gd = gd
	default:
		return nil, fmt.Errorf("ktx2: supercompression scheme %d is not supported", h.SupercompressionScheme)
	}
	switch {
	case h.VkFormat == vkUndefined && f.DFD.ColorModel == ModelETC1S:
		if h.SupercompressionScheme != SchemeBasisLZ {
			return nil, fmt.Errorf("ktx2: ETC1S data must be BasisLZ supercompressed (scheme is %d)", h.SupercompressionScheme)
		}
	case h.VkFormat == vkUndefined && f.DFD.ColorModel == ModelUASTC:
		if f.DFD.TexelBlockDimension != [4]uint8{3, 3, 0, 0} {
			return nil, fmt.Errorf("ktx2: UASTC with block size %dx%d (only 4x4 LDR is decoded)", f.DFD.TexelBlockDimension[0]+1, f.DFD.TexelBlockDimension[1]+1)
		}
	case plainFormats[h.VkFormat] != 0:
	case h.VkFormat == vkUndefined:
		return nil, fmt.Errorf("ktx2: colour model %d is not decoded (ETC1S and UASTC are)", f.DFD.ColorModel)
	default:
		return nil, fmt.Errorf("ktx2: VkFormat %d is not decoded (ETC1S, UASTC and 8-bit R, RG, RGB, RGBA are)", h.VkFormat)
	}
	return f, nil
}

// parseDFD reads the basic descriptor block of the data format descriptor.
func (f *File) parseDFD() error {
	h := f.Header
	if uint64(h.DFDByteOffset)+uint64(h.DFDByteLength) > uint64(len(f.data)) {
		return fmt.Errorf("ktx2: the data format descriptor (offset %d, %d bytes) reaches past the end of the file", h.DFDByteOffset, h.DFDByteLength)
	}
	d := f.data[h.DFDByteOffset : h.DFDByteOffset+h.DFDByteLength]
	// dfdTotalSize, then the block header (8 bytes) and 16 bytes of fields.
	if len(d) < 4+24 {
		return fmt.Errorf("ktx2: the data format descriptor is %d bytes, too short for a basic block", len(d))
	}
	le := binary.LittleEndian
	if le.Uint32(d) != uint32(len(d)) {
		return fmt.Errorf("ktx2: dfdTotalSize %d differs from dfdByteLength %d", le.Uint32(d), len(d))
	}
	b := d[4:]
	if vendor, typ := le.Uint32(b)&0x1ffff, le.Uint32(b)>>17; vendor != 0 || typ != 0 {
		return fmt.Errorf("ktx2: the first descriptor block is not the Khronos basic block (vendor %d, type %d)", vendor, typ)
	}
	size := int(le.Uint16(b[6:]))
	if size < 24 || size > len(b) || (size-24)%16 != 0 {
		return fmt.Errorf("ktx2: basic descriptor block size %d does not fit (%d bytes left)", size, len(b))
	}
	f.DFD.ColorModel, f.DFD.ColorPrimaries, f.DFD.TransferFunction, f.DFD.Flags = b[8], b[9], b[10], b[11]
	copy(f.DFD.TexelBlockDimension[:], b[12:16])
	for s := 24; s < size; s += 16 {
		f.DFD.Channels = append(f.DFD.Channels, b[s+3]&0xf)
	}
	return nil
}

// parseKVD reads the key/value pairs.
func (f *File) parseKVD() error {
	h := f.Header
	if h.KVDByteLength == 0 {
		return nil
	}
	if uint64(h.KVDByteOffset)+uint64(h.KVDByteLength) > uint64(len(f.data)) {
		return fmt.Errorf("ktx2: the key/value data (offset %d, %d bytes) reaches past the end of the file", h.KVDByteOffset, h.KVDByteLength)
	}
	d := f.data[h.KVDByteOffset : h.KVDByteOffset+h.KVDByteLength]
	for len(d) >= 4 {
		n := int(binary.LittleEndian.Uint32(d))
		if n > len(d)-4 {
			return fmt.Errorf("ktx2: a key/value pair of %d bytes reaches past the key/value data", n)
		}
		kv := d[4 : 4+n]
		k := bytes.IndexByte(kv, 0)
		if k < 0 {
			return fmt.Errorf("ktx2: a key/value pair has no NUL after its key")
		}
		f.KeyValues[string(kv[:k])] = bytes.TrimSuffix(kv[k+1:], []byte{0})
		d = d[min(len(d), 4+(n+3)&^3):]
	}
	return nil
}

// maxInflated bounds the size of a supercompressed level once inflated
// (a 16384x16384 RGBA level is 1 GiB).
const maxInflated = 1 << 30

// zstdDec decodes the Zstandard supercompression; DecodeAll may be called
// from several goroutines at once (as many at a time as GOMAXPROCS).
var zstdDec = sync.OnceValue(func() *zstd.Decoder {
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderMaxMemory(maxInflated))
	if err != nil {
		panic(err) // only bad options fail here
	}
	return d
})

// levelBytes returns mip level l's data, inflated when supercompressed
// with Zstandard or zlib (not for BasisLZ, whose slices are decoded as they
// are). want is the size the inflated data must have.
func (f *File) levelBytes(l int, want uint64) ([]byte, error) {
	lv := f.Levels[l]
	raw := f.data[lv.ByteOffset : lv.ByteOffset+lv.ByteLength]
	switch f.Header.SupercompressionScheme {
	case SchemeZstd, SchemeZlib:
		if lv.UncompressedByteLength != want {
			return nil, fmt.Errorf("ktx2: level %d: uncompressedByteLength is %d, the image needs %d", l, lv.UncompressedByteLength, want)
		}
		if want > maxInflated {
			return nil, fmt.Errorf("ktx2: level %d inflates to %d bytes, more than the %d accepted", l, want, maxInflated)
		}
		var out []byte
		var err error
		if f.Header.SupercompressionScheme == SchemeZstd {
			out, err = zstdDec().DecodeAll(raw, make([]byte, 0, want))
		} else {
			var r io.ReadCloser
			if r, err = zlib.NewReader(bytes.NewReader(raw)); err == nil {
				out, err = io.ReadAll(io.LimitReader(r, int64(want)+1))
			}
		}
		if err != nil {
			return nil, fmt.Errorf("ktx2: level %d: inflating: %w", l, err)
		}
		if uint64(len(out)) != want {
			return nil, fmt.Errorf("ktx2: level %d inflates to %d bytes, not %d", l, len(out), want)
		}
		return out, nil
	}
	if lv.ByteLength != want {
		return nil, fmt.Errorf("ktx2: level %d is %d bytes, the image needs %d", l, lv.ByteLength, want)
	}
	return raw, nil
}

// images returns how many images a level holds (layers times faces).
func (f *File) images() uint64 {
	return uint64(max(f.Header.LayerCount, 1)) * uint64(f.Header.FaceCount)
}

// DecodeLevel decodes mip level l (layer 0, face 0) to RGBA.
func (f *File) DecodeLevel(l int) (Image, error) {
	if l < 0 || l >= len(f.Levels) {
		return Image{}, fmt.Errorf("ktx2: level %d does not exist (%d levels)", l, len(f.Levels))
	}
	w, h := f.LevelSize(l)
	img := Image{Width: w, Height: h, Pix: make([]byte, 4*w*h)}
	if err := f.DecodeLevelInto(l, img.Pix); err != nil {
		return Image{}, err
	}
	return img, nil
}

// DecodeLevelInto decodes mip level l (layer 0, face 0) into pix, which
// must hold the level's width x height RGBA pixels (see LevelSize).
func (f *File) DecodeLevelInto(l int, pix []byte) error {
	if l < 0 || l >= len(f.Levels) {
		return fmt.Errorf("ktx2: level %d does not exist (%d levels)", l, len(f.Levels))
	}
	w, h := f.LevelSize(l)
	if len(pix) != 4*w*h {
		return fmt.Errorf("ktx2: level %d is %dx%d, %d bytes, not %d", l, w, h, 4*w*h, len(pix))
	}
	bw, bh := (w+3)/4, (h+3)/4
	switch f.Format() {
	case "ETC1S":
		if err := f.gd.decodeImage(f, l, w, h, pix); err != nil {
			return fmt.Errorf("ktx2: level %d: %w", l, err)
		}
	case "UASTC":
		d, err := f.levelBytes(l, uint64(bw*bh*16)*f.images())
		if err != nil {
			return err
		}
		if err := decodeUASTC(d[:bw*bh*16], w, h, pix); err != nil {
			return fmt.Errorf("ktx2: level %d: %w", l, err)
		}
	default:
		bpp := plainFormats[f.Header.VkFormat]
		d, err := f.levelBytes(l, uint64(w*h*bpp)*f.images())
		if err != nil {
			return err
		}
		expand(d[:w*h*bpp], bpp, pix)
	}
	if f.RowsUp() {
		flipRows(pix, 4*w, h)
	}
	return nil
}

// RowsUp says the file's KTXorientation has rows going up (its second
// letter is "u"): its first row is the bottom one, and the decoded levels
// are flipped to top first. glTF files use the default "rd".
func (f *File) RowsUp() bool {
	o := f.KeyValues["KTXorientation"]
	return len(o) >= 2 && o[1] == 'u'
}

// flipRows reverses the order of the h rows of stride bytes in pix.
func flipRows(pix []byte, stride, h int) {
	tmp := make([]byte, stride)
	for y := 0; y < h/2; y++ {
		a, b := pix[y*stride:(y+1)*stride], pix[(h-1-y)*stride:(h-y)*stride]
		copy(tmp, a)
		copy(a, b)
		copy(b, tmp)
	}
}

// expand widens 1, 2 or 3 bytes a pixel to RGBA in out as a GL sampler
// reads such textures: missing colour channels 0, missing alpha 255.
func expand(d []byte, bpp int, out []byte) {
	if bpp == 4 {
		copy(out, d)
		return
	}
	for i := 0; i < len(d)/bpp; i++ {
		o := out[4*i : 4*i+4]
		o[0], o[1], o[2], o[3] = 0, 0, 0, 255
		copy(o, d[bpp*i:bpp*i+bpp])
	}
}
